// The seed examples (TVM's fused resnet18 prefix, its DefuseOps result and the
// original batch-norm module, typed by inference) go
// through upstream MLIR (mlir-opt-22) and come back unchanged: the same Relay
// text, byte for byte, and the same IR as upstream sees it.
// Inputs/fixtures_unchanged.py states exactly what is compared.
// REQUIRES: mlir-opt-22
// RUN: %python %S/Inputs/fixtures_unchanged.py --roundtrip "%UPSTREAM_ROUNDTRIP" --canonical "%MLIR_OPT" %examples/seed | filecheck %s

// CHECK-NOT: CHANGED
// CHECK: unchanged: seed/defused.relay
// CHECK: unchanged: seed/fused.relay
// CHECK: unchanged: seed/original.relay
// CHECK: 3 fixtures: 3 unchanged, 0 unchanged up to attribute order, 0 unchanged (MLIR only), 0 changed, 0 without a program
