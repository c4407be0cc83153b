// A convolution, a per-channel bias and a relu on a 1x2x6x6 image (NCHW):
// the input of docs/conversion.md's commands.
func.func @main(%x: tensor<1x2x6x6xf32>) -> tensor<1x4x3x3xf32> {
  %w = relay.constant dense<0.5> : tensor<4x2x3x3xf32>
  %b = relay.constant dense<[[[1.0]], [[-1.0]], [[2.0]], [[-2.0]]]> : tensor<4x1x1xf32>
  %c = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  %a = relay.add(%c, %b) : (tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<1x4x3x3xf32>
  %r = relay.nn.relu(%a) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return %r : tensor<1x4x3x3xf32>
}
