// Max, average, global and adaptive pools, run: average pools with and without
// the padding in the count, ceil_mode, and a pool of an NHWC input.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}7, 7, 7]
// CHECK-NEXT: {{\[+}}6, 6, 6]
// CHECK-NEXT: {{\[+}}7, 7, 5]
// CHECK-NEXT: {{\[+}}7, 7, 7]
// CHECK-NEXT: {{\[+}}7, 7, 7]
// CHECK-NEXT: {{\[+}}7, 7, 7]
func.func @max_pool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 3, 3>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// CHECK-LABEL: sizes = [1, 2, 2, 2]
// CHECK-NEXT: {{\[+}}4, 4]
// CHECK-NEXT: {{\[+}}6.25, 2.5]
// CHECK-NEXT: {{\[+}}4.5, 3.75]
// CHECK-NEXT: {{\[+}}3.25, 3.75]
func.func @avg_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return %r : tensor<1x2x2x2xf32>
}

// The corners average one element, the edges two.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}7, 4, 0]
// CHECK-NEXT: {{\[+}}5.5, 5.75, 1.5]
// CHECK-NEXT: {{\[+}}6, 3.5, 2]
// CHECK-NEXT: {{\[+}}5, 2, 5]
// CHECK-NEXT: {{\[+}}4.5, 4.5, 3]
// CHECK-NEXT: {{\[+}}0, 5, 4]
func.func @avg_pool_padding_excluded(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// Every window divides by four.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}1.75, 2, 0]
// CHECK-NEXT: {{\[+}}2.75, 5.75, 0.75]
// CHECK-NEXT: {{\[+}}1.5, 1.75, 0.5]
// CHECK-NEXT: {{\[+}}1.25, 1, 1.25]
// CHECK-NEXT: {{\[+}}2.25, 4.5, 1.5]
// CHECK-NEXT: {{\[+}}0, 2.5, 1]
func.func @avg_pool_count_include_pad(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, count_include_pad = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// Two images: the zeros are padded one dimension at a time.
// CHECK-LABEL: sizes = [2, 1, 3, 3]
// CHECK-NEXT: {{\[+}}1.25, 3, 0.5]
// CHECK-NEXT: {{\[+}}0, 4.5, 1.25]
// CHECK-NEXT: {{\[+}}1.5, 0.75, 1.75]
// CHECK-NEXT: {{\[+}}1.75, 1, 1.5]
// CHECK-NEXT: {{\[+}}1.5, 2.25, 2]
// CHECK-NEXT: {{\[+}}0, 0.5, 1.25]
func.func @avg_pool_count_include_pad_batch(%x: tensor<2x1x4x4xf32>) -> tensor<2x1x3x3xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, count_include_pad = true} : (tensor<2x1x4x4xf32>) -> tensor<2x1x3x3xf32>
  func.return %r : tensor<2x1x3x3xf32>
}

// The last window holds one row (column) of the input.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}7, 7, 3]
// CHECK-NEXT: {{\[+}}4, 6, 5]
// CHECK-NEXT: {{\[+}}7, 1, 1]
// CHECK-NEXT: {{\[+}}7, 7, 7]
// CHECK-NEXT: {{\[+}}7, 7, 3]
// CHECK-NEXT: {{\[+}}6, 3, 1]
func.func @max_pool_ceil_mode(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, ceil_mode = true} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// The last window divides by the elements it holds.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}4.5, 5, 1.5]
// CHECK-NEXT: {{\[+}}3, 4.25, 2.5]
// CHECK-NEXT: {{\[+}}7, 0.5, 1]
// CHECK-NEXT: {{\[+}}4.5, 4.5, 3.5]
// CHECK-NEXT: {{\[+}}6, 4.5, 2]
// CHECK-NEXT: {{\[+}}3.5, 2.5, 1]
func.func @avg_pool_ceil_mode(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, ceil_mode = true} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// Padding before only. The padding counts, the row and column ceil_mode adds do not
// (TVM's rule): the first window divides by four, the last by one.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}1.75, 2, 0]
// CHECK-NEXT: {{\[+}}2.75, 5.75, 1.5]
// CHECK-NEXT: {{\[+}}3, 3.5, 2]
// CHECK-NEXT: {{\[+}}1.25, 1, 2.5]
// CHECK-NEXT: {{\[+}}2.25, 4.5, 3]
// CHECK-NEXT: {{\[+}}0, 5, 4]
func.func @avg_pool_ceil_mode_count_include_pad(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 0, 0>, ceil_mode = true, count_include_pad = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// CHECK-LABEL: sizes = [1, 2, 1, 1]
// CHECK-NEXT: {{\[+}}4.1875]
// CHECK-NEXT: {{\[+}}3.8125]
func.func @global_avg_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32> {
  %r = relay.nn.global_avg_pool2d(%x) : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  func.return %r : tensor<1x2x1x1xf32>
}

// CHECK-LABEL: sizes = [1, 2, 1, 1]
// CHECK-NEXT: {{\[+}}7]
// CHECK-NEXT: {{\[+}}7]
func.func @global_max_pool(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x1x1xf32> {
  %r = relay.nn.global_max_pool2d(%x) : (tensor<1x2x6x6xf32>) -> tensor<1x2x1x1xf32>
  func.return %r : tensor<1x2x1x1xf32>
}

// CHECK-LABEL: sizes = [1, 2, 1, 1]
// CHECK-NEXT: {{\[+}}4.1875]
// CHECK-NEXT: {{\[+}}3.8125]
func.func @adaptive_avg_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32> {
  %r = relay.nn.adaptive_avg_pool2d(%x) {output_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  func.return %r : tensor<1x2x1x1xf32>
}

// CHECK-LABEL: sizes = [1, 2, 2, 2]
// CHECK-NEXT: {{\[+}}4, 4]
// CHECK-NEXT: {{\[+}}6.25, 2.5]
// CHECK-NEXT: {{\[+}}4.5, 3.75]
// CHECK-NEXT: {{\[+}}3.25, 3.75]
func.func @adaptive_avg_pool_2x2(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %r = relay.nn.adaptive_avg_pool2d(%x) {output_size = array<i32: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return %r : tensor<1x2x2x2xf32>
}

// CHECK-LABEL: sizes = [1, 2, 2, 1]
// CHECK-NEXT: {{\[+}}7]
// CHECK-NEXT: {{\[+}}7]
// CHECK-NEXT: {{\[+}}7]
// CHECK-NEXT: {{\[+}}7]
func.func @adaptive_max_pool_2x1(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x1xf32> {
  %r = relay.nn.adaptive_max_pool2d(%x) {output_size = array<i32: 2, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x1xf32>
  func.return %r : tensor<1x2x2x1xf32>
}

// 6 to 4: windows [0, 2), [1, 3), [3, 5), [4, 6), which overlap.
// CHECK-LABEL: sizes = [1, 2, 4, 4]
// CHECK-NEXT: {{\[+}}5, 4, 4.5, 4.25]
// CHECK-NEXT: {{\[+}}3, 3.75, 2.5, 3.25]
// CHECK-NEXT: {{\[+}}2.5, 3.5, 4.5, 4]
// CHECK-NEXT: {{\[+}}2, 2.5, 5.25, 4.5]
// CHECK-NEXT: {{\[+}}3, 3.25, 3.25, 4]
// CHECK-NEXT: {{\[+}}3.25, 4.5, 1.5, 1]
// CHECK-NEXT: {{\[+}}5, 3.5, 4.25, 3.75]
// CHECK-NEXT: {{\[+}}4.5, 3, 4.75, 4]
func.func @adaptive_avg_pool_overlapping(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %r = relay.nn.adaptive_avg_pool2d(%x) {output_size = array<i32: 4, 4>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  func.return %r : tensor<1x2x4x4xf32>
}

// Rows 5 to 3: windows [0, 2), [1, 4), [3, 5); columns 5 to 2: [0, 3), [2, 5).
// CHECK-LABEL: sizes = [1, 2, 3, 2]
// CHECK-NEXT: {{\[+}}18, 18]
// CHECK-NEXT: {{\[+}}18, 20]
// CHECK-NEXT: {{\[+}}11, 20]
// CHECK-NEXT: {{\[+}}15, 16]
// CHECK-NEXT: {{\[+}}20, 13]
// CHECK-NEXT: {{\[+}}19, 19]
func.func @adaptive_max_pool_uneven(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x2xf32> {
  %r = relay.nn.adaptive_max_pool2d(%x) {output_size = array<i32: 3, 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x2xf32>
  func.return %r : tensor<1x2x3x2xf32>
}

// CHECK-LABEL: sizes = [1, 2, 2, 2]
// CHECK-NEXT: {{\[+}}7, 6]
// CHECK-NEXT: {{\[+}}7, 3]
// CHECK-NEXT: {{\[+}}7, 7]
// CHECK-NEXT: {{\[+}}5, 7]
func.func @max_pool_nhwc(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, layout = "NHWC"} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %r : tensor<1x2x2x2xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[[[2.0, 7.0, 4.0, 7.0, 0.0], [3.0, 6.0, 6.0, 3.0, 3.0], [3.0, 4.0, 1.0, 6.0, 0.0], [3.0, 2.0, 5.0, 5.0, 5.0], [7.0, 7.0, 1.0, 0.0, 1.0]], [[5.0, 7.0, 7.0, 5.0, 7.0], [6.0, 0.0, 0.0, 6.0, 0.0], [7.0, 6.0, 7.0, 2.0, 1.0], [4.0, 7.0, 2.0, 7.0, 3.0], [6.0, 1.0, 3.0, 2.0, 1.0]]]]> : tensor<1x2x5x5xf32>
  %r0 = func.call @max_pool(%x0) : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %p0 = tensor.cast %r0 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %x1 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r1 = func.call @avg_pool(%x1) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %p1 = tensor.cast %r1 : tensor<1x2x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %x2 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r2 = func.call @avg_pool_padding_excluded(%x2) : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  %p2 = tensor.cast %r2 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  %x3 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r3 = func.call @avg_pool_count_include_pad(%x3) : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  %p3 = tensor.cast %r3 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  %x4 = arith.constant dense<[[[[5.0, 7.0, 5.0, 2.0], [0.0, 4.0, 1.0, 4.0], [0.0, 6.0, 7.0, 1.0], [6.0, 3.0, 0.0, 7.0]]], [[[7.0, 0.0, 4.0, 6.0], [6.0, 3.0, 6.0, 6.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 2.0, 5.0]]]]> : tensor<2x1x4x4xf32>
  %r4 = func.call @avg_pool_count_include_pad_batch(%x4) : (tensor<2x1x4x4xf32>) -> tensor<2x1x3x3xf32>
  %p4 = tensor.cast %r4 : tensor<2x1x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()
  %x5 = arith.constant dense<[[[[2.0, 7.0, 4.0, 7.0, 0.0], [3.0, 6.0, 6.0, 3.0, 3.0], [3.0, 4.0, 1.0, 6.0, 0.0], [3.0, 2.0, 5.0, 5.0, 5.0], [7.0, 7.0, 1.0, 0.0, 1.0]], [[5.0, 7.0, 7.0, 5.0, 7.0], [6.0, 0.0, 0.0, 6.0, 0.0], [7.0, 6.0, 7.0, 2.0, 1.0], [4.0, 7.0, 2.0, 7.0, 3.0], [6.0, 1.0, 3.0, 2.0, 1.0]]]]> : tensor<1x2x5x5xf32>
  %r5 = func.call @max_pool_ceil_mode(%x5) : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %p5 = tensor.cast %r5 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()
  %x6 = arith.constant dense<[[[[2.0, 7.0, 4.0, 7.0, 0.0], [3.0, 6.0, 6.0, 3.0, 3.0], [3.0, 4.0, 1.0, 6.0, 0.0], [3.0, 2.0, 5.0, 5.0, 5.0], [7.0, 7.0, 1.0, 0.0, 1.0]], [[5.0, 7.0, 7.0, 5.0, 7.0], [6.0, 0.0, 0.0, 6.0, 0.0], [7.0, 6.0, 7.0, 2.0, 1.0], [4.0, 7.0, 2.0, 7.0, 3.0], [6.0, 1.0, 3.0, 2.0, 1.0]]]]> : tensor<1x2x5x5xf32>
  %r6 = func.call @avg_pool_ceil_mode(%x6) : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %p6 = tensor.cast %r6 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p6) : (tensor<*xf32>) -> ()
  %x7 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r7 = func.call @avg_pool_ceil_mode_count_include_pad(%x7) : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  %p7 = tensor.cast %r7 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p7) : (tensor<*xf32>) -> ()
  %x8 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r8 = func.call @global_avg_pool(%x8) : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  %p8 = tensor.cast %r8 : tensor<1x2x1x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p8) : (tensor<*xf32>) -> ()
  %x9 = arith.constant dense<[[[[7.0, 6.0, 1.0, 7.0, 7.0, 2.0], [3.0, 4.0, 5.0, 3.0, 1.0, 7.0], [5.0, 0.0, 6.0, 5.0, 1.0, 4.0], [4.0, 0.0, 7.0, 5.0, 2.0, 0.0], [0.0, 6.0, 1.0, 4.0, 7.0, 7.0], [2.0, 0.0, 3.0, 6.0, 4.0, 0.0]], [[5.0, 2.0, 1.0, 3.0, 6.0, 7.0], [1.0, 4.0, 6.0, 2.0, 2.0, 1.0], [1.0, 7.0, 1.0, 1.0, 1.0, 0.0], [6.0, 2.0, 6.0, 4.0, 6.0, 4.0], [6.0, 6.0, 0.0, 4.0, 3.0, 2.0], [3.0, 3.0, 3.0, 6.0, 6.0, 5.0]]]]> : tensor<1x2x6x6xf32>
  %r9 = func.call @global_max_pool(%x9) : (tensor<1x2x6x6xf32>) -> tensor<1x2x1x1xf32>
  %p9 = tensor.cast %r9 : tensor<1x2x1x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p9) : (tensor<*xf32>) -> ()
  %x10 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r10 = func.call @adaptive_avg_pool(%x10) : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  %p10 = tensor.cast %r10 : tensor<1x2x1x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p10) : (tensor<*xf32>) -> ()
  %x11 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r11 = func.call @adaptive_avg_pool_2x2(%x11) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %p11 = tensor.cast %r11 : tensor<1x2x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p11) : (tensor<*xf32>) -> ()
  %x12 = arith.constant dense<[[[[7.0, 1.0, 7.0, 0.0], [4.0, 4.0, 7.0, 2.0], [7.0, 5.0, 7.0, 1.0], [6.0, 7.0, 0.0, 2.0]], [[5.0, 0.0, 4.0, 5.0], [6.0, 7.0, 3.0, 3.0], [3.0, 7.0, 1.0, 3.0], [0.0, 3.0, 7.0, 4.0]]]]> : tensor<1x2x4x4xf32>
  %r12 = func.call @adaptive_max_pool_2x1(%x12) : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x1xf32>
  %p12 = tensor.cast %r12 : tensor<1x2x2x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p12) : (tensor<*xf32>) -> ()
  %x13 = arith.constant dense<[[[[7.0, 6.0, 1.0, 7.0, 7.0, 2.0], [3.0, 4.0, 5.0, 3.0, 1.0, 7.0], [5.0, 0.0, 6.0, 5.0, 1.0, 4.0], [4.0, 0.0, 7.0, 5.0, 2.0, 0.0], [0.0, 6.0, 1.0, 4.0, 7.0, 7.0], [2.0, 0.0, 3.0, 6.0, 4.0, 0.0]], [[5.0, 2.0, 1.0, 3.0, 6.0, 7.0], [1.0, 4.0, 6.0, 2.0, 2.0, 1.0], [1.0, 7.0, 1.0, 1.0, 1.0, 0.0], [6.0, 2.0, 6.0, 4.0, 6.0, 4.0], [6.0, 6.0, 0.0, 4.0, 3.0, 2.0], [3.0, 3.0, 3.0, 6.0, 6.0, 5.0]]]]> : tensor<1x2x6x6xf32>
  %r13 = func.call @adaptive_avg_pool_overlapping(%x13) : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  %p13 = tensor.cast %r13 : tensor<1x2x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p13) : (tensor<*xf32>) -> ()
  %x14 = arith.constant dense<[[[[1.0, -9.0, 18.0, 8.0, 6.0], [18.0, 12.0, -15.0, -19.0, 15.0], [-4.0, -18.0, -1.0, -5.0, -3.0], [-3.0, -8.0, 0.0, 0.0, 20.0], [8.0, 11.0, -20.0, -8.0, 20.0]], [[-9.0, 0.0, 15.0, 6.0, 16.0], [-14.0, 0.0, 6.0, -6.0, 3.0], [20.0, 10.0, -8.0, -18.0, -13.0], [-9.0, 16.0, -9.0, 13.0, -9.0], [7.0, 1.0, 19.0, 3.0, 17.0]]]]> : tensor<1x2x5x5xf32>
  %r14 = func.call @adaptive_max_pool_uneven(%x14) : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x2xf32>
  %p14 = tensor.cast %r14 : tensor<1x2x3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p14) : (tensor<*xf32>) -> ()
  %x15 = arith.constant dense<[[[[7.0, 5.0], [5.0, 6.0], [7.0, 1.0], [4.0, 1.0]], [[0.0, 5.0], [0.0, 5.0], [6.0, 1.0], [5.0, 3.0]], [[7.0, 7.0], [4.0, 4.0], [5.0, 4.0], [5.0, 1.0]], [[6.0, 4.0], [6.0, 4.0], [2.0, 0.0], [4.0, 7.0]]]]> : tensor<1x4x4x2xf32>
  %r15 = func.call @max_pool_nhwc(%x15) : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %p15 = tensor.cast %r15 : tensor<1x2x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p15) : (tensor<*xf32>) -> ()
  func.return
}
