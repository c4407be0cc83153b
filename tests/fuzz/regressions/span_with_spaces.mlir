"builtin.module"() ({
  "func.func"() <{sym_name = "main", function_type = (tensor<2xf32>) -> tensor<2xf32>}> ({
  ^bb0(%data: tensor<2xf32> loc("data"("aten::_c* 1 + 1 < 1 == 1nvolution_0.data":0:0))):
    %0 = "relay.nn.relu"(%data) : (tensor<2xf32>) -> tensor<2xf32> loc("a */ b":1:2)
    "func.return"(%0) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
