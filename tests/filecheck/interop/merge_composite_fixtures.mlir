// Every relay-merge-composite lit fixture goes through upstream MLIR
// (mlir-opt-22) and comes back unchanged: the same Relay text, byte for byte,
// and the same IR as upstream sees it. Inputs/fixtures_unchanged.py states
// exactly what is compared.
// REQUIRES: mlir-opt-22
// RUN: %python %S/Inputs/fixtures_unchanged.py --roundtrip "%UPSTREAM_ROUNDTRIP" --canonical "%MLIR_OPT" %S/../transforms/merge_composite | filecheck %s

// CHECK-NOT: CHANGED
// CHECK: fixtures: {{[1-9][0-9]*}} unchanged, 0 unchanged up to attribute order, 0 unchanged (MLIR only), 0 changed, 0 without a program
