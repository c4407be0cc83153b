// Verifier errors in MLIR input point at the failing op in the file.
// RUN: not xdsl-opt %s 2>&1 | filecheck %s
// RUN: not relay-xdsl export %s 2>&1 | filecheck %s
// RUN: xdsl-opt %s --verify-diagnostics | filecheck %s --check-prefix=VERIFY

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.nn.relu(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// CHECK:      mlir_verify.mlir:7:3: error: 'relay.nn.relu' op 'nn.relu' expects 1 argument(s), got 2
// CHECK-NEXT:   %0 = relay.nn.relu(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:   ^~~~~~~~~~~~~~~~~~
// CHECK-NOT:  Traceback

// VERIFY: Operation does not verify: 'nn.relu' expects 1 argument(s), got 2
