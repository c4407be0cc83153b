// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One case per verification error of the ops beyond dataflow (control.py,
// closures.py, references.py); the "(Cn)" tags are the constraints of
// docs/dialect.md. Each case checks the message xdsl-opt prints first.

// ===== relay.if =====

// (C1) the condition is a boolean scalar.
// CHECK: {{^}}the condition of 'relay.if' must be a boolean scalar, got tensor<f32>{{$}}
func.func @if_condition(%c: tensor<f32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.if %c : tensor<f32> -> tensor<4xf32> {
    relay.return %x : tensor<4xf32>
  } else {
    relay.return %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// (C3) each branch returns the result type.
// CHECK: {{^}}the else branch returns tensor<f32> but the result type is tensor<4xf32>{{$}}
func.func @if_branch_type(%c: tensor<i1>, %x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    relay.return %x : tensor<4xf32>
  } else {
    relay.return %s : tensor<f32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// ===== relay.function =====

// (C5) the body returns the declared result type.
// CHECK: {{^}}returned type tensor<f32> does not match the declared result type tensor<4xf32>{{$}}
func.func @function_result(%s: tensor<f32>) {
  %f = relay.function (%y: tensor<4xf32>) -> tensor<4xf32> {
    relay.return %s : tensor<f32>
  }
  func.return
}

// -----

// (C3) a self argument has the function's type.
// CHECK: {{^}}the self argument of a recursive 'relay.function' has type tensor<f32>, expected (tensor<4xf32>) -> tensor<4xf32>{{$}}
func.func @function_self(%s: tensor<f32>) {
  %f = "relay.function"() ({
  ^bb0(%self: tensor<f32>, %y: tensor<4xf32>):
    relay.return %y : tensor<4xf32>
  }) : () -> ((tensor<4xf32>) -> tensor<4xf32>)
  func.return
}

// -----

// (C6) type_params lists type variables.
// CHECK: {{^}}'type_params' must be an array of !relay.type_var{{$}}
func.func @function_type_params() {
  %f = relay.function (%y: tensor<4xf32>) -> tensor<4xf32> attributes {type_params = ["A"]} {
    relay.return %y : tensor<4xf32>
  }
  func.return
}

// -----

// ===== relay.call =====

// (C1) the callee is a function.
// CHECK: {{^}}'relay.call' calls a value of type tensor<4xf32>, not a function{{$}}
func.func @call_not_function(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.call %x(%x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C2) as many arguments as parameters.
// CHECK: {{^}}the callee takes 1 argument(s) but the call passes 2{{$}}
func.func @call_arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f = relay.function (%y: tensor<4xf32>) -> tensor<4xf32> {
    relay.return %y : tensor<4xf32>
  }
  %r = relay.call %f(%x, %x) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C3) each argument fits its parameter.
// CHECK: {{^}}argument #0 has type tensor<f32> but the callee expects tensor<4xf32>{{$}}
func.func @call_argument(%s: tensor<f32>) -> tensor<4xf32> {
  %f = relay.function (%y: tensor<4xf32>) -> tensor<4xf32> {
    relay.return %y : tensor<4xf32>
  }
  %r = relay.call %f(%s) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// ===== relay.ref_read and relay.ref_write =====

// (C1) the operand is a reference.
// CHECK: {{^}}expected a reference (!relay.ref<T>), got tensor<4xf32>{{$}}
func.func @ref_read_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  %v = "relay.ref_read"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %v : tensor<4xf32>
}

// -----

// (C2) the value fits the reference.
// CHECK: {{^}}cannot write a tensor<f32> to a !relay.ref<tensor<4xf32>>{{$}}
func.func @ref_write_type(%x: tensor<4xf32>, %s: tensor<f32>) {
  %r = relay.ref %x : tensor<4xf32>
  %u = relay.ref_write %r, %s : !relay.ref<tensor<4xf32>>, tensor<f32>
  func.return
}
