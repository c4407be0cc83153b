// The fixtures of the constructs beyond dataflow (tests/filecheck/language:
// functions as values, closures, recursion, if, let in every position,
// references, devices and kept metadata) go through upstream MLIR (mlir-opt-22) and come back unchanged:
// the same Relay text, byte for byte, and the same IR as upstream sees it.
// Inputs/fixtures_unchanged.py states exactly what is compared.
// REQUIRES: mlir-opt-22
// RUN: %python %S/Inputs/fixtures_unchanged.py --roundtrip "%UPSTREAM_ROUNDTRIP" --canonical "%MLIR_OPT" %S/../language | filecheck %s

// CHECK-NOT: CHANGED
// CHECK: unchanged: language/control_flow.relay
// CHECK: unchanged: language/dead_recursion.relay
// CHECK: unchanged: language/devices.relay
// CHECK: unchanged: language/functions.relay
// CHECK: no program: language/invalid.mlir
// CHECK: unchanged: language/references.relay
// CHECK: 6 fixtures: 5 unchanged, 0 unchanged up to attribute order, 0 unchanged (MLIR only), 0 changed, 1 without a program
