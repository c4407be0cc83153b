// Every importer lit fixture goes through upstream MLIR
// (mlir-opt-22) and comes back unchanged: the same Relay text, byte for byte,
// and the same IR as upstream sees it. Inputs/fixtures_unchanged.py states
// exactly what is compared.
// REQUIRES: mlir-opt-22
// RUN: %python %S/Inputs/fixtures_unchanged.py --roundtrip "%UPSTREAM_ROUNDTRIP" --canonical "%MLIR_OPT" %S/../importers | filecheck %s

// CHECK-NOT: CHANGED
// Unknown operators keep their keyword attributes in a dictionary, which
// upstream sorts: my.custom_op(mode=..., factors=...) comes back as
// my.custom_op(factors=..., mode=...).
// CHECK: unchanged: importers/relay_text/adts.relay
// CHECK: unchanged up to attribute order: importers/relay_text/constructs.relay
// CHECK: unchanged: importers/relay_text/dynamic.relay
// CHECK: no program: importers/relay_text/errors.relay
// CHECK: unchanged: importers/relay_text/expression.relay
// CHECK: no program: importers/relay_text/match_exhaustion.relay
// CHECK: unchanged: importers/relay_text/match_on_tensor.relay
// CHECK: unchanged: importers/relay_text/memory.relay
// CHECK: unchanged: importers/relay_text/parse_only.relay
// CHECK: unchanged: importers/relay_text/seed_fused.relay
// CHECK: unchanged: importers/relay_text/shared_literal.relay
// CHECK: unchanged: importers/relay_text/tvm_forms.relay
// The std_*.relay tests hold only RUN lines: TVM's .rly files are in
// tests/importers/std, and interop/std_library.relay sends them upstream.
// CHECK: 16 fixtures: 13 unchanged, 1 unchanged up to attribute order, 0 unchanged (MLIR only), 0 changed, 2 without a program
