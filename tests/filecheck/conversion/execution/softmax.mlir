// nn.softmax and nn.log_softmax along the last axis, and softmax of an NCHW
// activation along its channels (held NHWC after the convolution), run.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// CHECK-LABEL: sizes = [2, 5]
// CHECK-NEXT: {{\[+}}0.01189{{[0-9]*}}, 0.08788{{[0-9]*}}, 0.01189{{[0-9]*}}, 0.2389{{[0-9]*}}, 0.6494{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.1079{{[0-9]*}}, 0.7979{{[0-9]*}}, 0.03972{{[0-9]*}}, 0.01461{{[0-9]*}}, 0.03972{{[0-9]*}}]
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %r = relay.nn.softmax(%x) {axis = -1 : i32} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// CHECK-LABEL: sizes = [2, 5]
// CHECK-NEXT: {{\[+}}-4.431{{[0-9]*}}, -2.431{{[0-9]*}}, -4.431{{[0-9]*}}, -1.431{{[0-9]*}}, -0.4316{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}-2.225{{[0-9]*}}, -0.2257{{[0-9]*}}, -3.225{{[0-9]*}}, -4.225{{[0-9]*}}, -3.225{{[0-9]*}}]
func.func @log_softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %r = relay.nn.log_softmax(%x) {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// CHECK-LABEL: sizes = [1, 3, 3, 3]
// CHECK-NEXT: {{\[+}}0.0009088{{[0-9]*}}, 0.01766{{[0-9]*}}, 0.8788{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.0009088{{[0-9]*}}, 0.9646{{[0-9]*}}, 0.8788{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.0009088{{[0-9]*}}, 0.7869{{[0-9]*}}, 0.002428{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.002470{{[0-9]*}}, 0.01766{{[0-9]*}}, 0.002178{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.9966{{[0-9]*}}, 0.01766{{[0-9]*}}, 0.002178{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.002470{{[0-9]*}}, 0.1065{{[0-9]*}}, 0.9796{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.9966{{[0-9]*}}, 0.9646{{[0-9]*}}, 0.1189{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.002470{{[0-9]*}}, 0.01766{{[0-9]*}}, 0.1189{{[0-9]*}}]
// CHECK-NEXT: {{\[+}}0.9966{{[0-9]*}}, 0.1065{{[0-9]*}}, 0.01794{{[0-9]*}}]
func.func @conv_softmax(%x: tensor<1x2x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %w = relay.constant dense<[[[[-1.0]], [[0.0]]], [[[1.0]], [[-1.0]]], [[[1.0]], [[1.0]]]]> : tensor<3x2x1x1xf32>
  %c = relay.nn.conv2d(%x, %w) {channels = 3 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x3x3xf32>
  %r = relay.nn.softmax(%c) {axis = 1 : i32} : (tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return %r : tensor<1x3x3x3xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[-2.0, 0.0, -2.0, 1.0, 2.0], [0.0, 2.0, -1.0, -2.0, -1.0]]> : tensor<2x5xf32>
  %r0 = func.call @softmax(%x0) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %p0 = tensor.cast %r0 : tensor<2x5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %x1 = arith.constant dense<[[-2.0, 0.0, -2.0, 1.0, 2.0], [0.0, 2.0, -1.0, -2.0, -1.0]]> : tensor<2x5xf32>
  %r1 = func.call @log_softmax(%x1) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %p1 = tensor.cast %r1 : tensor<2x5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %x2 = arith.constant dense<[[[[2.0, 1.0, -2.0], [2.0, -2.0, -2.0], [2.0, -1.0, 2.0]], [[3.0, 2.0, 2.0], [-3.0, 0.0, 2.0], [3.0, 0.0, -2.0]]]]> : tensor<1x2x3x3xf32>
  %r2 = func.call @conv_softmax(%x2) : (tensor<1x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %p2 = tensor.cast %r2 : tensor<1x3x3x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  func.return
}
