// Every type-inference lit fixture goes through upstream MLIR (mlir-opt-22)
// and comes back unchanged, !relay.incomplete types included.
// Inputs/fixtures_unchanged.py states exactly what is compared.
// REQUIRES: mlir-opt-22
// RUN: %python %S/Inputs/fixtures_unchanged.py --roundtrip "%UPSTREAM_ROUNDTRIP" --canonical "%MLIR_OPT" %S/../inference | filecheck %s

// CHECK-NOT: CHANGED
// CHECK: no program: inference/conv_channels_error.relay
// CHECK: unchanged: inference/infer_type_pass.mlir
// CHECK: no program: inference/negative_dimension.relay
// CHECK: unchanged: inference/seed_original.relay
// CHECK: unchanged: inference/untyped.relay
// CHECK: 5 fixtures: 3 unchanged, 0 unchanged up to attribute order, 0 unchanged (MLIR only), 0 changed, 2 without a program
