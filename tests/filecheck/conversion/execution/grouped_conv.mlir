// Grouped convolutions, run, through both conversions: convert-relay-to-tosa
// slices the groups apart, convert-relay-to-linalg writes one linalg.generic;
// depthwise ones (groups = channels) are tosa.depthwise_conv2d in both.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s
// RUN: xdsl-opt %s -p convert-relay-to-linalg --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// Two groups of two channels in, three out; stride 2.
// CHECK-LABEL: sizes = [1, 6, 3, 3]
// CHECK-NEXT: {{\[+}}-3, 10, -3]
// CHECK-NEXT: {{\[+}}2, -3, -7]
// CHECK-NEXT: {{\[+}}-5, -3, 5]
// CHECK-NEXT: {{\[+}}-8, -13, 8]
// CHECK-NEXT: {{\[+}}1, 8, 0]
// CHECK-NEXT: {{\[+}}23, -9, -13]
// CHECK-NEXT: {{\[+}}3, 6, -3]
// CHECK-NEXT: {{\[+}}15, -5, 9]
// CHECK-NEXT: {{\[+}}10, 16, 3]
// CHECK-NEXT: {{\[+}}9, -6, -7]
// CHECK-NEXT: {{\[+}}1, -3, -15]
// CHECK-NEXT: {{\[+}}4, -5, -1]
// CHECK-NEXT: {{\[+}}-6, 10, 9]
// CHECK-NEXT: {{\[+}}7, 11, 13]
// CHECK-NEXT: {{\[+}}-5, 0, -8]
// CHECK-NEXT: {{\[+}}-1, 1, 4]
// CHECK-NEXT: {{\[+}}-2, 0, 13]
// CHECK-NEXT: {{\[+}}11, -13, 23]
func.func @grouped(%x: tensor<1x4x5x5xf32>) -> tensor<1x6x3x3xf32> {
  %w = relay.constant dense<[[[[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [-1.0, 0.0, -1.0]], [[1.0, 0.0, 0.0], [0.0, 0.0, -2.0], [2.0, 0.0, -2.0]]], [[[-2.0, 0.0, 1.0], [-1.0, 2.0, -2.0], [-2.0, -1.0, 1.0]], [[-1.0, 2.0, -2.0], [2.0, -2.0, 2.0], [-2.0, 0.0, -1.0]]], [[[2.0, 1.0, 2.0], [0.0, 0.0, 0.0], [1.0, 0.0, 2.0]], [[-2.0, 0.0, -1.0], [2.0, -2.0, 1.0], [2.0, -1.0, -1.0]]], [[[1.0, 0.0, 0.0], [2.0, -2.0, -1.0], [-1.0, 2.0, -2.0]], [[0.0, 0.0, -2.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 2.0]]], [[[-2.0, -1.0, 2.0], [-1.0, 1.0, -1.0], [2.0, 0.0, 2.0]], [[1.0, 0.0, 0.0], [-2.0, -2.0, 1.0], [1.0, 0.0, -2.0]]], [[[2.0, 1.0, 0.0], [-1.0, 2.0, 0.0], [2.0, -1.0, -1.0]], [[2.0, -2.0, -1.0], [-1.0, 1.0, 1.0], [1.0, 0.0, 1.0]]]]> : tensor<6x2x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, groups = 2 : i32, channels = 6 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  func.return %r : tensor<1x6x3x3xf32>
}

// CHECK-LABEL: sizes = [1, 4, 5, 5]
// CHECK-NEXT: {{\[+}}-5, 11, -5, 5, -5]
// CHECK-NEXT: {{\[+}}-13, 7, -1, 2, 1]
// CHECK-NEXT: {{\[+}}-11, 18, -7, -5, 5]
// CHECK-NEXT: {{\[+}}1, 1, -7, 11, -6]
// CHECK-NEXT: {{\[+}}0, 7, -9, 3, -1]
// CHECK-NEXT: {{\[+}}11, 10, -1, -13, -8]
// CHECK-NEXT: {{\[+}}-3, -13, -19, -6, 3]
// CHECK-NEXT: {{\[+}}-6, 2, 14, 3, -5]
// CHECK-NEXT: {{\[+}}-1, 4, -6, -14, -17]
// CHECK-NEXT: {{\[+}}7, -6, -8, 7, 7]
// CHECK-NEXT: {{\[+}}5, -5, 7, 6, -10]
// CHECK-NEXT: {{\[+}}-13, 0, 17, -11, -1]
// CHECK-NEXT: {{\[+}}-2, -2, 8, -6, -9]
// CHECK-NEXT: {{\[+}}5, 13, -9, -1, 6]
// CHECK-NEXT: {{\[+}}-3, -3, -5, -9, -7]
// CHECK-NEXT: {{\[+}}-1, -4, 8, -8, -12]
// CHECK-NEXT: {{\[+}}-7, -1, 10, 9, 9]
// CHECK-NEXT: {{\[+}}9, 1, -9, -6, -4]
// CHECK-NEXT: {{\[+}}-9, -3, 12, -12, -11]
// CHECK-NEXT: {{\[+}}2, 4, 5, 0, 1]
func.func @depthwise(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %w = relay.constant dense<[[[[0.0, 1.0, -2.0], [-1.0, 1.0, -1.0], [-1.0, 2.0, -2.0]]], [[[2.0, 2.0, -2.0], [0.0, -1.0, 0.0], [1.0, 2.0, 2.0]]], [[[-2.0, -2.0, 1.0], [-1.0, -1.0, 0.0], [-2.0, 2.0, 1.0]]], [[[-1.0, -1.0, 1.0], [-1.0, 1.0, 2.0], [-1.0, -2.0, -1.0]]]]> : tensor<4x1x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, groups = 4 : i32, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  func.return %r : tensor<1x4x5x5xf32>
}

// Two output channels per input channel.
// CHECK-LABEL: sizes = [1, 8, 3, 3]
// CHECK-NEXT: {{\[+}}-8, -5, 19]
// CHECK-NEXT: {{\[+}}-7, 15, 2]
// CHECK-NEXT: {{\[+}}-7, 18, -15]
// CHECK-NEXT: {{\[+}}-8, -5, 2]
// CHECK-NEXT: {{\[+}}0, -5, -12]
// CHECK-NEXT: {{\[+}}17, -10, 3]
// CHECK-NEXT: {{\[+}}-1, 7, 0]
// CHECK-NEXT: {{\[+}}1, -7, -10]
// CHECK-NEXT: {{\[+}}-1, 6, 5]
// CHECK-NEXT: {{\[+}}6, -6, -14]
// CHECK-NEXT: {{\[+}}-5, 8, 13]
// CHECK-NEXT: {{\[+}}-1, -3, -3]
// CHECK-NEXT: {{\[+}}-5, 9, -19]
// CHECK-NEXT: {{\[+}}8, -7, -1]
// CHECK-NEXT: {{\[+}}-2, 2, 1]
// CHECK-NEXT: {{\[+}}8, 10, -4]
// CHECK-NEXT: {{\[+}}-5, -18, 0]
// CHECK-NEXT: {{\[+}}1, 8, -9]
// CHECK-NEXT: {{\[+}}-3, 3, 8]
// CHECK-NEXT: {{\[+}}-15, 1, 15]
// CHECK-NEXT: {{\[+}}9, -3, -11]
// CHECK-NEXT: {{\[+}}1, 13, -7]
// CHECK-NEXT: {{\[+}}4, -1, 2]
// CHECK-NEXT: {{\[+}}0, 6, -16]
func.func @depthwise_multiplier(%x: tensor<1x4x5x5xf32>) -> tensor<1x8x3x3xf32> {
  %w = relay.constant dense<[[[[0.0, 0.0, -2.0], [1.0, -2.0, 1.0], [2.0, -2.0, 1.0]]], [[[-2.0, 0.0, 1.0], [-1.0, 1.0, 0.0], [0.0, -2.0, -2.0]]], [[[1.0, 0.0, 1.0], [2.0, 1.0, 1.0], [1.0, -1.0, -2.0]]], [[[1.0, -1.0, -2.0], [0.0, 1.0, -1.0], [1.0, 2.0, 1.0]]], [[[2.0, -2.0, -2.0], [-1.0, 0.0, 1.0], [1.0, 2.0, -2.0]]], [[[-2.0, -1.0, -2.0], [1.0, 0.0, 2.0], [-1.0, -1.0, -1.0]]], [[[-1.0, 2.0, 2.0], [-1.0, 0.0, 2.0], [0.0, 2.0, -1.0]]], [[[-1.0, -2.0, 1.0], [-2.0, -2.0, 0.0], [0.0, -2.0, 0.0]]]]> : tensor<8x1x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {groups = 4 : i32, channels = 8 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x3x3xf32>
  func.return %r : tensor<1x8x3x3xf32>
}

// Two images, padding after only.
// CHECK-LABEL: sizes = [2, 6, 2, 2]
// CHECK-NEXT: {{\[+}}-2, -6]
// CHECK-NEXT: {{\[+}}11, -2]
// CHECK-NEXT: {{\[+}}11, -13]
// CHECK-NEXT: {{\[+}}-18, 15]
// CHECK-NEXT: {{\[+}}21, 2]
// CHECK-NEXT: {{\[+}}-14, 8]
// CHECK-NEXT: {{\[+}}2, -2]
// CHECK-NEXT: {{\[+}}-1, 1]
// CHECK-NEXT: {{\[+}}-18, -4]
// CHECK-NEXT: {{\[+}}10, -1]
// CHECK-NEXT: {{\[+}}-6, 10]
// CHECK-NEXT: {{\[+}}11, -7]
// CHECK-NEXT: {{\[+}}22, 4]
// CHECK-NEXT: {{\[+}}3, 1]
// CHECK-NEXT: {{\[+}}5, 6]
// CHECK-NEXT: {{\[+}}16, -14]
// CHECK-NEXT: {{\[+}}10, -5]
// CHECK-NEXT: {{\[+}}4, 14]
// CHECK-NEXT: {{\[+}}7, -7]
// CHECK-NEXT: {{\[+}}0, 5]
// CHECK-NEXT: {{\[+}}-11, -1]
// CHECK-NEXT: {{\[+}}19, 3]
// CHECK-NEXT: {{\[+}}8, -5]
// CHECK-NEXT: {{\[+}}-3, 9]
func.func @grouped_batch(%x: tensor<2x4x3x3xf32>) -> tensor<2x6x2x2xf32> {
  %w = relay.constant dense<[[[[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [-1.0, 0.0, -1.0]], [[1.0, 0.0, 0.0], [0.0, 0.0, -2.0], [2.0, 0.0, -2.0]]], [[[-2.0, 0.0, 1.0], [-1.0, 2.0, -2.0], [-2.0, -1.0, 1.0]], [[-1.0, 2.0, -2.0], [2.0, -2.0, 2.0], [-2.0, 0.0, -1.0]]], [[[2.0, 1.0, 2.0], [0.0, 0.0, 0.0], [1.0, 0.0, 2.0]], [[-2.0, 0.0, -1.0], [2.0, -2.0, 1.0], [2.0, -1.0, -1.0]]], [[[1.0, 0.0, 0.0], [2.0, -2.0, -1.0], [-1.0, 2.0, -2.0]], [[0.0, 0.0, -2.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 2.0]]], [[[-2.0, -1.0, 2.0], [-1.0, 1.0, -1.0], [2.0, 0.0, 2.0]], [[1.0, 0.0, 0.0], [-2.0, -2.0, 1.0], [1.0, 0.0, -2.0]]], [[[2.0, 1.0, 0.0], [-1.0, 2.0, 0.0], [2.0, -1.0, -1.0]], [[2.0, -2.0, -1.0], [-1.0, 1.0, 1.0], [1.0, 0.0, 1.0]]]]> : tensor<6x2x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 0, 0, 1, 1>, groups = 2 : i32, channels = 6 : i32, kernel_size = array<i32: 3, 3>} : (tensor<2x4x3x3xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x2x2xf32>
  func.return %r : tensor<2x6x2x2xf32>
}

// An NHWC input with an HWIO weight.
// CHECK-LABEL: sizes = [1, 2, 2, 4]
// CHECK-NEXT: {{\[+}}-11, -17, -5, -5]
// CHECK-NEXT: {{\[+}}-14, 20, 4, 13]
// CHECK-NEXT: {{\[+}}-1, 15, -1, -17]
// CHECK-NEXT: {{\[+}}-24, 4, -17, 1]
func.func @grouped_nhwc_hwio(%x: tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32> {
  %w = relay.constant dense<[[[[-1.0, -1.0, 2.0, 2.0], [-2.0, -2.0, -2.0, 2.0]], [[-1.0, 0.0, 2.0, 2.0], [-1.0, -1.0, 2.0, 0.0]], [[-2.0, 2.0, 0.0, 1.0], [2.0, 1.0, 1.0, 2.0]]], [[[2.0, 0.0, 0.0, 1.0], [2.0, 0.0, 2.0, -1.0]], [[1.0, -2.0, 2.0, -1.0], [1.0, -2.0, -1.0, -2.0]], [[0.0, 2.0, -1.0, -1.0], [1.0, -2.0, -2.0, -1.0]]], [[[0.0, 0.0, 0.0, -2.0], [1.0, -1.0, 1.0, 2.0]], [[-2.0, -1.0, 1.0, -2.0], [0.0, -1.0, 1.0, 1.0]], [[1.0, -1.0, 0.0, 2.0], [1.0, 1.0, 0.0, 0.0]]]]> : tensor<3x3x2x4xf32>
  %r = relay.nn.conv2d(%x, %w) {groups = 2 : i32, data_layout = "NHWC", kernel_layout = "HWIO", channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x4x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return %r : tensor<1x2x2x4xf32>
}

// TVM's depthwise layout in NHWC: an HWOI weight.
// CHECK-LABEL: sizes = [1, 4, 4, 4]
// CHECK-NEXT: {{\[+}}-3, 6, 2, 3]
// CHECK-NEXT: {{\[+}}-9, -10, 1, 0]
// CHECK-NEXT: {{\[+}}5, 8, 0, 1]
// CHECK-NEXT: {{\[+}}-2, -4, -2, -1]
// CHECK-NEXT: {{\[+}}-4, 12, -3, 4]
// CHECK-NEXT: {{\[+}}3, 3, 8, 4]
// CHECK-NEXT: {{\[+}}10, -17, 4, 0]
// CHECK-NEXT: {{\[+}}0, -15, -1, -5]
// CHECK-NEXT: {{\[+}}6, -1, -3, 4]
// CHECK-NEXT: {{\[+}}-4, 1, 5, 6]
// CHECK-NEXT: {{\[+}}12, -23, 1, -1]
// CHECK-NEXT: {{\[+}}-8, 5, -1, -2]
// CHECK-NEXT: {{\[+}}-7, -14, 4, 2]
// CHECK-NEXT: {{\[+}}3, -2, -5, 4]
// CHECK-NEXT: {{\[+}}-4, 21, 2, 6]
// CHECK-NEXT: {{\[+}}-5, 5, 3, 8]
func.func @depthwise_nhwc_hwoi(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = relay.constant dense<[[[[0.0], [-2.0], [-2.0], [0.0]], [[-2.0], [1.0], [1.0], [1.0]], [[2.0], [2.0], [-1.0], [0.0]]], [[[-1.0], [-2.0], [-1.0], [1.0]], [[-1.0], [2.0], [0.0], [1.0]], [[0.0], [1.0], [-1.0], [1.0]]], [[[1.0], [2.0], [1.0], [0.0]], [[0.0], [-2.0], [-1.0], [-1.0]], [[1.0], [-1.0], [0.0], [0.0]]]]> : tensor<3x3x4x1xf32>
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, groups = 4 : i32, data_layout = "NHWC", kernel_layout = "HWOI", channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x4x4xf32>, tensor<3x3x4x1xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[[[-2.0, 1.0, -1.0, 3.0, -3.0], [1.0, 2.0, -2.0, -3.0, -1.0], [-1.0, 3.0, 3.0, -2.0, 0.0], [1.0, 3.0, -3.0, 2.0, 3.0], [3.0, -2.0, -3.0, 1.0, -3.0]], [[-3.0, -3.0, -2.0, 3.0, 1.0], [1.0, 3.0, 0.0, -3.0, -2.0], [-2.0, 1.0, -1.0, -1.0, -3.0], [1.0, -3.0, 0.0, 2.0, 0.0], [1.0, 2.0, -2.0, -3.0, -3.0]], [[1.0, -2.0, -2.0, 2.0, 2.0], [3.0, 0.0, 0.0, 3.0, 0.0], [-2.0, -2.0, 3.0, -3.0, 2.0], [1.0, 0.0, 2.0, 2.0, 0.0], [1.0, 2.0, 1.0, 0.0, 3.0]], [[3.0, -3.0, 0.0, 2.0, -3.0], [-1.0, 0.0, -1.0, 1.0, 3.0], [-1.0, 2.0, -3.0, 0.0, -3.0], [-1.0, -3.0, 3.0, 3.0, -3.0], [2.0, 1.0, -1.0, 2.0, 3.0]]]]> : tensor<1x4x5x5xf32>
  %r0 = func.call @grouped(%x0) : (tensor<1x4x5x5xf32>) -> tensor<1x6x3x3xf32>
  %p0 = tensor.cast %r0 : tensor<1x6x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %x1 = arith.constant dense<[[[[-2.0, 1.0, -1.0, 3.0, -3.0], [1.0, 2.0, -2.0, -3.0, -1.0], [-1.0, 3.0, 3.0, -2.0, 0.0], [1.0, 3.0, -3.0, 2.0, 3.0], [3.0, -2.0, -3.0, 1.0, -3.0]], [[-3.0, -3.0, -2.0, 3.0, 1.0], [1.0, 3.0, 0.0, -3.0, -2.0], [-2.0, 1.0, -1.0, -1.0, -3.0], [1.0, -3.0, 0.0, 2.0, 0.0], [1.0, 2.0, -2.0, -3.0, -3.0]], [[1.0, -2.0, -2.0, 2.0, 2.0], [3.0, 0.0, 0.0, 3.0, 0.0], [-2.0, -2.0, 3.0, -3.0, 2.0], [1.0, 0.0, 2.0, 2.0, 0.0], [1.0, 2.0, 1.0, 0.0, 3.0]], [[3.0, -3.0, 0.0, 2.0, -3.0], [-1.0, 0.0, -1.0, 1.0, 3.0], [-1.0, 2.0, -3.0, 0.0, -3.0], [-1.0, -3.0, 3.0, 3.0, -3.0], [2.0, 1.0, -1.0, 2.0, 3.0]]]]> : tensor<1x4x5x5xf32>
  %r1 = func.call @depthwise(%x1) : (tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %p1 = tensor.cast %r1 : tensor<1x4x5x5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %x2 = arith.constant dense<[[[[-2.0, 1.0, -1.0, 3.0, -3.0], [1.0, 2.0, -2.0, -3.0, -1.0], [-1.0, 3.0, 3.0, -2.0, 0.0], [1.0, 3.0, -3.0, 2.0, 3.0], [3.0, -2.0, -3.0, 1.0, -3.0]], [[-3.0, -3.0, -2.0, 3.0, 1.0], [1.0, 3.0, 0.0, -3.0, -2.0], [-2.0, 1.0, -1.0, -1.0, -3.0], [1.0, -3.0, 0.0, 2.0, 0.0], [1.0, 2.0, -2.0, -3.0, -3.0]], [[1.0, -2.0, -2.0, 2.0, 2.0], [3.0, 0.0, 0.0, 3.0, 0.0], [-2.0, -2.0, 3.0, -3.0, 2.0], [1.0, 0.0, 2.0, 2.0, 0.0], [1.0, 2.0, 1.0, 0.0, 3.0]], [[3.0, -3.0, 0.0, 2.0, -3.0], [-1.0, 0.0, -1.0, 1.0, 3.0], [-1.0, 2.0, -3.0, 0.0, -3.0], [-1.0, -3.0, 3.0, 3.0, -3.0], [2.0, 1.0, -1.0, 2.0, 3.0]]]]> : tensor<1x4x5x5xf32>
  %r2 = func.call @depthwise_multiplier(%x2) : (tensor<1x4x5x5xf32>) -> tensor<1x8x3x3xf32>
  %p2 = tensor.cast %r2 : tensor<1x8x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  %x3 = arith.constant dense<[[[[0.0, 1.0, -1.0], [0.0, -2.0, 0.0], [1.0, 2.0, 1.0]], [[-2.0, -2.0, -1.0], [3.0, -3.0, 1.0], [-1.0, 0.0, -3.0]], [[2.0, 3.0, 0.0], [2.0, 0.0, 2.0], [-2.0, -1.0, -2.0]], [[0.0, 1.0, 2.0], [2.0, -2.0, 1.0], [-2.0, -1.0, -1.0]]], [[[1.0, 1.0, 0.0], [-3.0, 3.0, 2.0], [-1.0, 1.0, -2.0]], [[1.0, 3.0, 3.0], [3.0, -3.0, -3.0], [2.0, -2.0, -2.0]], [[1.0, -3.0, 2.0], [-2.0, 1.0, 1.0], [-2.0, -1.0, -3.0]], [[3.0, 0.0, -2.0], [2.0, 2.0, -2.0], [-1.0, -3.0, 0.0]]]]> : tensor<2x4x3x3xf32>
  %r3 = func.call @grouped_batch(%x3) : (tensor<2x4x3x3xf32>) -> tensor<2x6x2x2xf32>
  %p3 = tensor.cast %r3 : tensor<2x6x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  %x4 = arith.constant dense<[[[[3.0, 3.0, -3.0, 2.0], [0.0, 0.0, -1.0, 2.0], [-2.0, 1.0, 2.0, -1.0], [1.0, -3.0, 2.0, -1.0]], [[-3.0, -1.0, -1.0, 1.0], [0.0, 2.0, -1.0, 3.0], [-3.0, -1.0, -2.0, -1.0], [3.0, -3.0, -2.0, -1.0]], [[2.0, -3.0, 2.0, 2.0], [-1.0, -3.0, 0.0, 1.0], [2.0, -2.0, 1.0, 0.0], [2.0, 1.0, 2.0, 2.0]], [[1.0, -1.0, 3.0, 0.0], [2.0, -3.0, -2.0, 0.0], [2.0, 3.0, -3.0, 3.0], [-1.0, 3.0, -1.0, 3.0]]]]> : tensor<1x4x4x4xf32>
  %r4 = func.call @grouped_nhwc_hwio(%x4) : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32>
  %p4 = tensor.cast %r4 : tensor<1x2x2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()
  %x5 = arith.constant dense<[[[[3.0, 3.0, -3.0, 2.0], [0.0, 0.0, -1.0, 2.0], [-2.0, 1.0, 2.0, -1.0], [1.0, -3.0, 2.0, -1.0]], [[-3.0, -1.0, -1.0, 1.0], [0.0, 2.0, -1.0, 3.0], [-3.0, -1.0, -2.0, -1.0], [3.0, -3.0, -2.0, -1.0]], [[2.0, -3.0, 2.0, 2.0], [-1.0, -3.0, 0.0, 1.0], [2.0, -2.0, 1.0, 0.0], [2.0, 1.0, 2.0, 2.0]], [[1.0, -1.0, 3.0, 0.0], [2.0, -3.0, -2.0, 0.0], [2.0, 3.0, -3.0, 3.0], [-1.0, 3.0, -1.0, 3.0]]]]> : tensor<1x4x4x4xf32>
  %r5 = func.call @depthwise_nhwc_hwoi(%x5) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p5 = tensor.cast %r5 : tensor<1x4x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()
  func.return
}
