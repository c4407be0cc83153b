// RUN: xdsl-opt %s -p 'relay-defuse{composite=conv_add}' | filecheck %s
// RUN: xdsl-opt %s -p 'relay-defuse{composite=conv_add,relu}' | filecheck %s --check-prefix=BOTH

// Only the listed composites are inlined, also when nested inside another one.
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "relu"} {
    %y = relay.nn.relu(%p) : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %y : tensor<4xf32>
  }
  %s = relay.fn(%x = %r : tensor<4xf32>, %z = %b : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "outer"} {
    %t = relay.fn(%u = %x : tensor<4xf32>, %v = %z : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "conv_add"} {
      %w = relay.add(%u, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      relay.return %w : tensor<4xf32>
    }
    relay.return %t : tensor<4xf32>
  }
  func.return %s : tensor<4xf32>
}

// CHECK:      %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "relu"} {
// CHECK:      relay.fn(%x = %r : tensor<4xf32>, %z = %b : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "outer"} {
// CHECK-NEXT:   %{{.*}} = relay.add(%x, %z)
// CHECK-NOT:  conv_add

// BOTH-NOT:   Composite = "relu"
// BOTH:       %[[Y:.*]] = relay.nn.relu(%a)
// BOTH-NEXT:  relay.fn(%x = %[[Y]] : tensor<4xf32>, %z = %b : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "outer"} {
// BOTH-NEXT:    %{{.*}} = relay.add(%x, %z)
