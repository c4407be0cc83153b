// RUN: xdsl-opt %s -p 'relay-merge-composite{table=conv2d-add-relu}' | filecheck %s
// RUN: xdsl-opt %s -p 'relay-merge-composite{table=conv2d-bias-relu}' | filecheck %s --check-prefix=BIAS
// RUN: xdsl-opt %s -p 'relay-merge-composite{table=dense-bias-act}' | filecheck %s --check-prefix=DENSE
// RUN: xdsl-opt %s -p 'relay-merge-composite,relay-defuse' | filecheck %s --check-prefix=BACK

// MLIR in, MLIR out: parameters carry the FunctionVar names (".N" spells a
// trailing "_N"), attributes are PartitionedFromPattern then Composite.
func.func @main(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4x1x1xf32>, %cb: tensor<4xf32>, %v: tensor<2x4xf32>, %dw: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %a = relay.add(%b, %c) : (tensor<4x1x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu(%a) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c2 = relay.nn.conv2d(%r, %w) {padding = array<i32: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %ba = relay.nn.bias_add(%c2, %cb) : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %d = relay.nn.dense(%v, %dw) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %db = relay.nn.bias_add(%d, %cb) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %g = relay.relax.nn.gelu(%db) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %t = relay.tuple(%ba, %g) : tuple<tensor<1x4x8x8xf32>, tensor<2x4xf32>>
  %o = relay.tuple_get_item %t[1] : tuple<tensor<1x4x8x8xf32>, tensor<2x4xf32>>
  func.return %o : tensor<2x4xf32>
}

// add commutes, so add(%b, conv) matches add(conv, bias); bias_add does not
// match conv2d-add-relu, so the second conv2d is a composite of its own.
// CHECK:      %r = relay.fn(%FunctionVar_1.0 = %x : tensor<1x4x8x8xf32>, %FunctionVar_1.1 = %w : tensor<4x4x3x3xf32>, %FunctionVar_1.2 = %b : tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32> attributes {PartitionedFromPattern = "nn.conv2d_add_nn.relu_", Composite = "ccompiler.conv_add_relu"} {
// CHECK-NEXT:   %c = relay.nn.conv2d(%FunctionVar_1.0, %FunctionVar_1.1)
// CHECK-NEXT:   %a = relay.add(%FunctionVar_1.2, %c)
// CHECK-NEXT:   %{{.*}} = relay.nn.relu(%a)
// CHECK-NEXT:   relay.return
// CHECK-NEXT: }
// CHECK-NEXT: %c2 = relay.fn(%FunctionVar_0.0 = %r : tensor<1x4x8x8xf32>, %FunctionVar_0.1 = %w : tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> attributes {PartitionedFromPattern = "nn.conv2d_", Composite = "ccompiler.conv_add_relu"} {
// CHECK:      %ba = relay.nn.bias_add(%c2, %cb)
// CHECK-NEXT: %d = relay.nn.dense(%v, %dw)

// BIAS:       %r = relay.fn(%FunctionVar_1.0 = %x : tensor<1x4x8x8xf32>, %FunctionVar_1.1 = %w : tensor<4x4x3x3xf32>, %FunctionVar_1.2 = %b : tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32> attributes {PartitionedFromPattern = "nn.conv2d_add_nn.relu_", Composite = "ccompiler.conv2d_bias_relu"}
// BIAS:       %ba = relay.fn(%FunctionVar_0.0 = %r : tensor<1x4x8x8xf32>, %FunctionVar_0.1 = %w : tensor<4x4x3x3xf32>, %FunctionVar_0.2 = %cb : tensor<4xf32>) -> tensor<1x4x8x8xf32> attributes {PartitionedFromPattern = "nn.conv2d_nn.bias_add_", Composite = "ccompiler.conv2d_bias_relu"}

// DENSE-NOT:  relay.fn(%FunctionVar{{.*}} = %x
// DENSE:      %g = relay.fn(%FunctionVar_0.0 = %v : tensor<2x4xf32>, %FunctionVar_0.1 = %dw : tensor<4x4xf32>, %FunctionVar_0.2 = %cb : tensor<4xf32>) -> tensor<2x4xf32> attributes {PartitionedFromPattern = "nn.dense_nn.bias_add_relax.nn.gelu_", Composite = "ccompiler.dense_bias_act"}

// BACK:       %c = relay.nn.conv2d(%x, %w)
// BACK-NEXT:  %a = relay.add(%b, %c)
// BACK-NEXT:  %r = relay.nn.relu(%a)
// BACK-NEXT:  %c2 = relay.nn.conv2d(%r, %w)
// BACK-NEXT:  %ba = relay.nn.bias_add(%c2, %cb)
// BACK-NEXT:  %d = relay.nn.dense(%v, %dw)
// BACK-NOT:   relay.fn
