// relay-simplify-inference keeps the program's outputs: a batch norm, a
// layer norm and a dropout, run by the interpreter before and after the pass
// (values chosen so that both orders of arithmetic are exact).
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(8, dtype='float32').reshape(1, 2, 2, 2) - 4); np.save('%t.y.npy', np.array([[0, 0, 2, 2], [1, 1, 5, 5]], 'float32'))"
// RUN: relay-xdsl run %s --input x=%t.x.npy --input y=%t.y.npy | filecheck %s
// RUN: xdsl-opt %s -p relay-simplify-inference | filecheck %s --check-prefix=SIMPLE
// RUN: xdsl-opt %s -p relay-simplify-inference | relay-xdsl run - --from mlir --input x=%t.x.npy --input y=%t.y.npy | filecheck %s
func.func @main(%x: tensor<1x2x2x2xf32>, %y: tensor<2x4xf32>) -> tuple<tensor<1x2x2x2xf32>, tensor<2x4xf32>> {
  %gamma = relay.constant dense<[3.0, 1.0]> : tensor<2xf32>
  %beta = relay.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %mean = relay.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = relay.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = relay.nn.batch_norm(%x, %gamma, %beta, %mean, %var) {epsilon = 0.000000e+00 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>>
  %g = relay.constant dense<[1.0, 2.0, 0.5, 1.0]> : tensor<4xf32>
  %b = relay.constant dense<[0.0, 0.0, 1.0, -1.0]> : tensor<4xf32>
  %1 = relay.nn.layer_norm(%y, %g, %b) {epsilon = 0.000000e+00 : f32} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = relay.nn.dropout(%1) {rate = 5.000000e-01 : f32} : (tensor<2x4xf32>) -> tuple<tensor<2x4xf32>, tensor<2x4xf32>>
  %3 = relay.tuple_get_item %0[0] : tuple<tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>>
  %4 = relay.tuple_get_item %2[0] : tuple<tensor<2x4xf32>, tensor<2x4xf32>>
  %5 = relay.tuple(%3, %4) : tuple<tensor<1x2x2x2xf32>, tensor<2x4xf32>>
  func.return %5 : tuple<tensor<1x2x2x2xf32>, tensor<2x4xf32>>
}

// SIMPLE-NOT: relay.nn.batch_norm
// SIMPLE-NOT: relay.nn.layer_norm
// SIMPLE-NOT: relay.nn.dropout

// (x - mean) / sqrt(var) * gamma + beta: channel 0 (x - 0.5) * 1.5 + 1,
// channel 1 (x - 1) * 2 - 1; each row of y normalises to [-1, -1, 1, 1].
// CHECK:      output0: (1, 2, 2, 2) float32
// CHECK-NEXT: {{\[\[\[\[}}-5.75 -4.25]
// CHECK-NEXT:    [-2.75 -1.25]]
// CHECK-EMPTY:
// CHECK-NEXT:   {{\[\[}}-3.   -1.  ]
// CHECK-NEXT:    [ 1.    3.  ]]]]
// CHECK-NEXT: output1: (2, 4) float32
// CHECK-NEXT: {{\[\[}}-1.  -2.   1.5  0. ]
// CHECK-NEXT:  [-1.  -2.   1.5  0. ]]
