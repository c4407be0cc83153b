// nn.dense (x @ w.T, the weight transposed when compiling) and nn.bias_add, run.
// REQUIRES: mlir-runner-22
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 %mlir_pipeline | %mlir_runner | filecheck %s

// This file is written by Inputs/gen_execution_tests.py; edit that and rerun it.

// CHECK-LABEL: sizes = [2, 4]
// CHECK-NEXT: {{\[+}}-4, -9, 7.5, 5]
// CHECK-NEXT: {{\[+}}6, -11, -2.5, -1]
func.func @dense(%x: tensor<2x6xf32>) -> tensor<2x4xf32> {
  %w = relay.constant dense<[[-1.0, 2.0, 0.0, 1.0, -1.0, -1.0], [1.0, 2.0, -2.0, -2.0, 1.0, -1.0], [0.0, -2.0, 2.0, 0.0, 2.0, 1.0], [1.0, -1.0, 1.0, -2.0, 0.0, 0.0]]> : tensor<4x6xf32>
  %b = relay.constant dense<[1.0, -1.0, 0.5, 0.0]> : tensor<4xf32>
  %d = relay.nn.dense(%x, %w) {units = 4 : i32} : (tensor<2x6xf32>, tensor<4x6xf32>) -> tensor<2x4xf32>
  %r = relay.nn.bias_add(%d, %b) {axis = 1 : i32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x0 = arith.constant dense<[[0.0, -1.0, 2.0, -1.0, -1.0, 3.0], [-2.0, -2.0, 1.0, 1.0, -3.0, -3.0]]> : tensor<2x6xf32>
  %r0 = func.call @dense(%x0) : (tensor<2x6xf32>) -> tensor<2x4xf32>
  %p0 = tensor.cast %r0 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  func.return
}
