// MLIR syntax errors: xdsl-opt (once relay-xdsl is installed) and relay-xdsl
// print file:line:col, what was expected and what was found, the line and a
// caret, exit with status 1 and show no traceback.
// RUN: not xdsl-opt %s 2>&1 | filecheck %s
// RUN: not relay-xdsl export %s 2>&1 | filecheck %s
// RUN: xdsl-opt %s --parsing-diagnostics | filecheck %s --check-prefix=XDSL

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = relay.nn.relu(%x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// CHECK:      mlir_syntax.mlir:9:25: error: ')' expected, found ':'
// CHECK-NEXT:   %y = relay.nn.relu(%x : tensor<4xf32>
// CHECK-NEXT:                         ^
// CHECK-NOT:  Traceback

// --parsing-diagnostics keeps xDSL's own format.
// XDSL:      mlir_syntax.mlir:9:25
// XDSL-NEXT:   %y = relay.nn.relu(%x : tensor<4xf32>
// XDSL-NEXT:                         ^
// XDSL-NEXT:                         ')' expected
