// Concatenation on channels, run: of the NCHW input with a convolution's NHWC
// result (the input is transposed to join it), and of a constant with both.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// CHECK-LABEL: sizes = [1, 4, 3, 3]
// CHECK-NEXT: {{\[+}}-3, 0, 0]
// CHECK-NEXT: {{\[+}}-3, 0, 2]
// CHECK-NEXT: {{\[+}}2, 3, 0]
// CHECK-NEXT: {{\[+}}1, 3, -1]
// CHECK-NEXT: {{\[+}}2, -2, -1]
// CHECK-NEXT: {{\[+}}1, 1, -2]
// CHECK-NEXT: {{\[+}}-2, 3, -1]
// CHECK-NEXT: {{\[+}}-1, -2, 1]
// CHECK-NEXT: {{\[+}}3, 4, -2]
// CHECK-NEXT: {{\[+}}-5, 3, -1]
// CHECK-NEXT: {{\[+}}-4, -2, 3]
// CHECK-NEXT: {{\[+}}5, 7, -2]
func.func @concat_input_conv(%x: tensor<1x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]], [[1.0]]], [[[2.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %c = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %t = relay.tuple(%x, %c) : tuple<tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>>
  %r = relay.concatenate(%t) {axis = 1 : i32} : (tuple<tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>>) -> tensor<1x4x3x3xf32>
  func.return %r : tensor<1x4x3x3xf32>
}

// CHECK-LABEL: sizes = [1, 5, 3, 3]
// CHECK-NEXT: {{\[+}}3, 3, -3]
// CHECK-NEXT: {{\[+}}-3, 0, 0]
// CHECK-NEXT: {{\[+}}0, 2, -1]
// CHECK-NEXT: {{\[+}}-2, 3, -1]
// CHECK-NEXT: {{\[+}}-1, -2, 1]
// CHECK-NEXT: {{\[+}}3, 4, -2]
// CHECK-NEXT: {{\[+}}-5, 3, -1]
// CHECK-NEXT: {{\[+}}-4, -2, 3]
// CHECK-NEXT: {{\[+}}5, 7, -2]
// CHECK-NEXT: {{\[+}}-3, 0, 0]
// CHECK-NEXT: {{\[+}}-3, 0, 2]
// CHECK-NEXT: {{\[+}}2, 3, 0]
// CHECK-NEXT: {{\[+}}1, 3, -1]
// CHECK-NEXT: {{\[+}}2, -2, -1]
// CHECK-NEXT: {{\[+}}1, 1, -2]
func.func @concat_constant(%x: tensor<1x2x3x3xf32>) -> tensor<1x5x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]], [[1.0]]], [[[2.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %k = relay.constant dense<[[[[3.0, 3.0, -3.0], [-3.0, 0.0, 0.0], [0.0, 2.0, -1.0]]]]> : tensor<1x1x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %t = relay.tuple(%k, %c, %x) : tuple<tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>>
  %r = relay.concatenate(%t) {axis = -3 : i32} : (tuple<tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>>) -> tensor<1x5x3x3xf32>
  func.return %r : tensor<1x5x3x3xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[[[-3.0, 0.0, 0.0], [-3.0, 0.0, 2.0], [2.0, 3.0, 0.0]], [[1.0, 3.0, -1.0], [2.0, -2.0, -1.0], [1.0, 1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r0 = func.call @concat_input_conv(%x0) : (tensor<1x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  %p0 = tensor.cast %r0 : tensor<1x4x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %x1 = arith.constant dense<[[[[-3.0, 0.0, 0.0], [-3.0, 0.0, 2.0], [2.0, 3.0, 0.0]], [[1.0, 3.0, -1.0], [2.0, -2.0, -1.0], [1.0, 1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r1 = func.call @concat_constant(%x1) : (tensor<1x2x3x3xf32>) -> tensor<1x5x3x3xf32>
  %p1 = tensor.cast %r1 : tensor<1x5x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  func.return
}
