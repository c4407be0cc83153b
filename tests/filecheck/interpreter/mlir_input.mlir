// relay-dialect MLIR runs as Relay text does: a relay.fn called in place,
// a constant and a reduction with keepdims.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(6, dtype='float32').reshape(2, 3))"
// RUN: relay-xdsl run %s --input x=%t.x.npy | filecheck %s
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %c = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = relay.fn(%p0 = %x : tensor<2x3xf32>, %p1 = %c : tensor<3xf32>) -> tensor<2x3xf32> attributes {Primitive = 1 : i32} {
    %1 = relay.multiply(%p0, %p1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    relay.return %1 : tensor<2x3xf32>
  }
  %2 = relay.sum(%0) {axis = array<i32: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  func.return %2 : tensor<2x1xf32>
}

// CHECK:      output0: (2, 1) float32
// CHECK-NEXT: {{\[\[}} 8.]
// CHECK-NEXT:  [26.]]
