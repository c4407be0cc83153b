// relay-fold-scale-axis (then relay-fold-constant) keeps the program's
// outputs: a per-channel multiply after a convolution goes into its weights,
// run by the interpreter before and after (values chosen so that both orders
// of arithmetic are exact).
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(8, dtype='float32').reshape(1, 2, 2, 2))"
// RUN: relay-xdsl run %s --input x=%t.x.npy | filecheck %s
// RUN: xdsl-opt %s -p 'relay-fold-scale-axis,relay-fold-constant' | filecheck %s --check-prefix=FOLDED
// RUN: xdsl-opt %s -p 'relay-fold-scale-axis,relay-fold-constant' | relay-xdsl run - --from mlir --input x=%t.x.npy | filecheck %s
func.func @main(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = relay.constant dense<[[[[1.0]], [[0.0]]], [[[1.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %0 = relay.nn.conv2d(%x, %w) {padding = array<i32: 0, 0, 0, 0>, channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %scale = relay.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %1 = relay.multiply(%0, %scale) : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %shift = relay.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %2 = relay.add(%1, %shift) : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %3 = relay.nn.relu(%2) : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %3 : tensor<1x2x2x2xf32>
}

// The scale is in the weights: [[2, 0], [0.5, 0.5]].
// FOLDED:     relay.constant dense<{{\[\[\[\[}}2.000000e+00]], {{\[\[}}0.000000e+00]]], {{\[\[\[}}5.000000e-01]], {{\[\[}}5.000000e-01]]]]> : tensor<2x2x1x1xf32>
// FOLDED-NOT: relay.multiply
// FOLDED:     relay.nn.conv2d
// FOLDED:     relay.add
// FOLDED-NOT: relay.multiply

// Channel 0: 2 x0 + 1; channel 1: (x0 + x1) / 2 - 1.
// CHECK:      output0: (1, 2, 2, 2) float32
// CHECK-NEXT: {{\[\[\[\[}}1. 3.]
// CHECK-NEXT:    [5. 7.]]
// CHECK-EMPTY:
// CHECK-NEXT:   {{\[\[}}1. 2.]
// CHECK-NEXT:    [3. 4.]]]]
