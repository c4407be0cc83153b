// RUN: xdsl-opt %s -p relay-defuse --split-input-file | filecheck %s

// Two parameters with the same Relay name: binding is by SSA identity, so
// each use gets its own argument (TVM's name-based DefuseOps conflates them).
// CHECK-LABEL: func.func @duplicate_param_names
func.func @duplicate_param_names(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%x = %a : tensor<4xf32>, %x_1 = %b : tensor<4xf32>) -> tensor<4xf32> attributes {Primitive = 1 : i32} {
    %s = relay.subtract(%x, %x_1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relay.return %s : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-NEXT: %{{.*}} = relay.subtract(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: func.return

// -----

// One argument passed for two parameters.
// CHECK-LABEL: func.func @argument_twice
func.func @argument_twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>, %q = %a : tensor<4xf32>) -> tensor<4xf32> {
    %s = relay.multiply(%p, %q) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relay.return %s : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-NEXT: %{{.*}} = relay.multiply(%a, %a)
// CHECK-NEXT: func.return

// -----

// A body whose result is a tuple.
// CHECK-LABEL: func.func @tuple_body
func.func @tuple_body(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
    %e = relay.exp(%p) : (tensor<4xf32>) -> tensor<4xf32>
    %t = relay.tuple(%e, %p) : tuple<tensor<4xf32>, tensor<4xf32>>
    relay.return %t : tuple<tensor<4xf32>, tensor<4xf32>>
  }
  func.return %r : tuple<tensor<4xf32>, tensor<4xf32>>
}
// CHECK-NEXT: %[[E:.*]] = relay.exp(%a)
// CHECK-NEXT: %[[T:.*]] = relay.tuple(%[[E]], %a)
// CHECK-NEXT: func.return %[[T]]

// -----

// A body whose result is a tuple projection, and a use of the projection outside.
// CHECK-LABEL: func.func @get_item_body
func.func @get_item_body(%a: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %r = relay.fn(%x = %a : tensor<1x4x2x2xf32>, %p0 = %g : tensor<4xf32>, %p1 = %b : tensor<4xf32>, %p2 = %m : tensor<4xf32>, %p3 = %v : tensor<4xf32>) -> tensor<1x4x2x2xf32> {
    %bn = relay.nn.batch_norm(%x, %p0, %p1, %p2, %p3) : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
    %o = relay.tuple_get_item %bn[0] : tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
    relay.return %o : tensor<1x4x2x2xf32>
  }
  %s = relay.nn.relu(%r) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  func.return %s : tensor<1x4x2x2xf32>
}
// CHECK-NEXT: %[[BN:.*]] = relay.nn.batch_norm(%a, %g, %b, %m, %v)
// CHECK-NEXT: %[[O:.*]] = relay.tuple_get_item %[[BN]][0]
// CHECK-NEXT: %{{.*}} = relay.nn.relu(%[[O]])

// -----

// A let-bound result keeps its Relay name through inlining.
// CHECK-LABEL: func.func @let_body
func.func @let_body(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> {
    %y = relay.sigmoid(%p) : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %y : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-NEXT: %y = relay.sigmoid(%a)
// CHECK-NEXT: func.return %y

// -----

// The same literal called from two sites: each call site is its own relay.fn.
// CHECK-LABEL: func.func @two_call_sites
func.func @two_call_sites(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r1 = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "relu"} {
    %y = relay.nn.relu(%p) : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %y : tensor<4xf32>
  }
  %r2 = relay.fn(%p = %b : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "relu"} {
    %y = relay.nn.relu(%p) : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %y : tensor<4xf32>
  }
  %s = relay.add(%r1, %r2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %s : tensor<4xf32>
}
// CHECK-NEXT: %[[Y1:.*]] = relay.nn.relu(%a)
// CHECK-NEXT: %[[Y2:.*]] = relay.nn.relu(%b)
// CHECK-NEXT: %{{.*}} = relay.add(%[[Y1]], %[[Y2]])

// -----

// Nested functions are inlined at every depth; dead values stay (no DCE).
// CHECK-LABEL: func.func @nested
func.func @nested(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> attributes {Primitive = 1 : i32} {
    %unused = relay.exp(%p) : (tensor<4xf32>) -> tensor<4xf32>
    %inner = relay.fn(%q = %p : tensor<4xf32>) -> tensor<4xf32> attributes {Composite = "neg"} {
      %n = relay.negative(%q) : (tensor<4xf32>) -> tensor<4xf32>
      relay.return %n : tensor<4xf32>
    }
    relay.return %inner : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-NEXT: %{{.*}} = relay.exp(%a)
// CHECK-NEXT: %[[N:.*]] = relay.negative(%a)
// CHECK-NEXT: func.return %[[N]]
// CHECK-NOT: relay.fn
