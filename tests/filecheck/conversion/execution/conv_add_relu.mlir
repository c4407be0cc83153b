// A 3x3 convolution (padding 1), a per-channel bias added as a (C, 1, 1) constant,
// and relu, compiled and run: the activation is NHWC inside, NCHW at the result.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// CHECK-LABEL: sizes = [1, 3, 4, 4]
// CHECK-NEXT: {{\[+}}1, 0, 2, 9]
// CHECK-NEXT: {{\[+}}4, 6, 4, 0]
// CHECK-NEXT: {{\[+}}0, 0, 0, 0]
// CHECK-NEXT: {{\[+}}0, 0, 0, 0]
// CHECK-NEXT: {{\[+}}3, 3, 0, 0]
// CHECK-NEXT: {{\[+}}4, 0, 0, 3]
// CHECK-NEXT: {{\[+}}8, 8, 4, 0]
// CHECK-NEXT: {{\[+}}7, 11, 7, 7]
// CHECK-NEXT: {{\[+}}3, 5, 0, 0]
// CHECK-NEXT: {{\[+}}0, 7, 9, 8]
// CHECK-NEXT: {{\[+}}1, 0, 8, 1]
// CHECK-NEXT: {{\[+}}1, 0, 11, 3]
func.func @conv_add_relu(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = relay.constant dense<[[[[-1.0, 1.0, -1.0], [0.0, -1.0, -1.0], [0.0, 0.0, 0.0]], [[-1.0, -1.0, -1.0], [-1.0, 1.0, 0.0], [0.0, -1.0, 0.0]]], [[[1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]], [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]]], [[[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [1.0, 1.0, -1.0]], [[1.0, 0.0, 0.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]]]> : tensor<3x2x3x3xf32>
  %b = relay.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>, channels = 3 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  %a = relay.add(%c, %b) : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = relay.nn.relu(%a) : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %r : tensor<1x3x4x4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[[[2.0, 1.0, 0.0, -2.0], [-1.0, -3.0, -3.0, -3.0], [-2.0, 2.0, 1.0, 3.0], [0.0, 1.0, 3.0, 2.0]], [[1.0, 0.0, 0.0, 3.0], [-2.0, 2.0, 1.0, -3.0], [-1.0, 3.0, 0.0, -3.0], [2.0, 2.0, 2.0, -2.0]]]]> : tensor<1x2x4x4xf32>
  %r0 = func.call @conv_add_relu(%x0) : (tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  %p0 = tensor.cast %r0 : tensor<1x3x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  func.return
}
