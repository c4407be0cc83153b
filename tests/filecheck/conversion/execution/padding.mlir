// TOSA's exact-size rule, run: where Relay's output size leaves input rows the
// window never reaches, the padding after shrinks, or the input is sliced.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// resnet's stem: 7x7, stride 2, padding 3 on an even size: padding 2 after.
// CHECK-LABEL: sizes = [1, 1, 4, 4]
// CHECK-NEXT: {{\[+}}-5, -18, 0, 3]
// CHECK-NEXT: {{\[+}}-3, -8, -1, -8]
// CHECK-NEXT: {{\[+}}-7, -14, 27, 2]
// CHECK-NEXT: {{\[+}}10, 7, -12, -5]
func.func @stem_7x7_stride_2(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  %w = relay.constant dense<[[[[0.0, 1.0, 1.0, -1.0, 0.0, 0.0, -1.0], [1.0, 1.0, 1.0, -1.0, 0.0, -1.0, 1.0], [0.0, 0.0, 0.0, 1.0, -1.0, -1.0, 0.0], [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0], [-1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0], [0.0, 0.0, 0.0, -1.0, -1.0, 0.0, 0.0], [1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 0.0]]]]> : tensor<1x1x7x7xf32>
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 3, 3, 3, 3>, channels = 1 : i32, kernel_size = array<i32: 7, 7>} : (tensor<1x1x8x8xf32>, tensor<1x1x7x7xf32>) -> tensor<1x1x4x4xf32>
  func.return %r : tensor<1x1x4x4xf32>
}

// resnet's downsampling 1x1, stride 2 on an even size: the last row and column sliced off.
// CHECK-LABEL: sizes = [1, 2, 2, 2]
// CHECK-NEXT: {{\[+}}-7, 3]
// CHECK-NEXT: {{\[+}}6, 1]
// CHECK-NEXT: {{\[+}}4, 9]
// CHECK-NEXT: {{\[+}}-2, 3]
func.func @conv_1x1_stride_2(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %w = relay.constant dense<[[[[-1.0]], [[2.0]]], [[[2.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  func.return %r : tensor<1x2x2x2xf32>
}

// 3x3, stride 2, padding 1 on an even size: no padding after.
// CHECK-LABEL: sizes = [1, 1, 3, 3]
// CHECK-NEXT: {{\[+}}-2, -2, 0]
// CHECK-NEXT: {{\[+}}-1, -12, 1]
// CHECK-NEXT: {{\[+}}-9, 3, 0]
func.func @conv_3x3_stride_2(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32> {
  %w = relay.constant dense<[[[[0.0, -1.0, 0.0], [0.0, 0.0, 0.0], [-1.0, -1.0, 1.0]]]]> : tensor<1x1x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, channels = 1 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  func.return %r : tensor<1x1x3x3xf32>
}

// Padding (top, left, bottom, right) = (0, 1, 1, 1).
// CHECK-LABEL: sizes = [1, 1, 4, 5]
// CHECK-NEXT: {{\[+}}-1, 0, 1, -1, -2]
// CHECK-NEXT: {{\[+}}3, -5, -3, 5, 0]
// CHECK-NEXT: {{\[+}}3, 6, -2, 3, 2]
// CHECK-NEXT: {{\[+}}-3, -1, -3, -2, 0]
func.func @conv_asymmetric(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x5xf32> {
  %w = relay.constant dense<[[[[0.0, 1.0], [-1.0, 0.0]]]]> : tensor<1x1x2x2xf32>
  %r = relay.nn.conv2d(%x, %w) {padding = array<i32: 0, 1, 1, 1>, channels = 1 : i32, kernel_size = array<i32: 2, 2>} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x4x5xf32>
  func.return %r : tensor<1x1x4x5xf32>
}

// Dilation 2, stride 2, padding 1 on an even size: no padding after.
// CHECK-LABEL: sizes = [1, 1, 2, 2]
// CHECK-NEXT: {{\[+}}-3, 4]
// CHECK-NEXT: {{\[+}}4, -9]
func.func @conv_dilated(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x2x2xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [0.0, 1.0, 1.0]]]]> : tensor<1x1x3x3xf32>
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, dilation = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, channels = 1 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}

// resnet's max pool on an even size: no padding after.
// CHECK-LABEL: sizes = [1, 1, 3, 3]
// CHECK-NEXT: {{\[+}}0, 3, 3]
// CHECK-NEXT: {{\[+}}3, 3, 3]
// CHECK-NEXT: {{\[+}}3, 3, 3]
func.func @max_pool_3x3_stride_2(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 3, 3>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>} : (tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32>
  func.return %r : tensor<1x1x3x3xf32>
}

// Windows that never reach the last two rows and columns: sliced off.
// CHECK-LABEL: sizes = [1, 1, 2, 2]
// CHECK-NEXT: {{\[+}}-0.75, 0]
// CHECK-NEXT: {{\[+}}-1.75, 0.25]
func.func @avg_pool_stride_3(%x: tensor<1x1x7x7xf32>) -> tensor<1x1x2x2xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 3, 3>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[[[0.0, -3.0, -2.0, -2.0, -1.0, -1.0, -2.0, 2.0], [-2.0, 0.0, 3.0, 3.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 2.0, 1.0, -2.0, -3.0, -1.0], [1.0, 3.0, 2.0, -1.0, 2.0, 1.0, 1.0, 2.0], [-3.0, 0.0, -3.0, 2.0, -1.0, 2.0, 3.0, 2.0], [0.0, 1.0, 3.0, -3.0, 0.0, -1.0, 2.0, 3.0], [0.0, 0.0, 1.0, -2.0, -1.0, -2.0, 3.0, 0.0], [-2.0, 1.0, -3.0, -1.0, 2.0, 3.0, 1.0, -3.0]]]]> : tensor<1x1x8x8xf32>
  %r0 = func.call @stem_7x7_stride_2(%x0) : (tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32>
  %p0 = tensor.cast %r0 : tensor<1x1x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %x1 = arith.constant dense<[[[[3.0, 3.0, 3.0, 2.0], [-3.0, -2.0, 1.0, 3.0], [-2.0, -3.0, 1.0, -2.0], [3.0, -2.0, -3.0, 2.0]], [[-2.0, 0.0, 3.0, 0.0], [-1.0, -2.0, 0.0, 2.0], [2.0, -3.0, 1.0, -2.0], [-1.0, 2.0, 2.0, 0.0]]]]> : tensor<1x2x4x4xf32>
  %r1 = func.call @conv_1x1_stride_2(%x1) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %p1 = tensor.cast %r1 : tensor<1x2x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %x2 = arith.constant dense<[[[[-1.0, 2.0, -1.0, -2.0, 3.0, -1.0], [1.0, -1.0, 3.0, 0.0, 0.0, 0.0], [3.0, 2.0, 0.0, -2.0, -1.0, 2.0], [3.0, 3.0, 3.0, -3.0, -1.0, -3.0], [-3.0, -1.0, 1.0, -1.0, -1.0, 3.0], [3.0, -3.0, -1.0, 2.0, -1.0, 0.0]]]]> : tensor<1x1x6x6xf32>
  %r2 = func.call @conv_3x3_stride_2(%x2) : (tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32>
  %p2 = tensor.cast %r2 : tensor<1x1x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  %x3 = arith.constant dense<[[[[-1.0, 3.0, -1.0, -1.0], [3.0, -2.0, 0.0, 2.0], [3.0, 3.0, -3.0, 0.0], [-3.0, -1.0, -3.0, -2.0]]]]> : tensor<1x1x4x4xf32>
  %r3 = func.call @conv_asymmetric(%x3) : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x5xf32>
  %p3 = tensor.cast %r3 : tensor<1x1x4x5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  %x4 = arith.constant dense<[[[[1.0, 2.0, 2.0, 3.0, -1.0, 0.0], [-2.0, -3.0, 2.0, 0.0, 0.0, 0.0], [-2.0, 2.0, -3.0, -3.0, 2.0, -1.0], [3.0, 2.0, 3.0, -2.0, 0.0, 3.0], [-2.0, 2.0, -2.0, -1.0, 0.0, 0.0], [2.0, 2.0, 1.0, 0.0, -2.0, -2.0]]]]> : tensor<1x1x6x6xf32>
  %r4 = func.call @conv_dilated(%x4) : (tensor<1x1x6x6xf32>) -> tensor<1x1x2x2xf32>
  %p4 = tensor.cast %r4 : tensor<1x1x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()
  %x5 = arith.constant dense<[[[[-3.0, -3.0, 3.0, 2.0, 3.0, -1.0], [-2.0, 0.0, -2.0, -2.0, 1.0, 3.0], [-2.0, -2.0, 3.0, 0.0, 1.0, 1.0], [2.0, 3.0, -3.0, 0.0, 2.0, 2.0], [2.0, 0.0, -2.0, 3.0, 3.0, 2.0], [0.0, 3.0, -1.0, 3.0, 2.0, 2.0]]]]> : tensor<1x1x6x6xf32>
  %r5 = func.call @max_pool_3x3_stride_2(%x5) : (tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32>
  %p5 = tensor.cast %r5 : tensor<1x1x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()
  %x6 = arith.constant dense<[[[[2.0, -3.0, -3.0, -3.0, 3.0, 1.0, 3.0], [-2.0, 0.0, -1.0, 2.0, -2.0, 2.0, 2.0], [1.0, 2.0, 3.0, -3.0, 2.0, 0.0, 2.0], [-1.0, -3.0, 2.0, -2.0, 0.0, 1.0, 2.0], [-3.0, 0.0, -3.0, 3.0, 0.0, -1.0, -1.0], [3.0, 2.0, -1.0, 2.0, -2.0, -1.0, 2.0], [2.0, -2.0, 0.0, 0.0, 2.0, 1.0, 0.0]]]]> : tensor<1x1x7x7xf32>
  %r6 = func.call @avg_pool_stride_3(%x6) : (tensor<1x1x7x7xf32>) -> tensor<1x1x2x2xf32>
  %p6 = tensor.cast %r6 : tensor<1x1x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p6) : (tensor<*xf32>) -> ()
  func.return
}
