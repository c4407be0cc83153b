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
// CHECK: unchanged up to attribute order: importers/relay_text/constructs.relay
// CHECK: no program: importers/relay_text/errors.relay
// CHECK: unchanged: importers/relay_text/seed_fused.relay
// CHECK: unchanged: importers/relay_text/shared_literal.relay
// CHECK: no program: importers/relay_text/unsupported_match.relay
// CHECK: 5 fixtures: 2 unchanged, 1 unchanged up to attribute order, 0 unchanged (MLIR only), 0 changed, 2 without a program
