// The seed examples (TVM's fused resnet18 prefix and its DefuseOps result) go
// through upstream MLIR (mlir-opt-22) and come back unchanged: the same Relay
// text, byte for byte, and the same IR as upstream sees it.
// Inputs/fixtures_unchanged.py states exactly what is compared.
// REQUIRES: mlir-opt-22
// RUN: %python %S/Inputs/fixtures_unchanged.py --roundtrip "%UPSTREAM_ROUNDTRIP" --canonical "%MLIR_OPT" %examples/seed | filecheck %s

// CHECK-NOT: CHANGED
// CHECK: unchanged: seed/defused.relay
// CHECK: unchanged: seed/fused.relay
// CHECK: 2 fixtures: 2 unchanged, 0 unchanged up to attribute order, 0 unchanged (MLIR only), 0 changed, 0 without a program
