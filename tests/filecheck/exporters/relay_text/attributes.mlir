// RUN: xdsl-opt %s -t relay | filecheck %s
// Only non-default attributes print, in TVM's field order; fields without a
// default (strided_slice's axes) always print; int64 and float literals keep
// their suffixes; temps are numbered across functions; a relay.let is a
// Relay let binding.
func.func @first(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.conv2d(%x, %w) {kernel_size = array<i32: 3, 3>, groups = 1 : i32, padding = array<i32: 1, 1>, data_layout = "NCHW", channels = 4 : i32} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.clip(%0) {a_min = 0.000000e+00 : f64, a_max = 6.000000e+00 : f64} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  func.return %1 : tensor<1x4x8x8xf32>
}
func.func @second(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %1 = relay.strided_slice(%x) {begin = array<i64: 0, 0>, end = array<i64: 2, 4>, strides = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %sliced = relay.let %1 : tensor<2x4xf32>
  %2 = relay.exp(%sliced) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %2 : tensor<2x4xf32>
}
// CHECK:      #[version = "0.0.5"]
// CHECK-NEXT: def @first(%x: Tensor[(1, 3, 8, 8), float32] /* ty=Tensor[(1, 3, 8, 8), float32] */, %w: Tensor[(4, 3, 3, 3), float32] /* ty=Tensor[(4, 3, 3, 3), float32] */) -> Tensor[(1, 4, 8, 8), float32] {
// CHECK-NEXT:   %0 = nn.conv2d(%x, %w, padding=[1, 1], channels=4, kernel_size=[3, 3]) /* ty=Tensor[(1, 4, 8, 8), float32] */;
// CHECK-NEXT:   clip(%0, a_min=0f64, a_max=6f64) /* ty=Tensor[(1, 4, 8, 8), float32] */
// CHECK-NEXT: }
// CHECK:      def @second(%x: Tensor[(4, 4), float32] /* ty=Tensor[(4, 4), float32] */) -> Tensor[(2, 4), float32] {
// CHECK-NEXT:   let %sliced: Tensor[(2, 4), float32] /* ty=Tensor[(2, 4), float32] */ = strided_slice(%x, begin=[0i64, 0i64], end=[2i64, 4i64], strides=[1i64], axes=None) /* ty=Tensor[(2, 4), float32] */;
// CHECK-NEXT:   exp(%sliced) /* ty=Tensor[(2, 4), float32] */
// CHECK-NEXT: }
