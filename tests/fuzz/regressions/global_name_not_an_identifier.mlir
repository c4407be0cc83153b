"builtin.module"() ({
  "func.func"() <{sym_name = "ma}in", function_type = (tensor<10x10xf32>) -> tensor<10x10xf32>}> ({
  ^bb0(%x: tensor<10x10xf32>):
    %0 = "relay.nn.relu"(%x) : (tensor<10x10xf32>) -> tensor<10x10xf32>
    "func.return"(%0) : (tensor<10x10xf32>) -> ()
  }) : () -> ()
}) : () -> ()
