// Every exporter and dialect lit fixture goes through upstream MLIR
// (mlir-opt-22) and comes back unchanged: the same Relay text, byte for byte,
// and the same IR as upstream sees it. Inputs/fixtures_unchanged.py states
// exactly what is compared.
// REQUIRES: mlir-opt-22
// RUN: %python %S/Inputs/fixtures_unchanged.py --roundtrip "%UPSTREAM_ROUNDTRIP" --canonical "%MLIR_OPT" %S/../exporters %S/../dialect | filecheck %s

// CHECK-NOT: CHANGED
// Dialect tests with several results per function or op have no Relay
// text; for them upstream's view is what is compared.
// CHECK: unchanged: exporters/relay_text/attributes.mlir
// CHECK: unchanged: exporters/relay_text/builder_defaults.relay
// CHECK: unchanged: dialect/adts.mlir
// CHECK: no program: dialect/adts_invalid.mlir
// CHECK: unchanged (MLIR only): dialect/generic.mlir
// CHECK: no program: dialect/invalid.mlir
// CHECK: no program: dialect/invalid_syntax.mlir
// CHECK: unchanged (MLIR only): dialect/ops.mlir
// CHECK: 8 fixtures: 3 unchanged, 0 unchanged up to attribute order, 2 unchanged (MLIR only), 0 changed, 3 without a program
