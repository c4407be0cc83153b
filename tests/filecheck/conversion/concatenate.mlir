// concatenate: one tosa.concat in the layout of the first field computed at
// run time, on the axis where that layout holds the concatenated one; other
// fields are brought to that layout (a known one when compiling).
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// densenet's concatenation: a convolution's NHWC result, the NCHW input
// (transposed) and a constant, on channels: axis 3 in NHWC.
// CHECK-LABEL: sym_name = "concat_nhwc"
// CHECK:       %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
// CHECK:       %[[C:.*]] = "tosa.conv2d"({{.*}}) -> tensor<1x4x4x3xf32>
// CHECK-NEXT:  %[[K:.*]] = "tosa.const"() {values = dense<1.000000e+00> : tensor<1x4x4x1xf32>}
// CHECK-NEXT:  %[[CAT:.*]] = "tosa.concat"(%[[C]], %[[X]], %[[K]]) {axis = 3 : i32} : (tensor<1x4x4x3xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x1xf32>) -> tensor<1x4x4x6xf32>
// CHECK-NEXT:  "tosa.transpose"(%[[CAT]]) {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x6xf32>) -> tensor<1x6x4x4xf32>
func.func @concat_nhwc(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x6x4x4xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %k = relay.constant dense<1.0> : tensor<1x1x4x4xf32>
  %t = relay.tuple(%c, %x, %k) : tuple<tensor<1x3x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>>
  %r = relay.concatenate(%t) {axis = 1 : i32} : (tuple<tensor<1x3x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>>) -> tensor<1x6x4x4xf32>
  func.return %r : tensor<1x6x4x4xf32>
}

// In Relay's layout; a negative axis counts from the end.
// CHECK-LABEL: sym_name = "concat_plain"
// CHECK:       ^bb0(%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>):
// CHECK-NEXT:  %[[CAT:.*]] = "tosa.concat"(%[[A]], %[[B]]) {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:  "func.return"(%[[CAT]])
func.func @concat_plain(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %t = relay.tuple(%a, %b) : tuple<tensor<2x3xf32>, tensor<2x5xf32>>
  %r = relay.concatenate(%t) {axis = -1 : i32} : (tuple<tensor<2x3xf32>, tensor<2x5xf32>>) -> tensor<2x8xf32>
  func.return %r : tensor<2x8xf32>
}
