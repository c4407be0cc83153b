// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// Layer normalisation along an axis: the mean and the variance by reduce_sum
// times the reciprocal of the count, rsqrt(var + epsilon), then gamma and beta
// (known: constants laid along the axis; else reshaped to it).

func.func @known(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %g = relay.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = relay.constant dense<[0.5, 0.0, -0.5, 1.0]> : tensor<4xf32>
  %r = relay.nn.layer_norm(%x, %g, %b) {epsilon = 1.0e-06 : f64}
    : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

func.func @axis0_unscaled(%x: tensor<3x4xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3x4xf32> {
  %r = relay.nn.layer_norm(%x, %g, %b) {axis = 0 : i32, scale = false}
    : (tensor<3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "known"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x4xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const"() {values = dense<2.500000e-01> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.reduce_sum"([[V0]]) {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V4:%.*]] = "tosa.mul"([[V2]], [[V1]], [[V3]]) : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.sub"([[V0]], [[V4]]) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V7:%.*]] = "tosa.mul"([[V5]], [[V5]], [[V6]]) : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
// CHECK-NEXT: [[V8:%.*]] = "tosa.reduce_sum"([[V7]]) {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: [[V9:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V10:%.*]] = "tosa.mul"([[V8]], [[V1]], [[V9]]) : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x1xf32>
// CHECK-NEXT: [[V11:%.*]] = "tosa.const"() {values = dense<1.000000e-06> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V12:%.*]] = "tosa.add"([[V10]], [[V11]]) : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: [[V13:%.*]] = "tosa.rsqrt"([[V12]]) : (tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: [[V14:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V15:%.*]] = "tosa.mul"([[V5]], [[V13]], [[V14]]) : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x4xf32>
// CHECK-NEXT: [[V16:%.*]] = "tosa.const"() {values = dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
// CHECK-NEXT: [[V17:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V18:%.*]] = "tosa.mul"([[V15]], [[V16]], [[V17]]) : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
// CHECK-NEXT: [[V19:%.*]] = "tosa.const"() {values = dense<[[5.000000e-01, 0.000000e+00, -5.000000e-01, 1.000000e+00]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
// CHECK-NEXT: [[V20:%.*]] = "tosa.add"([[V18]], [[V19]]) : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: "func.return"([[V20]]) : (tensor<2x4xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "axis0_unscaled"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<3x4xf32>, [[V1:%.*]]: tensor<3xf32>, [[V2:%.*]]: tensor<3xf32>):
// CHECK-NEXT: [[V3:%.*]] = "tosa.const"() {values = dense<0.333333343> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.reduce_sum"([[V0]]) {axis = 0 : i32} : (tensor<3x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V6:%.*]] = "tosa.mul"([[V4]], [[V3]], [[V5]]) : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V7:%.*]] = "tosa.sub"([[V0]], [[V6]]) : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: [[V8:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V9:%.*]] = "tosa.mul"([[V7]], [[V7]], [[V8]]) : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<1xi8>) -> tensor<3x4xf32>
// CHECK-NEXT: [[V10:%.*]] = "tosa.reduce_sum"([[V9]]) {axis = 0 : i32} : (tensor<3x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V11:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V12:%.*]] = "tosa.mul"([[V10]], [[V3]], [[V11]]) : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V13:%.*]] = "tosa.const"() {values = dense<1.000000e-05> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V14:%.*]] = "tosa.add"([[V12]], [[V13]]) : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V15:%.*]] = "tosa.rsqrt"([[V14]]) : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: [[V16:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V17:%.*]] = "tosa.mul"([[V7]], [[V15]], [[V16]]) : (tensor<3x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<3x4xf32>
// CHECK-NEXT: [[V18:%.*]] = "tosa.const_shape"() {values = dense<[3, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V19:%.*]] = "tosa.reshape"([[V2]], [[V18]]) : (tensor<3xf32>, !tosa.shape<2>) -> tensor<3x1xf32>
// CHECK-NEXT: [[V20:%.*]] = "tosa.add"([[V17]], [[V19]]) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: "func.return"([[V20]]) : (tensor<3x4xf32>) -> ()
