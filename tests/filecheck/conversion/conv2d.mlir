// nn.conv2d with one group: tosa.conv2d on NHWC. The NCHW input is transposed
// once, a known OIHW weight becomes an OHWI tosa.const when compiling (a weight
// computed at run time is transposed at run time), the bias is zero, and the
// zero points are one shared zero. The result goes back to NCHW only where
// Relay's order is needed (here: the function's result).
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// CHECK-LABEL: sym_name = "conv2d"
// CHECK:      ^bb0(%[[X:.*]]: tensor<1x2x5x5xf32>):
// CHECK-NEXT:   %[[NHWC:.*]] = "tosa.transpose"(%[[X]]) {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x5x5x2xf32>
// CHECK-NEXT:   %[[ZP:.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>}
// CHECK-NEXT:   %[[W:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}0.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00]]], {{\[\[\[}}4.000000e+00, 6.000000e+00], [5.000000e+00, 7.000000e+00]]]]> : tensor<2x1x2x2xf32>}
// CHECK-NEXT:   %[[B:.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<2xf32>}
// CHECK-NEXT:   %[[C:.*]] = "tosa.conv2d"(%[[NHWC]], %[[W]], %[[B]], %[[ZP]], %[[ZP]]) {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x4x2xf32>
// CHECK-NEXT:   %[[R:.*]] = "tosa.transpose"(%[[C]]) {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x5x4x2xf32>) -> tensor<1x2x5x4xf32>
// CHECK-NEXT:   "func.return"(%[[R]])
func.func @conv2d(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x4xf32> {
  %w = relay.constant dense<[[[[0.0, 1.0]], [[2.0, 3.0]]], [[[4.0, 5.0]], [[6.0, 7.0]]]]> : tensor<2x2x1x2xf32>
  %r = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 2>} : (tensor<1x2x5x5xf32>, tensor<2x2x1x2xf32>) -> tensor<1x2x5x4xf32>
  func.return %r : tensor<1x2x5x4xf32>
}

// Two convolutions in a row: NHWC between them, no transposes. A weight that
// is a parameter is transposed at run time.
// CHECK-LABEL: sym_name = "conv2d_chain"
// CHECK:      ^bb0(%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W1:.*]]: tensor<4x3x3x3xf32>):
// CHECK-NEXT:   "tosa.transpose"(%[[X]]) {perms = array<i32: 0, 2, 3, 1>}
// CHECK:        %[[OHWI:.*]] = "tosa.transpose"(%[[W1]]) {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
// CHECK:        %[[A:.*]] = "tosa.conv2d"(%{{.*}}, %[[OHWI]], {{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : {{.*}} -> tensor<1x8x8x4xf32>
// CHECK-NOT:    "tosa.transpose"
// CHECK:        "tosa.conv2d"(%{{.*}}) {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : {{.*}} -> tensor<1x8x8x4xf32>
// CHECK-NEXT:   "tosa.transpose"({{.*}}) {perms = array<i32: 0, 3, 1, 2>}
// CHECK-NEXT:   "func.return"
func.func @conv2d_chain(%x: tensor<1x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %w2 = relay.constant dense<2.0> : tensor<4x4x3x3xf32>
  %a = relay.nn.conv2d(%x, %w1) {padding = array<i32: 1, 1, 1, 1>, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %b = relay.nn.conv2d(%a, %w2) {padding = array<i32: 2, 2, 2, 2>, dilation = array<i32: 2, 2>, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  func.return %b : tensor<1x4x8x8xf32>
}

// NHWC data and an HWIO weight: no transpose of the activation at all.
// CHECK-LABEL: sym_name = "conv2d_nhwc_hwio"
// CHECK:      ^bb0(%[[X:.*]]: tensor<1x8x8x3xf32>, %[[W:.*]]: tensor<3x3x3x4xf32>):
// CHECK-NEXT:   %[[ZP:.*]] = "tosa.const"()
// CHECK-NEXT:   %[[OHWI:.*]] = "tosa.transpose"(%[[W]]) {perms = array<i32: 3, 0, 1, 2>} : (tensor<3x3x3x4xf32>) -> tensor<4x3x3x3xf32>
// CHECK-NEXT:   %[[B:.*]] = "tosa.const"()
// CHECK-NEXT:   %[[C:.*]] = "tosa.conv2d"(%[[X]], %[[OHWI]], %[[B]], %[[ZP]], %[[ZP]]) {{.*}} -> tensor<1x8x8x4xf32>
// CHECK-NEXT:   "func.return"(%[[C]])
func.func @conv2d_nhwc_hwio(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 4 : i32, kernel_size = array<i32: 3, 3>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  func.return %r : tensor<1x8x8x4xf32>
}
