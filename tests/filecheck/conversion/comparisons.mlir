// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// The comparisons TOSA lacks: not_equal is logical_not(equal); less and
// less_equal are greater and greater_equal with the operands swapped.

func.func @not_equal(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xi1> {
  %r = relay.not_equal(%a, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  func.return %r : tensor<3x4xi1>
}

func.func @less(%a: tensor<3x4xi32>, %b: tensor<3x4xi32>) -> tensor<3x4xi1> {
  %r = relay.less(%a, %b) : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
  func.return %r : tensor<3x4xi1>
}

func.func @less_equal(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xi1> {
  %r = relay.less_equal(%a, %b) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  func.return %r : tensor<3x4xi1>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "not_equal"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<3x4xf32>, [[V1:%.*]]: tensor<4xf32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V3:%.*]] = "tosa.reshape"([[V1]], [[V2]]) : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.equal"([[V0]], [[V3]]) : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT: [[V5:%.*]] = "tosa.logical_not"([[V4]]) : (tensor<3x4xi1>) -> tensor<3x4xi1>
// CHECK-NEXT: "func.return"([[V5]]) : (tensor<3x4xi1>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "less"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<3x4xi32>, [[V1:%.*]]: tensor<3x4xi32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.greater"([[V1]], [[V0]]) : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
// CHECK-NEXT: "func.return"([[V2]]) : (tensor<3x4xi1>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "less_equal"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<3x4xf32>, [[V1:%.*]]: tensor<3x4xf32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.greater_equal"([[V1]], [[V0]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT: "func.return"([[V2]]) : (tensor<3x4xi1>) -> ()
