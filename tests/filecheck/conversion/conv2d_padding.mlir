// TOSA's exact-size rule for convolutions: (in - 1 + before + after - (k - 1) * d)
// must be a multiple of the stride. Relay rounds the output size down, so the
// padding after is chosen from the output size Relay's type gives; where even
// no padding after is too much, the rows the window never reaches are sliced off.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// resnet's stem: 7x7, stride 2, padding 3 on an even size: padding 2 after.
// CHECK-LABEL: sym_name = "stem"
// CHECK:       "tosa.conv2d"({{.*}}) {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 3, 2, 3, 2>, stride = array<i64: 2, 2>} : (tensor<1x16x16x3xf32>, tensor<8x7x7x3xf32>, {{.*}}) -> tensor<1x8x8x8xf32>
func.func @stem(%x: tensor<1x3x16x16xf32>, %w: tensor<8x3x7x7xf32>) -> tensor<1x8x8x8xf32> {
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 3, 3, 3, 3>, channels = 8 : i32, kernel_size = array<i32: 7, 7>} : (tensor<1x3x16x16xf32>, tensor<8x3x7x7xf32>) -> tensor<1x8x8x8xf32>
  func.return %r : tensor<1x8x8x8xf32>
}

// resnet's downsampling 1x1, stride 2 on an even size: the last row and column
// are never read, and even no padding after is too much: tosa.slice cuts them off.
// CHECK-LABEL: sym_name = "downsample"
// CHECK:       %[[X:.*]] = "tosa.transpose"
// CHECK:       %[[START:.*]] = "tosa.const_shape"() {values = dense<0> : tensor<4xindex>}
// CHECK-NEXT:  %[[SIZE:.*]] = "tosa.const_shape"() {values = dense<[1, 7, 7, 4]> : tensor<4xindex>}
// CHECK-NEXT:  %[[CUT:.*]] = "tosa.slice"(%[[X]], %[[START]], %[[SIZE]]) : (tensor<1x8x8x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x4xf32>
// CHECK:       "tosa.conv2d"(%[[CUT]], {{.*}}) {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x7x4xf32>, {{.*}}) -> tensor<1x4x4x8xf32>
func.func @downsample(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<1x8x4x4xf32> {
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, channels = 8 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x4x4xf32>
  func.return %r : tensor<1x8x4x4xf32>
}

// 3x3, stride 2, padding 1 on an even size: no padding after.
// CHECK-LABEL: sym_name = "stride_2"
// CHECK:       "tosa.conv2d"({{.*}}) {{{.*}} pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>, {{.*}}) -> tensor<1x4x4x4xf32>
func.func @stride_2(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// Relay's padding (top, left, bottom, right) is TOSA's (top, bottom, left, right);
// two values mean (top and bottom, left and right).
// CHECK-LABEL: sym_name = "asymmetric"
// CHECK:       "tosa.conv2d"({{.*}}) {{{.*}} pad = array<i64: 0, 2, 1, 3>, stride = array<i64: 1, 1>} : (tensor<1x5x5x1xf32>, {{.*}}) -> tensor<1x6x8x1xf32>
// CHECK-LABEL: sym_name = "two_values"
// CHECK:       "tosa.conv2d"({{.*}}) {{{.*}} pad = array<i64: 2, 2, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x5x5x1xf32>, {{.*}}) -> tensor<1x8x6x1xf32>
func.func @asymmetric(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x6x8xf32> {
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 0, 1, 2, 3>, channels = 1 : i32, kernel_size = array<i32: 2, 2>} : (tensor<1x1x5x5xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x6x8xf32>
  func.return %r : tensor<1x1x6x8xf32>
}
func.func @two_values(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x8x6xf32> {
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 2, 1>, channels = 1 : i32, kernel_size = array<i32: 2, 2>} : (tensor<1x1x5x5xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x8x6xf32>
  func.return %r : tensor<1x1x8x6xf32>
}

// Dilation 2, stride 2 on 6x6 with padding 1: the padding after drops to 0.
// CHECK-LABEL: sym_name = "dilated"
// CHECK:       "tosa.conv2d"({{.*}}) {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x1xf32>, {{.*}}) -> tensor<1x2x2x1xf32>
func.func @dilated(%x: tensor<1x1x6x6xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, dilation = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, channels = 1 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}
