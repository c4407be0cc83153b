// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// where: tosa.select on operands of the result's rank, broadcast by TOSA; a
// known operand of equal elements (vit's full_like mask fill) enters as one
// element; a condition that is not bool is compared with zero.

func.func @masked(%c: tensor<2x3x1xi1>, %y: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %z = relay.constant dense<0.0> : tensor<f32>
  %f = relay.full_like(%y, %z) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %r = relay.where(%c, %f, %y) : (tensor<2x3x1xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}

func.func @float_condition(%c: tensor<3x4xf32>, %x: tensor<4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = relay.where(%c, %x, %y) : (tensor<3x4xf32>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "masked"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3x1xi1>, [[V1:%.*]]: tensor<2x3x4xf32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.select"([[V0]], [[V2]], [[V1]]) : (tensor<2x3x1xi1>, tensor<1x1x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: "func.return"([[V3]]) : (tensor<2x3x4xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "float_condition"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<3x4xf32>, [[V1:%.*]]: tensor<4xf32>, [[V2:%.*]]: tensor<3x4xf32>):
// CHECK-NEXT: [[V3:%.*]] = "tosa.const_shape"() {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V4:%.*]] = "tosa.reshape"([[V1]], [[V3]]) : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.equal"([[V0]], [[V5]]) : (tensor<3x4xf32>, tensor<1x1xf32>) -> tensor<3x4xi1>
// CHECK-NEXT: [[V7:%.*]] = "tosa.logical_not"([[V6]]) : (tensor<3x4xi1>) -> tensor<3x4xi1>
// CHECK-NEXT: [[V8:%.*]] = "tosa.select"([[V7]], [[V4]], [[V2]]) : (tensor<3x4xi1>, tensor<1x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: "func.return"([[V8]]) : (tensor<3x4xf32>) -> ()
