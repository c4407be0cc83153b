// nn.batch_norm with known parameters: x * scale + shift, scale and shift
// computed when compiling (gamma / sqrt(var + epsilon), beta - mean * scale)
// and laid out as the activation is (NHWC after a convolution, here); the mean
// and variance fields of its result pass through. Parameters computed at run
// time are an error (errors.mlir).
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// CHECK-LABEL: sym_name = "batch_norm"
// CHECK:       %[[C:.*]] = "tosa.conv2d"({{.*}}) -> tensor<1x4x4x2xf32>
// CHECK-NEXT:  %[[SCALE:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}1.000000e+00, 1.250000e-01]]]]> : tensor<1x1x1x2xf32>}
// CHECK-NEXT:  %[[SHIFT_ZERO:.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>}
// CHECK-NEXT:  %[[M:.*]] = "tosa.mul"(%[[C]], %[[SCALE]], %[[SHIFT_ZERO]]) : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT:  %[[SHIFT:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}0.000000e+00, -7.500000e-01]]]]> : tensor<1x1x1x2xf32>}
// CHECK-NEXT:  %[[A:.*]] = "tosa.add"(%[[M]], %[[SHIFT]]) : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT:  "tosa.transpose"(%[[A]]) {perms = array<i32: 0, 3, 1, 2>}
func.func @batch_norm(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %gamma = relay.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %beta = relay.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %mean = relay.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %var = relay.constant dense<[4.0, 16.0]> : tensor<2xf32>
  %c = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %bn = relay.nn.batch_norm(%c, %gamma, %beta, %mean, %var) {epsilon = 0.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %r = relay.tuple_get_item %bn[0] : tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  func.return %r : tensor<1x2x4x4xf32>
}

// On an NCHW input, in NCHW; scale = false leaves gamma out.
// CHECK-LABEL: sym_name = "batch_norm_nchw"
// CHECK:       ^bb0(%[[X:.*]]: tensor<1x2x4x4xf32>):
// CHECK-NEXT:  %[[SCALE:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}2.500000e-01]]]]> : tensor<1x2x1x1xf32>}
// CHECK:       %[[M:.*]] = "tosa.mul"(%[[X]], %[[SCALE]], %{{.*}})
// CHECK-NEXT:  %[[SHIFT:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}-5.000000e-01]]]]> : tensor<1x2x1x1xf32>}
// CHECK-NEXT:  %[[A:.*]] = "tosa.add"(%[[M]], %[[SHIFT]])
// CHECK-NEXT:  "func.return"(%[[A]])
func.func @batch_norm_nchw(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %gamma = relay.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %beta = relay.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %mean = relay.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %var = relay.constant dense<[4.0, 16.0]> : tensor<2xf32>
  %bn = relay.nn.batch_norm(%x, %gamma, %beta, %mean, %var) {epsilon = 0.0 : f32, scale = false} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %r = relay.tuple_get_item %bn[0] : tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  func.return %r : tensor<1x2x4x4xf32>
}
