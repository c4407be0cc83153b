// A per-channel bias added right after a convolution (nn.bias_add on the
// channel axis, or add of a tensor varying along the channels only) is the
// convolution's initial sums (rules/bias.py): TOSA's bias operand, or, for
// the linalg depthwise form, the bias broadcast into the output it sums into.
// No add is left.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s --check-prefixes=CHECK,TOSA
// RUN: xdsl-opt %s -p convert-relay-to-linalg --print-op-generic | filecheck %s --check-prefixes=CHECK,LINALG
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// CHECK-LABEL: sym_name = "bias_add"
// CHECK:       %[[BIAS:.*]] = "tosa.const"() {values = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}
// CHECK:       %[[CONV:.*]] = "tosa.conv2d"(%{{.*}}, %{{.*}}, %[[BIAS]], %{{.*}}, %{{.*}})
// CHECK-NOT:   "tosa.add"
// CHECK:       %[[R:.*]] = "tosa.clamp"(%[[CONV]])
func.func @bias_add(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  %b = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %a = relay.nn.bias_add(%c, %b) : (tensor<1x2x4x4xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = relay.nn.relu(%a) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  func.return %r : tensor<1x2x4x4xf32>
}

// A (1, C, 1, 1) tensor computed at run time, added first (b + conv), to a
// depthwise convolution: reshaped to one value per channel.
// CHECK-LABEL: sym_name = "depthwise_add"
// CHECK:       ^bb0(%{{.*}}: tensor<1x4x6x6xf32>, %{{.*}}: tensor<4x1x3x3xf32>, %[[B:.*]]: tensor<1x4x1x1xf32>):
// CHECK:       %[[VECTOR:.*]] = "tosa.reshape"(%[[B]], %{{.*}}) : (tensor<1x4x1x1xf32>, !tosa.shape<1>) -> tensor<4xf32>
// TOSA:        %[[CONV:.*]] = "tosa.depthwise_conv2d"(%{{.*}}, %{{.*}}, %[[VECTOR]], %{{.*}}, %{{.*}}) {{.*}} -> tensor<1x3x3x4xf32>
// LINALG:      %[[INIT:.*]] = "linalg.broadcast"(%[[VECTOR]], %{{.*}}) <{dimensions = array<i64: 0, 1, 2>}>
// LINALG:      %[[CONV:.*]] = "linalg.depthwise_conv_2d_nhwc_hwc"(%{{.*}}, %{{.*}}, %[[INIT]])
// CHECK-NOT:   "tosa.add"
// CHECK:       "tosa.transpose"(%[[CONV]]) {perms = array<i32: 0, 3, 1, 2>}
func.func @depthwise_add(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32> {
  %c = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, groups = 4 : i32, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  %a = relay.add(%b, %c) : (tensor<1x4x1x1xf32>, tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return %a : tensor<1x4x3x3xf32>
}

// Not a bias: nn.bias_add along the rows (as many as the channels), and an add
// where the convolution's result has a second use. Both adds stay.
// CHECK-LABEL: sym_name = "not_bias"
// CHECK:       %[[CONV:.*]] = "tosa.conv2d"(%{{.*}}, %{{.*}}, %[[ZEROS:.*]], %{{.*}}, %{{.*}})
// CHECK:       "tosa.add"(%[[CONV]], %{{.*}})
// CHECK:       %[[CONV2:.*]] = "tosa.conv2d"
// CHECK:       %[[SUM:.*]] = "tosa.add"(%[[CONV2]], %{{.*}})
// CHECK:       "tosa.mul"(%[[SUM]], %[[CONV2]], %{{.*}})
func.func @not_bias(%x: tensor<1x2x2x2xf32>, %w: tensor<2x2x1x1xf32>, %b: tensor<2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %c = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %rows = relay.nn.bias_add(%c, %b) {axis = 2 : i32} : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %c2 = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %k = relay.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %sum = relay.add(%c2, %k) : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %twice = relay.multiply(%sum, %c2) : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %rows, %twice : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
