// What the conversion cannot lower is an error that names the operator and
// says why; xdsl-opt exits with an error, without a traceback.
// RUN: not xdsl-opt %s -p convert-relay-to-tosa 2>&1 | filecheck %s --check-prefix=FIRST
// RUN: xdsl-opt %s --split-input-file --verify-diagnostics -p convert-relay-to-tosa | filecheck %s

// FIRST:     errors.mlir: error: operator 'relax.nn.batch_norm' has no lowering rule yet
// FIRST-NOT: Traceback

// An operator without a lowering rule is an error naming it, never a silent drop.
// CHECK: operator 'relax.nn.batch_norm' has no lowering rule yet
func.func @no_rule(%x: tensor<1x2x3xf32>, %s: tensor<2xf32>) -> tensor<1x2x3xf32> {
  %bn = relay.relax.nn.batch_norm(%x, %s, %s, %s, %s) {axis = 1 : i32} : (tensor<1x2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x3xf32>, tensor<2xf32>, tensor<2xf32>>
  %r = relay.tuple_get_item %bn[0] : tuple<tensor<1x2x3xf32>, tensor<2xf32>, tensor<2xf32>>
  func.return %r : tensor<1x2x3xf32>
}

// -----

// CHECK: nn.conv2d: kernel layout OIHW2o is not supported (expected the axes OHWI)
func.func @kernel_layout(%x: tensor<1x4x8x8xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<1x4x6x6xf32> {
  %r = relay.nn.conv2d(%x, %w) {channels = 4 : i32, kernel_size = array<i32: 3, 3>, kernel_layout = "OIHW2o"} : (tensor<1x4x8x8xf32>, tensor<3x3x4x4xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}
