// What the conversion cannot lower is an error that names the operator and
// says why; xdsl-opt exits with an error, without a traceback.
// RUN: not xdsl-opt %s -p convert-relay-to-tosa 2>&1 | filecheck %s --check-prefix=FIRST
// RUN: xdsl-opt %s --split-input-file --verify-diagnostics -p convert-relay-to-tosa | filecheck %s

// FIRST:     errors.mlir: error: operator 'dyn.sparse_to_dense' has no lowering: the dialect has no static sparse_to_dense to make of it
// FIRST-NOT: Traceback

// An operator without a lowering rule is an error naming it and its row's reason, never a silent drop.
// CHECK: operator 'dyn.sparse_to_dense' has no lowering: the dialect has no static sparse_to_dense to make of it
func.func @no_rule(%values: tensor<2xf32>) -> tensor<3x4xf32> {
  %indices = relay.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
  %default_value = relay.constant dense<0.000000e+00> : tensor<f32>
  %output_shape = relay.constant dense<[3, 4]> : tensor<2xi64>
  %r = relay.dyn.sparse_to_dense(%indices, %values, %default_value, %output_shape) : (tensor<2x2xi64>, tensor<2xf32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

// CHECK: nn.conv2d: kernel layout OIHW2o is not supported (expected the axes OHWI)
func.func @kernel_layout(%x: tensor<1x4x8x8xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<1x4x6x6xf32> {
  %r = relay.nn.conv2d(%x, %w) {channels = 4 : i32, kernel_size = array<i32: 3, 3>, kernel_layout = "OIHW2o"} : (tensor<1x4x8x8xf32>, tensor<3x3x4x4xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}
