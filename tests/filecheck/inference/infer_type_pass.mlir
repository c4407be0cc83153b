// relay-infer-type fills in the incomplete types the program determines.
// RUN: xdsl-opt %s -p relay-infer-type | filecheck %s

func.func @main(%x: tensor<1x3x8x8xf32>) -> !relay.incomplete {
  %w = relay.constant meta[0] : !relay.incomplete
  %c = relay.nn.conv2d(%x, %w) {channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x3x8x8xf32>, !relay.incomplete) -> !relay.incomplete
  %r = relay.nn.relu(%c) : (!relay.incomplete) -> !relay.incomplete
  func.return %r : !relay.incomplete
}
// CHECK:      func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x6x6xf32> {
// CHECK-NEXT:   %w = relay.constant meta[0] : tensor<4x3x3x3xf32>
// CHECK-NEXT:   %c = relay.nn.conv2d(%x, %w) {channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT:   %r = relay.nn.relu(%c) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT:   func.return %r : tensor<1x4x6x6xf32>
