// RUN: xdsl-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Errors of the relay dialect's custom syntax: every error the parse methods of
// relay_xdsl/dialects/relay/ (ops.py, structure.py, syntax.py) raise, and the
// xDSL parser errors they run into. Each case checks the position line, the
// echoed source line, and the message. Verification errors are in invalid.mlir.

// ===== Operator ops and relay.op: `(args) {attrs} : (arg types) -> result type` =====

// One result type: not two...
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>){{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected exactly one result type{{$}}
func.func @two_results(%x: tensor<4xf32>) {
  %r = relay.add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return
}

// -----

// ... nor none.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.nn.relu(%x) : (tensor<4xf32>) -> (){{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected exactly one result type{{$}}
func.func @no_result(%x: tensor<4xf32>) {
  %r = relay.nn.relu(%x) : (tensor<4xf32>) -> ()
  func.return
}

// -----

// relay.op too.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.op "nn.my_op"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>){{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected exactly one result type{{$}}
func.func @op_two_results(%x: tensor<4xf32>) {
  %r = relay.op "nn.my_op"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return
}

// -----

// The operator name of relay.op is a string literal.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.op nn.my_op(%x) : (tensor<4xf32>) -> tensor<4xf32>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}string literal expected{{$}}
func.func @op_name(%x: tensor<4xf32>) {
  %r = relay.op nn.my_op(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// As many argument types as arguments.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.add(%x, %x) : (tensor<4xf32>) -> tensor<4xf32>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected 1 operand types but had 2{{$}}
func.func @argument_count(%x: tensor<4xf32>) {
  %r = relay.add(%x, %x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// The argument types are the arguments' types.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.nn.relu(%x) : (tensor<8xf32>) -> tensor<8xf32>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}operand is used with type tensor<8xf32>, but has been previously used or defined with type tensor<4xf32>{{$}}
func.func @argument_type(%x: tensor<4xf32>) {
  %r = relay.nn.relu(%x) : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

// ===== relay.constant =====

// The value is a dense or dense_resource elements attribute.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %c = relay.constant 1.000000e+00 : f32{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected a dense or dense_resource value{{$}}
func.func @constant_value() {
  %c = relay.constant 1.000000e+00 : f32
  func.return
}

// -----

// meta[i] takes a non-negative index.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %c = relay.constant meta[-1] : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}Expected integer literal{{$}}
func.func @constant_meta_index() {
  %c = relay.constant meta[-1] : tensor<4xf32>
  func.return
}

// -----

// ===== relay.tuple =====

// The type is a tuple type...
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %t = relay.tuple(%x) : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected a tuple type{{$}}
func.func @tuple_type(%x: tensor<4xf32>) {
  %t = relay.tuple(%x) : tensor<4xf32>
  func.return
}

// -----

// ... with one field per operand.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %t = relay.tuple(%x, %x) : tuple<tensor<4xf32>>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected 1 operand types but had 2{{$}}
func.func @tuple_field_count(%x: tensor<4xf32>) {
  %t = relay.tuple(%x, %x) : tuple<tensor<4xf32>>
  func.return
}

// -----

// ===== relay.tuple_get_item =====

// The type is the operand's tuple type...
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.tuple_get_item %x[0] : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}expected a tuple type{{$}}
func.func @tuple_get_item_type(%x: tensor<4xf32>) {
  %r = relay.tuple_get_item %x[0] : tensor<4xf32>
  func.return
}

// -----

// ... and the index is in range...
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.tuple_get_item %t[2] : tuple<tensor<4xf32>, tensor<2xf32>>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}index 2 is out of range{{$}}
func.func @tuple_get_item_index(%t: tuple<tensor<4xf32>, tensor<2xf32>>) {
  %r = relay.tuple_get_item %t[2] : tuple<tensor<4xf32>, tensor<2xf32>>
  func.return
}

// -----

// ... and not negative.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.tuple_get_item %t[-1] : tuple<tensor<4xf32>, tensor<2xf32>>{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}Expected integer literal{{$}}
func.func @tuple_get_item_negative_index(%t: tuple<tensor<4xf32>, tensor<2xf32>>) {
  %r = relay.tuple_get_item %t[-1] : tuple<tensor<4xf32>, tensor<2xf32>>
  func.return
}

// -----

// ===== relay.fn =====

// Each parameter is bound to an argument: `%param = %arg : type`.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.fn(%p : tensor<4xf32>) -> tensor<4xf32> {{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}Expected '='{{$}}
func.func @fn_binding(%x: tensor<4xf32>) {
  %r = relay.fn(%p : tensor<4xf32>) -> tensor<4xf32> {
    relay.return %p : tensor<4xf32>
  }
  func.return
}

// -----

// The result type follows `->`.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.fn(%p = %x : tensor<4xf32>) {{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}Expected '->'{{$}}
func.func @fn_result_type(%x: tensor<4xf32>) {
  %r = relay.fn(%p = %x : tensor<4xf32>) {
    relay.return %p : tensor<4xf32>
  }
  func.return
}

// -----

// The attribute dictionary is introduced by `attributes`.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK-NEXT: %r = relay.fn(%p = %x : tensor<4xf32>) -> tensor<4xf32> {Primitive = 1 : i32} {{{$}}
// CHECK-NEXT: {{^ *\^+$}}
// CHECK-NEXT: {{^ *}}Operation Primitive is not registered{{$}}
func.func @fn_attributes(%x: tensor<4xf32>) {
  %r = relay.fn(%p = %x : tensor<4xf32>) -> tensor<4xf32> {Primitive = 1 : i32} {
    relay.return %p : tensor<4xf32>
  }
  func.return
}

// -----

// A field given inline may not be restated in the trailing dictionary.
// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK: 'meta_index' is given inline and may not be repeated in the attribute dictionary
func.func @constant_restated() -> tensor<4xf32> {
  %c = relay.constant meta[2] : tensor<4xf32> {meta_index = 3 : i64}
  func.return %c : tensor<4xf32>
}

// -----

// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK: 'index' is given inline and may not be repeated in the attribute dictionary
func.func @get_item_restated(%t: tuple<tensor<4xf32>, tensor<2xf32>>) -> tensor<4xf32> {
  %x = relay.tuple_get_item %t[0] {index = 1 : i64} : tuple<tensor<4xf32>, tensor<2xf32>>
  func.return %x : tensor<4xf32>
}

// -----

// CHECK: invalid_syntax.mlir:{{[0-9]+:[0-9]+$}}
// CHECK: 'op_name' is given inline and may not be repeated in the attribute dictionary
func.func @op_name_restated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.op "a"(%x) {op_name = "b"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
