// Layouts, run: a convolution's result is NHWC inside and meets operators that
// need Relay's order (a reshape, batch_flatten: transposed back), that do not
// (a reshape of 1x1xC, elementwise operators, reductions, concatenation: kept
// in NHWC), a transpose (composed with the layout), and NHWC inputs.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// NCHW order: the first channel's nine values, then the second's.
// CHECK-LABEL: sizes = [1, 18]
// CHECK-NEXT: {{\[+}}-1, -2, 0, -9, -4, -2, 4, -2, -1, -3, -2, 4, 4, 0, 1, -2, -4, 0]
func.func @batch_flatten(%x: tensor<1x2x3x3xf32>) -> tensor<1x18xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.nn.batch_flatten(%c) : (tensor<1x2x3x3xf32>) -> tensor<1x18xf32>
  func.return %r : tensor<1x18xf32>
}

// CHECK-LABEL: sizes = [2, 9]
// CHECK-NEXT: {{\[+}}-1, -2, 0, -9, -4, -2, 4, -2, -1]
// CHECK-NEXT: {{\[+}}-3, -2, 4, 4, 0, 1, -2, -4, 0]
func.func @reshape(%x: tensor<1x2x3x3xf32>) -> tensor<2x9xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.reshape(%c) {newshape = array<i32: 2, 9>} : (tensor<1x2x3x3xf32>) -> tensor<2x9xf32>
  func.return %r : tensor<2x9xf32>
}

// The 1x1xC pool result needs no transpose before the reshape.
// CHECK-LABEL: sizes = [1, 3]
// CHECK-NEXT: {{\[+}}-2.33333, 1.88889, -2]
func.func @pool_reshape_dense(%x: tensor<1x2x3x3xf32>) -> tensor<1x3xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p = relay.nn.global_avg_pool2d(%c) : (tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32>
  %f = relay.reshape(%p) {newshape = array<i32: 1, -1>} : (tensor<1x2x1x1xf32>) -> tensor<1x2xf32>
  %k = relay.constant dense<[[1.0, 2.0], [-1.0, 0.0], [0.0, 9.0]]> : tensor<3x2xf32>
  %r = relay.nn.dense(%f, %k) : (tensor<1x2xf32>, tensor<3x2xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// CHECK-LABEL: sizes = [1, 3, 2, 3]
// CHECK-NEXT: {{\[+}}-1, -9, 4]
// CHECK-NEXT: {{\[+}}-3, 4, -2]
// CHECK-NEXT: {{\[+}}-2, -4, -2]
// CHECK-NEXT: {{\[+}}-2, 0, -4]
// CHECK-NEXT: {{\[+}}0, -2, -1]
// CHECK-NEXT: {{\[+}}4, 1, 0]
func.func @transpose(%x: tensor<1x2x3x3xf32>) -> tensor<1x3x2x3xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.transpose(%c) {axes = array<i32: 0, 3, 1, 2>} : (tensor<1x2x3x3xf32>) -> tensor<1x3x2x3xf32>
  func.return %r : tensor<1x3x2x3xf32>
}

// The NCHW input is transposed to meet the NHWC convolution.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}-2, -2, -1]
// CHECK-NEXT: {{\[+}}-11, -4, 1]
// CHECK-NEXT: {{\[+}}5, -1, 0]
// CHECK-NEXT: {{\[+}}0, -3, 3]
// CHECK-NEXT: {{\[+}}4, 0, 4]
// CHECK-NEXT: {{\[+}}-4, -5, -2]
func.func @residual_add(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.add(%c, %x) : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// Operands of lower rank broadcast against the NHWC result.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}-1.5, -4.5, -0.5]
// CHECK-NEXT: {{\[+}}-9.5, -8.5, -6.5]
// CHECK-NEXT: {{\[+}}3.5, -4.5, -3.5]
// CHECK-NEXT: {{\[+}}-30.5, -40.5, 119.5]
// CHECK-NEXT: {{\[+}}39.5, -0.5, 29.5]
// CHECK-NEXT: {{\[+}}-20.5, -80.5, -0.5]
func.func @broadcast(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %s = relay.constant dense<[[[1.0, 2.0, 3.0]], [[10.0, 20.0, 30.0]]]> : tensor<2x1x3xf32>
  %m = relay.multiply(%c, %s) : (tensor<1x2x3x3xf32>, tensor<2x1x3xf32>) -> tensor<1x2x3x3xf32>
  %h = relay.constant dense<0.5> : tensor<f32>
  %r = relay.subtract(%m, %h) : (tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// (x - mean) / sqrt(var + 1e-5) * gamma + beta, variances 3 and 15 plus epsilon:
// not exact, so the values print rounded.
// CHECK-LABEL: sizes = [1, 2, 3, 3]
// CHECK-NEXT: {{\[+}}-1.3094, -2.4641, -0.154699]
// CHECK-NEXT: {{\[+}}-10.547, -4.77349, -2.4641]
// CHECK-NEXT: {{\[+}}4.4641, -2.4641, -1.3094]
// CHECK-NEXT: {{\[+}}-1.1291, -1, -0.225404]
// CHECK-NEXT: {{\[+}}-0.225404, -0.741801, -0.612702]
// CHECK-NEXT: {{\[+}}-1, -1.2582, -0.741801]
func.func @batch_norm(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %gamma = relay.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %beta = relay.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %mean = relay.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %var = relay.constant dense<[3.0, 15.0]> : tensor<2xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %bn = relay.nn.batch_norm(%c, %gamma, %beta, %mean, %var) : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>
  %r = relay.tuple_get_item %bn[0] : tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>
  func.return %r : tensor<1x2x3x3xf32>
}

// CHECK-LABEL: sizes = [1, 1, 3, 3]
// CHECK-NEXT: {{\[+}}-2, -2, 2]
// CHECK-NEXT: {{\[+}}-2.5, -2, -0.5]
// CHECK-NEXT: {{\[+}}1, -3, -0.5]
func.func @mean_channels(%x: tensor<1x2x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.mean(%c) {axis = array<i32: 1>, keepdims = true} : (tensor<1x2x3x3xf32>) -> tensor<1x1x3x3xf32>
  func.return %r : tensor<1x1x3x3xf32>
}

// CHECK-LABEL: sizes = [1, 2]
// CHECK-NEXT: {{\[+}}-17, -2]
func.func @sum_spatial(%x: tensor<1x2x3x3xf32>) -> tensor<1x2xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.sum(%c) {axis = array<i32: 2, 3>} : (tensor<1x2x3x3xf32>) -> tensor<1x2xf32>
  func.return %r : tensor<1x2xf32>
}

// CHECK-LABEL: sizes = [1, 3]
// CHECK-NEXT: {{\[+}}-4, -5, -5]
func.func @dense_after_flatten(%x: tensor<1x2x3x3xf32>) -> tensor<1x3xf32> {
  %w = relay.constant dense<[[[[1.0, 0.0, -1.0], [-1.0, 1.0, 0.0], [1.0, -1.0, -1.0]], [[0.0, -1.0, 0.0], [0.0, -1.0, -1.0], [1.0, 1.0, 0.0]]], [[[1.0, 0.0, 1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, 1.0]], [[-1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]]]]> : tensor<2x2x3x3xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %f = relay.nn.batch_flatten(%c) : (tensor<1x2x3x3xf32>) -> tensor<1x18xf32>
  %k = relay.constant dense<[[1.0, 0.0, 0.0, 0.0, -1.0, 1.0, -1.0, 0.0, 0.0, -1.0, -1.0, 0.0, -1.0, 0.0, 0.0, -1.0, 1.0, -1.0], [0.0, -1.0, -1.0, 0.0, 1.0, 0.0, 0.0, -1.0, 1.0, 1.0, 1.0, -1.0, 1.0, 0.0, -1.0, 1.0, -1.0, 0.0], [-1.0, -1.0, 0.0, 0.0, 0.0, -1.0, -1.0, -1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<3x18xf32>
  %r = relay.nn.dense(%f, %k) : (tensor<1x18xf32>, tensor<3x18xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// NHWC data with an HWIO weight: no transposes at all.
// CHECK-LABEL: sizes = [1, 3, 3, 2]
// CHECK-NEXT: {{\[+}}4, 0]
// CHECK-NEXT: {{\[+}}3, 0]
// CHECK-NEXT: {{\[+}}0, 0]
// CHECK-NEXT: {{\[+}}0, 2]
// CHECK-NEXT: {{\[+}}0, 17]
// CHECK-NEXT: {{\[+}}6, 10]
// CHECK-NEXT: {{\[+}}6, 0]
// CHECK-NEXT: {{\[+}}1, 0]
// CHECK-NEXT: {{\[+}}0, 0]
func.func @nhwc_input(%x: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %w = relay.constant dense<[[[[-1.0, -1.0], [0.0, 0.0]], [[-1.0, -1.0], [1.0, -1.0]], [[-1.0, 0.0], [1.0, 0.0]]], [[[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [-1.0, 1.0]], [[-1.0, 1.0], [-1.0, 1.0]]], [[[-1.0, 1.0], [0.0, 0.0]], [[-1.0, -1.0], [1.0, -1.0]], [[-1.0, 0.0], [0.0, 0.0]]]]> : tensor<3x3x2x2xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 2 : i32, kernel_size = array<i32: 3, 3>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x3x3x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x3x3x2xf32>
  %r = relay.nn.relu(%c) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %r : tensor<1x3x3x2xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r0 = func.call @batch_flatten(%x0) : (tensor<1x2x3x3xf32>) -> tensor<1x18xf32>
  %p0 = tensor.cast %r0 : tensor<1x18xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %x1 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r1 = func.call @reshape(%x1) : (tensor<1x2x3x3xf32>) -> tensor<2x9xf32>
  %p1 = tensor.cast %r1 : tensor<2x9xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %x2 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r2 = func.call @pool_reshape_dense(%x2) : (tensor<1x2x3x3xf32>) -> tensor<1x3xf32>
  %p2 = tensor.cast %r2 : tensor<1x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  %x3 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r3 = func.call @transpose(%x3) : (tensor<1x2x3x3xf32>) -> tensor<1x3x2x3xf32>
  %p3 = tensor.cast %r3 : tensor<1x3x2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  %x4 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r4 = func.call @residual_add(%x4) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p4 = tensor.cast %r4 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()
  %x5 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r5 = func.call @broadcast(%x5) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p5 = tensor.cast %r5 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p5) : (tensor<*xf32>) -> ()
  %x6 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r6 = func.call @batch_norm(%x6) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p6 = tensor.cast %r6 : tensor<1x2x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p6) : (tensor<*xf32>) -> ()
  %x7 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r7 = func.call @mean_channels(%x7) : (tensor<1x2x3x3xf32>) -> tensor<1x1x3x3xf32>
  %p7 = tensor.cast %r7 : tensor<1x1x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p7) : (tensor<*xf32>) -> ()
  %x8 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r8 = func.call @sum_spatial(%x8) : (tensor<1x2x3x3xf32>) -> tensor<1x2xf32>
  %p8 = tensor.cast %r8 : tensor<1x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p8) : (tensor<*xf32>) -> ()
  %x9 = arith.constant dense<[[[[-1.0, 0.0, -1.0], [-2.0, 0.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, -1.0, -1.0], [0.0, 0.0, 3.0], [-2.0, -1.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r9 = func.call @dense_after_flatten(%x9) : (tensor<1x2x3x3xf32>) -> tensor<1x3xf32>
  %p9 = tensor.cast %r9 : tensor<1x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p9) : (tensor<*xf32>) -> ()
  %x10 = arith.constant dense<[[[[2.0, 3.0], [-2.0, -3.0], [-2.0, -2.0]], [[2.0, 2.0], [0.0, 3.0], [3.0, 3.0]], [[0.0, 0.0], [-1.0, -2.0], [-1.0, 2.0]]]]> : tensor<1x3x3x2xf32>
  %r10 = func.call @nhwc_input(%x10) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %p10 = tensor.cast %r10 : tensor<1x3x3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p10) : (tensor<*xf32>) -> ()
  func.return
}
