"builtin.module"() ({
  "func.func"() <{sym_name = "main", functon_type = (tensor<2xf32>) -> tensor<2xf32>}> ({
  ^bb0(%x: tensor<2xf32>):
    "func.return"(%x) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
