// Grouped convolutions, run, through both conversions: convert-relay-to-tosa
// slices the groups apart, convert-relay-to-linalg writes one linalg.generic;
// depthwise ones (groups = channels) are tosa.depthwise_conv2d in both.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s
// RUN: xdsl-opt %s -p convert-relay-to-linalg --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// Two groups of two channels in, three out; stride 2.
// CHECK-LABEL: sizes = [1, 6, 3, 3]
// CHECK-NEXT: {{\[+}}-8, 3, -4]
// CHECK-NEXT: {{\[+}}-2, -27, -23]
// CHECK-NEXT: {{\[+}}10, -4, 5]
// CHECK-NEXT: {{\[+}}-2, 7, 4]
// CHECK-NEXT: {{\[+}}0, 9, 4]
// CHECK-NEXT: {{\[+}}-8, -5, 0]
// CHECK-NEXT: {{\[+}}-6, -6, 5]
// CHECK-NEXT: {{\[+}}37, -9, -17]
// CHECK-NEXT: {{\[+}}12, -2, 4]
// CHECK-NEXT: {{\[+}}-6, -15, 10]
// CHECK-NEXT: {{\[+}}-4, 12, 6]
// CHECK-NEXT: {{\[+}}4, 7, 4]
// CHECK-NEXT: {{\[+}}-18, 1, 11]
// CHECK-NEXT: {{\[+}}14, 15, 2]
// CHECK-NEXT: {{\[+}}2, 8, 1]
// CHECK-NEXT: {{\[+}}-6, 2, -6]
// CHECK-NEXT: {{\[+}}-8, 7, -5]
// CHECK-NEXT: {{\[+}}7, 9, -3]
func.func @grouped(%x: tensor<1x4x5x5xf32>) -> tensor<1x6x3x3xf32> {
  %w = relay.constant dense<[[[[1.0, 2.0, 2.0], [-1.0, -2.0, 0.0], [-2.0, -2.0, -2.0]], [[-1.0, 2.0, 1.0], [1.0, 2.0, 0.0], [-2.0, -2.0, -1.0]]], [[[1.0, -1.0, -1.0], [-2.0, 1.0, -2.0], [0.0, 1.0, 0.0]], [[1.0, 1.0, -1.0], [-2.0, -2.0, 0.0], [-1.0, -2.0, 1.0]]], [[[2.0, 2.0, 0.0], [0.0, 2.0, 0.0], [-2.0, -1.0, 2.0]], [[-2.0, 2.0, 1.0], [0.0, 2.0, 2.0], [0.0, 1.0, 1.0]]], [[[1.0, 0.0, 2.0], [2.0, -2.0, 0.0], [2.0, -2.0, -1.0]], [[0.0, -1.0, 1.0], [2.0, -1.0, 1.0], [-2.0, 0.0, -2.0]]], [[[0.0, -2.0, 2.0], [2.0, -2.0, 2.0], [1.0, -1.0, 1.0]], [[2.0, 1.0, 1.0], [-1.0, 1.0, 1.0], [1.0, -1.0, 0.0]]], [[[-1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [-2.0, 2.0, 0.0]], [[-2.0, -2.0, 0.0], [1.0, -1.0, 2.0], [-2.0, -2.0, -1.0]]]]> : tensor<6x2x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, groups = 2 : i32, channels = 6 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  func.return %r : tensor<1x6x3x3xf32>
}

// CHECK-LABEL: sizes = [1, 4, 5, 5]
// CHECK-NEXT: {{\[+}}-6, 10, -2, -4, 4]
// CHECK-NEXT: {{\[+}}2, 7, -4, 18, -8]
// CHECK-NEXT: {{\[+}}6, -23, 16, -21, 6]
// CHECK-NEXT: {{\[+}}-17, 17, -24, 6, 7]
// CHECK-NEXT: {{\[+}}8, -11, 7, 7, -10]
// CHECK-NEXT: {{\[+}}2, 2, -8, -5, 1]
// CHECK-NEXT: {{\[+}}0, -2, 3, -2, -4]
// CHECK-NEXT: {{\[+}}7, 8, -1, 7, -3]
// CHECK-NEXT: {{\[+}}11, 6, 2, -7, 6]
// CHECK-NEXT: {{\[+}}4, 5, -4, 4, -8]
// CHECK-NEXT: {{\[+}}10, -7, 6, 14, -3]
// CHECK-NEXT: {{\[+}}-11, 20, -11, 9, 1]
// CHECK-NEXT: {{\[+}}-7, 3, -4, 3, 0]
// CHECK-NEXT: {{\[+}}-7, 3, 15, -9, 21]
// CHECK-NEXT: {{\[+}}-2, -1, -7, 5, -3]
// CHECK-NEXT: {{\[+}}-4, -11, 5, -1, 0]
// CHECK-NEXT: {{\[+}}-6, 4, 3, -3, -2]
// CHECK-NEXT: {{\[+}}15, -9, 5, 15, -12]
// CHECK-NEXT: {{\[+}}1, -2, 1, -9, 2]
// CHECK-NEXT: {{\[+}}-7, 0, -4, 16, -6]
func.func @depthwise(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %w = relay.constant dense<[[[[1.0, -1.0, 2.0], [-2.0, 2.0, -2.0], [2.0, -2.0, 0.0]]], [[[-1.0, 2.0, 1.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], [[[2.0, -2.0, 0.0], [-1.0, 2.0, -2.0], [1.0, 2.0, -1.0]]], [[[-1.0, 1.0, 0.0], [0.0, 2.0, -2.0], [-1.0, -1.0, 2.0]]]]> : tensor<4x1x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, groups = 4 : i32, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  func.return %r : tensor<1x4x5x5xf32>
}

// Two output channels per input channel.
// CHECK-LABEL: sizes = [1, 8, 3, 3]
// CHECK-NEXT: {{\[+}}-5, -4, 8]
// CHECK-NEXT: {{\[+}}-11, 4, 0]
// CHECK-NEXT: {{\[+}}-7, -2, -4]
// CHECK-NEXT: {{\[+}}-6, 8, -19]
// CHECK-NEXT: {{\[+}}25, -5, 13]
// CHECK-NEXT: {{\[+}}5, 8, 10]
// CHECK-NEXT: {{\[+}}3, -3, -4]
// CHECK-NEXT: {{\[+}}1, 0, -5]
// CHECK-NEXT: {{\[+}}11, 6, -6]
// CHECK-NEXT: {{\[+}}-10, 7, 1]
// CHECK-NEXT: {{\[+}}3, -14, 11]
// CHECK-NEXT: {{\[+}}-4, 3, -9]
// CHECK-NEXT: {{\[+}}-5, 4, 2]
// CHECK-NEXT: {{\[+}}-5, -2, 0]
// CHECK-NEXT: {{\[+}}12, -9, 15]
// CHECK-NEXT: {{\[+}}-3, -4, -15]
// CHECK-NEXT: {{\[+}}-2, -4, 3]
// CHECK-NEXT: {{\[+}}0, 2, 0]
// CHECK-NEXT: {{\[+}}-3, 12, 3]
// CHECK-NEXT: {{\[+}}-20, 9, 13]
// CHECK-NEXT: {{\[+}}-1, 18, -6]
// CHECK-NEXT: {{\[+}}13, -4, -10]
// CHECK-NEXT: {{\[+}}15, 2, -3]
// CHECK-NEXT: {{\[+}}11, -11, -17]
func.func @depthwise_multiplier(%x: tensor<1x4x5x5xf32>) -> tensor<1x8x3x3xf32> {
  %w = relay.constant dense<[[[[-2.0, 0.0, 0.0], [-2.0, 0.0, 1.0], [0.0, -1.0, 0.0]]], [[[2.0, -2.0, -1.0], [2.0, -1.0, 1.0], [-1.0, 2.0, 0.0]]], [[[2.0, 1.0, 0.0], [0.0, -2.0, -2.0], [1.0, 1.0, 0.0]]], [[[-2.0, 2.0, 1.0], [0.0, -1.0, 2.0], [0.0, 2.0, -1.0]]], [[[-1.0, 2.0, -2.0], [-1.0, -1.0, 1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-2.0, -1.0, 1.0], [-1.0, -1.0, 2.0]]], [[[-2.0, 2.0, 2.0], [-2.0, 0.0, -1.0], [0.0, 1.0, 2.0]]], [[[2.0, -2.0, -2.0], [1.0, -1.0, -1.0], [0.0, -2.0, 2.0]]]]> : tensor<8x1x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {groups = 4 : i32, channels = 8 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x3x3xf32>
  func.return %r : tensor<1x8x3x3xf32>
}

// An NHWC input with an HWIO weight.
// CHECK-LABEL: sizes = [1, 2, 2, 4]
// CHECK-NEXT: {{\[+}}6, 5, -15, 27]
// CHECK-NEXT: {{\[+}}29, 15, 10, -8]
// CHECK-NEXT: {{\[+}}-8, 4, -1, -19]
// CHECK-NEXT: {{\[+}}3, 9, -10, 27]
func.func @grouped_nhwc_hwio(%x: tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32> {
  %w = relay.constant dense<[[[[-1.0, 2.0, 2.0, -1.0], [0.0, 2.0, 0.0, 2.0]], [[-1.0, -1.0, -2.0, 1.0], [-2.0, -2.0, 0.0, 0.0]], [[-2.0, 0.0, 2.0, 2.0], [-2.0, 1.0, 0.0, 0.0]]], [[[-1.0, 2.0, -1.0, 0.0], [1.0, 0.0, 1.0, -2.0]], [[1.0, -1.0, -2.0, -1.0], [-1.0, 1.0, 0.0, 2.0]], [[0.0, 2.0, -2.0, -1.0], [-2.0, -1.0, 2.0, -2.0]]], [[[-2.0, 0.0, 2.0, -2.0], [2.0, 1.0, -1.0, -2.0]], [[0.0, 1.0, 2.0, -2.0], [1.0, 0.0, 2.0, 1.0]], [[1.0, 2.0, 1.0, -1.0], [2.0, 0.0, 2.0, -2.0]]]]> : tensor<3x3x2x4xf32>
  %r = relay.nn.conv2d(%x, %w) {groups = 2 : i32, data_layout = "NHWC", kernel_layout = "HWIO", channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x4x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return %r : tensor<1x2x2x4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[[[0.0, 1.0, -1.0, 1.0, 3.0], [2.0, -1.0, -3.0, -2.0, -2.0], [3.0, -2.0, 2.0, -2.0, 1.0], [0.0, 3.0, 0.0, 3.0, 3.0], [2.0, 1.0, 3.0, 3.0, -2.0]], [[0.0, -3.0, -3.0, 1.0, -3.0], [2.0, 2.0, -2.0, 1.0, -1.0], [3.0, 3.0, 1.0, 0.0, 1.0], [1.0, 2.0, -2.0, 2.0, 0.0], [2.0, 0.0, -1.0, -3.0, 0.0]], [[3.0, -3.0, 0.0, 0.0, -3.0], [0.0, 2.0, 2.0, 3.0, 0.0], [1.0, 3.0, -1.0, 2.0, -2.0], [-1.0, 1.0, 1.0, -2.0, 1.0], [1.0, 3.0, 1.0, 3.0, 3.0]], [[-3.0, -3.0, 0.0, 0.0, 0.0], [2.0, -1.0, -2.0, 1.0, -1.0], [3.0, -3.0, 1.0, 2.0, -2.0], [-3.0, -1.0, -1.0, 3.0, 3.0], [-2.0, 0.0, 1.0, 3.0, -3.0]]]]> : tensor<1x4x5x5xf32>
  %r0 = func.call @grouped(%x0) : (tensor<1x4x5x5xf32>) -> tensor<1x6x3x3xf32>
  %p0 = tensor.cast %r0 : tensor<1x6x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %x1 = arith.constant dense<[[[[0.0, 1.0, -1.0, 1.0, 3.0], [2.0, -1.0, -3.0, -2.0, -2.0], [3.0, -2.0, 2.0, -2.0, 1.0], [0.0, 3.0, 0.0, 3.0, 3.0], [2.0, 1.0, 3.0, 3.0, -2.0]], [[0.0, -3.0, -3.0, 1.0, -3.0], [2.0, 2.0, -2.0, 1.0, -1.0], [3.0, 3.0, 1.0, 0.0, 1.0], [1.0, 2.0, -2.0, 2.0, 0.0], [2.0, 0.0, -1.0, -3.0, 0.0]], [[3.0, -3.0, 0.0, 0.0, -3.0], [0.0, 2.0, 2.0, 3.0, 0.0], [1.0, 3.0, -1.0, 2.0, -2.0], [-1.0, 1.0, 1.0, -2.0, 1.0], [1.0, 3.0, 1.0, 3.0, 3.0]], [[-3.0, -3.0, 0.0, 0.0, 0.0], [2.0, -1.0, -2.0, 1.0, -1.0], [3.0, -3.0, 1.0, 2.0, -2.0], [-3.0, -1.0, -1.0, 3.0, 3.0], [-2.0, 0.0, 1.0, 3.0, -3.0]]]]> : tensor<1x4x5x5xf32>
  %r1 = func.call @depthwise(%x1) : (tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %p1 = tensor.cast %r1 : tensor<1x4x5x5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %x2 = arith.constant dense<[[[[0.0, 1.0, -1.0, 1.0, 3.0], [2.0, -1.0, -3.0, -2.0, -2.0], [3.0, -2.0, 2.0, -2.0, 1.0], [0.0, 3.0, 0.0, 3.0, 3.0], [2.0, 1.0, 3.0, 3.0, -2.0]], [[0.0, -3.0, -3.0, 1.0, -3.0], [2.0, 2.0, -2.0, 1.0, -1.0], [3.0, 3.0, 1.0, 0.0, 1.0], [1.0, 2.0, -2.0, 2.0, 0.0], [2.0, 0.0, -1.0, -3.0, 0.0]], [[3.0, -3.0, 0.0, 0.0, -3.0], [0.0, 2.0, 2.0, 3.0, 0.0], [1.0, 3.0, -1.0, 2.0, -2.0], [-1.0, 1.0, 1.0, -2.0, 1.0], [1.0, 3.0, 1.0, 3.0, 3.0]], [[-3.0, -3.0, 0.0, 0.0, 0.0], [2.0, -1.0, -2.0, 1.0, -1.0], [3.0, -3.0, 1.0, 2.0, -2.0], [-3.0, -1.0, -1.0, 3.0, 3.0], [-2.0, 0.0, 1.0, 3.0, -3.0]]]]> : tensor<1x4x5x5xf32>
  %r2 = func.call @depthwise_multiplier(%x2) : (tensor<1x4x5x5xf32>) -> tensor<1x8x3x3xf32>
  %p2 = tensor.cast %r2 : tensor<1x8x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  %x3 = arith.constant dense<[[[[1.0, -2.0, -1.0, 1.0], [-1.0, 1.0, 3.0, -1.0], [-2.0, -1.0, 0.0, 0.0], [-3.0, 1.0, -2.0, 1.0]], [[3.0, -2.0, 2.0, -3.0], [0.0, 1.0, -2.0, 2.0], [0.0, -1.0, -3.0, -3.0], [1.0, -1.0, 2.0, 3.0]], [[1.0, 2.0, 1.0, -1.0], [-3.0, 1.0, -2.0, -3.0], [1.0, 1.0, -1.0, 1.0], [3.0, 2.0, 3.0, -3.0]], [[-2.0, -1.0, 1.0, 1.0], [1.0, 3.0, -3.0, -2.0], [-1.0, -2.0, 2.0, -1.0], [3.0, -2.0, -1.0, -1.0]]]]> : tensor<1x4x4x4xf32>
  %r3 = func.call @grouped_nhwc_hwio(%x3) : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32>
  %p3 = tensor.cast %r3 : tensor<1x2x2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  func.return
}
