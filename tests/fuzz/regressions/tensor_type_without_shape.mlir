// tensor<xf32> looks like the ranked tensor types relay's parser reads on its
// own, but is none: it gave a parse error without a position.
func.func @function_type_params() {
  %f = relay.function (%y: tensor<4xf32>) -> tensor<4xf32> attributes {type_params = ["A"]} {
    relay.return %y : tensor<xf32>
  }
  func.return
}
