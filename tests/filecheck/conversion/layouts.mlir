// Layouts: an activation is NHWC from its first convolution on; an operator
// that needs Relay's order gets a transpose back (a reshape of C x H x W), one
// that does not keeps NHWC (a reshape of 1 x 1 x C: the layout moves only
// dimensions of size one), a transpose composes with the layout, and NHWC
// inputs need no transposes at all. nn.dense: tosa.matmul on rank 3, its
// weight transposed when compiling.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// CHECK-LABEL: sym_name = "flatten_after_conv"
// CHECK:       %[[C:.*]] = "tosa.conv2d"({{.*}}) -> tensor<1x4x4x3xf32>
// CHECK-NEXT:  %[[NCHW:.*]] = "tosa.transpose"(%[[C]]) {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
// CHECK:       %[[R:.*]] = "tosa.reshape"(%[[NCHW]], %{{.*}}) : (tensor<1x3x4x4xf32>, !tosa.shape<2>) -> tensor<1x48xf32>
// CHECK-NEXT:  "func.return"(%[[R]])
func.func @flatten_after_conv(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x48xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = relay.nn.batch_flatten(%c) : (tensor<1x3x4x4xf32>) -> tensor<1x48xf32>
  func.return %r : tensor<1x48xf32>
}

// CHECK-LABEL: sym_name = "pool_then_reshape"
// CHECK:       %[[P:.*]] = "tosa.avg_pool2d"({{.*}}) -> tensor<1x1x1x3xf32>
// CHECK-NOT:   "tosa.transpose"
// CHECK:       %[[R:.*]] = "tosa.reshape"(%[[P]], %{{.*}}) : (tensor<1x1x1x3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK-NEXT:  "func.return"(%[[R]])
func.func @pool_then_reshape(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %p = relay.nn.global_avg_pool2d(%c) : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  %r = relay.reshape(%p) {newshape = array<i32: 1, -1>} : (tensor<1x3x1x1xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// CHECK-LABEL: sym_name = "squeeze_after_pool"
// CHECK:       %[[P:.*]] = "tosa.avg_pool2d"({{.*}}) -> tensor<1x1x1x3xf32>
// CHECK-NOT:   "tosa.transpose"
// CHECK:       %[[R:.*]] = "tosa.reshape"(%[[P]], %{{.*}}) : (tensor<1x1x1x3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK-NEXT:  "func.return"(%[[R]])
func.func @squeeze_after_pool(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %p = relay.nn.adaptive_avg_pool2d(%c) {output_size = array<i32: 1, 1>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  %r = relay.squeeze(%p) {axis = array<i32: 2, 3>} : (tensor<1x3x1x1xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// NCHW -> NHWC of a tensor held in NHWC: no operation at all.
// CHECK-LABEL: sym_name = "transpose_after_conv"
// CHECK:       %[[C:.*]] = "tosa.conv2d"({{.*}}) -> tensor<1x4x4x3xf32>
// CHECK-NEXT:  "func.return"(%[[C]])
func.func @transpose_after_conv(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x4x4x3xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = relay.transpose(%c) {axes = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
  func.return %r : tensor<1x4x4x3xf32>
}

// axes (3, 0, 1, 2) of NCHW, from NHWC: one transpose (2, 0, 3, 1).
// CHECK-LABEL: sym_name = "transpose_composed"
// CHECK:       %[[C:.*]] = "tosa.conv2d"({{.*}}) -> tensor<1x4x4x3xf32>
// CHECK-NEXT:  %[[T:.*]] = "tosa.transpose"(%[[C]]) {perms = array<i32: 2, 0, 3, 1>} : (tensor<1x4x4x3xf32>) -> tensor<4x1x3x4xf32>
// CHECK-NEXT:  "func.return"(%[[T]])
func.func @transpose_composed(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<4x1x3x4xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = relay.transpose(%c) {axes = array<i32: 3, 0, 1, 2>} : (tensor<1x3x4x4xf32>) -> tensor<4x1x3x4xf32>
  func.return %r : tensor<4x1x3x4xf32>
}

// CHECK-LABEL: sym_name = "nhwc_network"
// CHECK:       ^bb0(%[[X:.*]]: tensor<1x4x4x2xf32>, %[[W:.*]]: tensor<1x1x2x3xf32>):
// CHECK-NOT:   "tosa.transpose"(%[[X]])
// CHECK:       "tosa.transpose"(%[[W]]) {perms = array<i32: 3, 0, 1, 2>}
// CHECK:       %[[C:.*]] = "tosa.conv2d"(%[[X]], {{.*}}) -> tensor<1x4x4x3xf32>
// CHECK-NEXT:  %[[M:.*]] = "tosa.max_pool2d"(%[[C]])
// CHECK-NEXT:  %[[G:.*]] = "tosa.avg_pool2d"(%[[M]], {{.*}}) -> tensor<1x1x1x3xf32>
// CHECK-NEXT:  %{{.*}} = "tosa.const_shape"
// CHECK-NEXT:  %[[R:.*]] = "tosa.reshape"(%[[G]], %{{.*}}) : (tensor<1x1x1x3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK-NEXT:  "func.return"(%[[R]])
func.func @nhwc_network(%x: tensor<1x4x4x2xf32>, %w: tensor<1x1x2x3xf32>) -> tensor<1x3xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x4x4x3xf32>
  %p = relay.nn.max_pool2d(%c) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, layout = "NHWC"} : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  %g = relay.nn.global_avg_pool2d(%p) {layout = "NHWC"} : (tensor<1x2x2x3xf32>) -> tensor<1x1x1x3xf32>
  %r = relay.nn.batch_flatten(%g) : (tensor<1x1x1x3xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// CHECK-LABEL: sym_name = "dense_bias"
// CHECK:       ^bb0(%[[X:.*]]: tensor<2x4xf32>):
// CHECK:       %[[X3:.*]] = "tosa.reshape"(%[[X]], %{{.*}}) : (tensor<2x4xf32>, !tosa.shape<3>) -> tensor<1x2x4xf32>
// CHECK-NEXT:  %[[WT:.*]] = "tosa.const"() {values = dense<{{\[\[\[}}0.000000e+00, 4.000000e+00, 8.000000e+00], [1.000000e+00, 5.000000e+00, 9.000000e+00], [2.000000e+00, 6.000000e+00, 1.000000e+01], [3.000000e+00, 7.000000e+00, 1.100000e+01]]]> : tensor<1x4x3xf32>}
// CHECK-NEXT:  %[[ZP:.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>}
// CHECK-NEXT:  %[[MM:.*]] = "tosa.matmul"(%[[X3]], %[[WT]], %[[ZP]], %[[ZP]]) : (tensor<1x2x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
// CHECK:       %[[D:.*]] = "tosa.reshape"(%[[MM]], %{{.*}}) : (tensor<1x2x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
// CHECK-NEXT:  %[[B:.*]] = "tosa.const"() {values = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x3xf32>}
// CHECK-NEXT:  %[[R:.*]] = "tosa.add"(%[[D]], %[[B]]) : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  "func.return"(%[[R]])
func.func @dense_bias(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = relay.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %b = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %d = relay.nn.dense(%x, %w) {units = 3 : i32} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %r = relay.nn.bias_add(%d, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
