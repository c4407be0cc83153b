// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// power: a known small integer exponent is multiplications by squaring (TOSA
// leaves pow undefined for a negative base), 0.5 is reciprocal(rsqrt(x));
// other exponents are tosa.pow.

func.func @cube(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = relay.constant dense<3.0> : tensor<f32>
  %r = relay.power(%x, %e) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @square_root(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = relay.constant dense<0.5> : tensor<f32>
  %r = relay.power(%x, %e) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @other(%x: tensor<2x3xf32>, %e: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = relay.power(%x, %e) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "cube"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V2:%.*]] = "tosa.mul"([[V0]], [[V0]], [[V1]]) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V4:%.*]] = "tosa.mul"([[V0]], [[V2]], [[V3]]) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"([[V4]]) : (tensor<2x3xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "square_root"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.rsqrt"([[V0]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.reciprocal"([[V1]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"([[V2]]) : (tensor<2x3xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "other"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3xf32>, [[V1:%.*]]: tensor<3xf32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V3:%.*]] = "tosa.reshape"([[V1]], [[V2]]) : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.pow"([[V0]], [[V3]]) : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"([[V4]]) : (tensor<2x3xf32>) -> ()
