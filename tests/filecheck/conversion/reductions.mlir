// Reductions: one tosa.reduce_* per reduced axis, on the axis where the
// operand's layout holds it (NHWC after a convolution); without keepdims a
// reshape drops the reduced axes, which moves no data. mean multiplies the sum
// by the reciprocal of the count.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// H and W of an NHWC tensor are its axes 1 and 2; the 1x1xC result needs no transpose.
// CHECK-LABEL: sym_name = "mean_spatial"
// CHECK:       %[[C:.*]] = "tosa.conv2d"({{.*}}) -> tensor<1x4x4x3xf32>
// CHECK-NEXT:  %[[H:.*]] = "tosa.reduce_sum"(%[[C]]) {axis = 1 : i32} : (tensor<1x4x4x3xf32>) -> tensor<1x1x4x3xf32>
// CHECK-NEXT:  %[[W:.*]] = "tosa.reduce_sum"(%[[H]]) {axis = 2 : i32} : (tensor<1x1x4x3xf32>) -> tensor<1x1x1x3xf32>
// CHECK-NEXT:  %[[N:.*]] = "tosa.const"() {values = dense<6.250000e-02> : tensor<1x1x1x1xf32>}
// CHECK-NEXT:  %[[SHIFT:.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>}
// CHECK-NEXT:  %[[M:.*]] = "tosa.mul"(%[[W]], %[[N]], %[[SHIFT]])
// CHECK:       %[[R:.*]] = "tosa.reshape"(%[[M]], %{{.*}}) : (tensor<1x1x1x3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK-NEXT:  "func.return"(%[[R]])
func.func @mean_spatial(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = relay.mean(%c) {axis = array<i32: 2, 3>} : (tensor<1x3x4x4xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// The channels of an NHWC tensor are its axis 3; keepdims keeps the layout, which
// moves only the kept axis of one back: a reshape.
// CHECK-LABEL: sym_name = "sum_channels_keepdims"
// CHECK:       %[[S:.*]] = "tosa.reduce_sum"(%{{.*}}) {axis = 3 : i32} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x1xf32>
// CHECK-NEXT:  %[[SHAPE:.*]] = "tosa.const_shape"() {values = dense<[1, 1, 4, 4]> : tensor<4xindex>}
// CHECK-NEXT:  "tosa.reshape"(%[[S]], %[[SHAPE]]) : (tensor<1x4x4x1xf32>, !tosa.shape<4>) -> tensor<1x1x4x4xf32>
func.func @sum_channels_keepdims(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x1x4x4xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = relay.sum(%c) {axis = array<i32: 1>, keepdims = true} : (tensor<1x3x4x4xf32>) -> tensor<1x1x4x4xf32>
  func.return %r : tensor<1x1x4x4xf32>
}

// exclude = true reduces every axis but those named.
// CHECK-LABEL: sym_name = "max_exclude"
// CHECK:       %[[A:.*]] = "tosa.reduce_max"(%{{.*}}) {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT:  %[[B:.*]] = "tosa.reduce_max"(%[[A]]) {axis = 2 : i32} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK:       "tosa.reshape"(%[[B]], %{{.*}}) : (tensor<1x3x1xf32>, !tosa.shape<1>) -> tensor<3xf32>
func.func @max_exclude(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = relay.max(%x) {axis = array<i32: 1>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
