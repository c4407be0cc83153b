// relay-fold-constant keeps the program's outputs: the subgraph of constants
// (a multiply, a subtract, an expand_dims) is evaluated by the interpreter into
// one constant, and the program runs to the same arrays before and after.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([[1, 2, 3], [4, 5, 6]], 'float32'))"
// RUN: relay-xdsl run %s --input x=%t.x.npy | filecheck %s
// RUN: xdsl-opt %s -p relay-fold-constant | filecheck %s --check-prefix=FOLDED
// RUN: xdsl-opt %s -p relay-fold-constant | relay-xdsl run - --from mlir --input x=%t.x.npy | filecheck %s
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = relay.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %0 = relay.multiply(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = relay.subtract(%0, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = relay.expand_dims(%1) {axis = 1 : i32} : (tensor<2xf32>) -> tensor<2x1xf32>
  %3 = relay.add(%x, %2) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  func.return %3 : tensor<2x3xf32>
}

// FOLDED:      %[[C:.*]] = relay.constant dense<{{\[\[}}0.000000e+00], [2.500000e-01]]> : tensor<2x1xf32>
// FOLDED-NEXT: relay.add(%x, %[[C]])
// FOLDED-NOT:  relay.multiply

// CHECK:      output0: (2, 3) float32
// CHECK-NEXT: {{\[\[}}1.   2.   3.  ]
// CHECK-NEXT:  [4.25 5.25 6.25]]
