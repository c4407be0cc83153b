// Valid IR whose conv2d result type its padding contradicts: the Relay
// printout did not import back. The printer now refuses it.
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.conv2d(%x, %w) {padding = array<i32: 3, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  func.return %0 : tensor<1x4x8x8xf32>
}
