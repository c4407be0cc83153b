// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One case per verification error of the relay dialect, grouped by op: every
// message of the verify_ methods in relay_xdsl/dialects/relay/ (ops.py,
// structure.py, syntax.py), and the checks xDSL derives from the op definitions
// (operand, result and attribute constraints, traits, region shape). The "(Cn)"
// tags are the constraints of docs/dialect.md. Each case checks the message
// (the first line xdsl-opt prints for a failing chunk) and, where xDSL attaches
// it to an op, that it is the offending op. Parse errors are in
// invalid_syntax.mlir.

// ===== Operator ops (relay.add, relay.nn.conv2d, ...): the shared verifier =====

// (C1) the argument count is the operator's arity.
// CHECK: {{^}}'nn.conv2d' expects 2 argument(s), got 1{{$}}
// CHECK: %r = "relay.nn.conv2d"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'nn.conv2d' expects 2 argument(s), got 1{{$}}
func.func @arity(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %r = relay.nn.conv2d(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// (C1) zeros and ones take no argument.
// CHECK: {{^}}'zeros' expects 0 argument(s), got 1{{$}}
// CHECK: %r = "relay.zeros"(%x) {shape = array<i32: 2>} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'zeros' expects 0 argument(s), got 1{{$}}
func.func @arity_zero(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.zeros(%x) {shape = array<i32: 2>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// (C2) every argument is a tensor or a tuple of tensors.
// CHECK: {{^}}argument #1 must be a tensor or a tuple of tensors, got i32{{$}}
// CHECK: %r = "relay.add"(%x, %y) : (tensor<4xf32>, i32) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: argument #1 must be a tensor or a tuple of tensors, got i32{{$}}
func.func @argument_type(%x: tensor<4xf32>, %y: i32) -> tensor<4xf32> {
  %r = relay.add(%x, %y) : (tensor<4xf32>, i32) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C2) ... recursively: a tuple with a memref field is not a Relay type.
// CHECK: {{^}}argument #0 must be a tensor or a tuple of tensors, got tuple<tensor<4xf32>, memref<4xf32>>{{$}}
// CHECK: %r = "relay.concatenate"(%x) : (tuple<tensor<4xf32>, memref<4xf32>>) -> tensor<8xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: argument #0 must be a tensor or a tuple of tensors, got tuple<tensor<4xf32>, memref<4xf32>>{{$}}
func.func @argument_tuple_type(%x: tuple<tensor<4xf32>, memref<4xf32>>) -> tensor<8xf32> {
  %r = relay.concatenate(%x) : (tuple<tensor<4xf32>, memref<4xf32>>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

// (C3) the result is a tensor or a tuple of tensors.
// CHECK: {{^}}result must be a tensor or a tuple of tensors, got f32{{$}}
// CHECK: %r = "relay.nn.relu"(%x) : (tensor<4xf32>) -> f32
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: result must be a tensor or a tuple of tensors, got f32{{$}}
func.func @result_type(%x: tensor<4xf32>) {
  %r = relay.nn.relu(%x) : (tensor<4xf32>) -> f32
  func.return
}

// -----

// (C8) concatenate takes one tuple argument.
// CHECK: {{^}}'concatenate' takes a single tuple argument{{$}}
// CHECK: %r = "relay.concatenate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'concatenate' takes a single tuple argument{{$}}
func.func @tuple_input(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.concatenate(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C8) so does stack.
// CHECK: {{^}}'stack' takes a single tuple argument{{$}}
// CHECK: %r = "relay.stack"(%x) : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'stack' takes a single tuple argument{{$}}
func.func @tuple_input_stack(%x: tensor<4xf32>) -> tensor<1x4xf32> {
  %r = relay.stack(%x) : (tensor<4xf32>) -> tensor<1x4xf32>
  func.return %r : tensor<1x4xf32>
}

// -----

// (C4) batch_norm returns a tuple.
// CHECK: {{^}}'nn.batch_norm' returns a tuple, got tensor<1x4xf32>{{$}}
// CHECK: %r = "relay.nn.batch_norm"(%x, %g, %g, %g, %g) : (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'nn.batch_norm' returns a tuple, got tensor<1x4xf32>{{$}}
func.func @returns_tuple(%x: tensor<1x4xf32>, %g: tensor<4xf32>) -> tensor<1x4xf32> {
  %r = relay.nn.batch_norm(%x, %g, %g, %g, %g) : (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  func.return %r : tensor<1x4xf32>
}

// -----

// (C4) add returns a tensor.
// CHECK: {{^}}'add' returns a tensor, got tuple<tensor<4xf32>>{{$}}
// CHECK: %r = "relay.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'add' returns a tensor, got tuple<tensor<4xf32>>{{$}}
func.func @returns_tensor(%x: tensor<4xf32>) -> tuple<tensor<4xf32>> {
  %r = relay.add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>>
  func.return %r : tuple<tensor<4xf32>>
}

// -----

// (C5) every attribute is a field of the operator's attrs struct.
// CHECK: {{^}}'nn.conv2d' has no attribute 'stride' (valid: strides, padding, dilation, groups, channels, kernel_size, data_layout, kernel_layout, out_layout, out_dtype){{$}}
// CHECK: %r = "relay.nn.conv2d"(%x, %w) {stride = array<i32: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'nn.conv2d' has no attribute 'stride' (valid: strides, padding, dilation, groups, channels, kernel_size, data_layout, kernel_layout, out_layout, out_dtype){{$}}
func.func @unknown_attribute(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %r = relay.nn.conv2d(%x, %w) {stride = array<i32: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return %r : tensor<1x4x3x3xf32>
}

// -----

// (C5) an operator without attributes.
// CHECK: {{^}}'nn.relu' has no attribute 'alpha' (valid: none){{$}}
// CHECK: %r = "relay.nn.relu"(%x) {alpha = 1.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'nn.relu' has no attribute 'alpha' (valid: none){{$}}
func.func @unknown_attribute_none(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.nn.relu(%x) {alpha = 1.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C7) None (unit) only for fields whose TVM default is None.
// CHECK: {{^}}attribute 'strides' of 'nn.conv2d' cannot be None{{$}}
// CHECK: %r = "relay.nn.conv2d"(%x, %w) {strides} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'strides' of 'nn.conv2d' cannot be None{{$}}
func.func @none_not_allowed(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %r = relay.nn.conv2d(%x, %w) {strides} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// (C6) kind int: not a float...
// CHECK: {{^}}attribute 'groups' of 'nn.conv2d' expects int, got 1.000000e+00 : f32{{$}}
// CHECK: %r = "relay.nn.conv2d"(%x, %w) {groups = 1.000000e+00 : f32} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'groups' of 'nn.conv2d' expects int, got 1.000000e+00 : f32{{$}}
func.func @kind_int(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %r = relay.nn.conv2d(%x, %w) {groups = 1.000000e+00 : f32} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// (C6) ... nor a bool.
// CHECK: {{^}}attribute 'groups' of 'nn.conv2d' expects int, got true{{$}}
// CHECK: %r = "relay.nn.conv2d"(%x, %w) {groups = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'groups' of 'nn.conv2d' expects int, got true{{$}}
func.func @kind_int_bool(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %r = relay.nn.conv2d(%x, %w) {groups = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// (C6) kind float.
// CHECK: {{^}}attribute 'alpha' of 'nn.leaky_relu' expects float, got "0.1"{{$}}
// CHECK: %r = "relay.nn.leaky_relu"(%x) {alpha = "0.1"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'alpha' of 'nn.leaky_relu' expects float, got "0.1"{{$}}
func.func @kind_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.nn.leaky_relu(%x) {alpha = "0.1"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C6) kind bool.
// CHECK: {{^}}attribute 'keepdims' of 'sum' expects bool, got "false"{{$}}
// CHECK: %r = "relay.sum"(%x) {axis = array<i32: 1>, keepdims = "false"} : (tensor<4x4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'keepdims' of 'sum' expects bool, got "false"{{$}}
func.func @kind_bool(%x: tensor<4x4xf32>) -> tensor<4xf32> {
  %r = relay.sum(%x) {axis = array<i32: 1>, keepdims = "false"} : (tensor<4x4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C6) kind str.
// CHECK: {{^}}attribute 'layout' of 'nn.max_pool2d' expects str, got 1 : i32{{$}}
// CHECK: %r = "relay.nn.max_pool2d"(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, layout = 1 : i32} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'layout' of 'nn.max_pool2d' expects str, got 1 : i32{{$}}
func.func @kind_str(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, layout = 1 : i32} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  func.return %r : tensor<1x3x4x4xf32>
}

// -----

// (C6) kind dtype: a string such as "float16", not an MLIR type.
// CHECK: {{^}}attribute 'dtype' of 'cast' expects dtype, got f16{{$}}
// CHECK: %r = "relay.cast"(%x) {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'dtype' of 'cast' expects dtype, got f16{{$}}
func.func @kind_dtype(%x: tensor<4xf32>) -> tensor<4xf16> {
  %r = relay.cast(%x) {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
  func.return %r : tensor<4xf16>
}

// -----

// (C6) kind ints: not a float array...
// CHECK: {{^}}attribute 'newshape' of 'reshape' expects ints, got array<f32: 6.000000e+00>{{$}}
// CHECK: %r = "relay.reshape"(%x) {newshape = array<f32: 6.000000e+00>} : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'newshape' of 'reshape' expects ints, got array<f32: 6.000000e+00>{{$}}
func.func @kind_ints(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %r = relay.reshape(%x) {newshape = array<f32: 6.0>} : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return %r : tensor<6xf32>
}

// -----

// (C6) ... nor a scalar.
// CHECK: {{^}}attribute 'axes' of 'transpose' expects ints, got 1 : i32{{$}}
// CHECK: %r = "relay.transpose"(%x) {axes = 1 : i32} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'axes' of 'transpose' expects ints, got 1 : i32{{$}}
func.func @kind_ints_scalar(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = relay.transpose(%x) {axes = 1 : i32} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

// (C6) kind floats.
// CHECK: {{^}}attribute 'roi' of 'image.resize2d' expects floats, got ["a", "b"]{{$}}
// CHECK: %r = "relay.image.resize2d"(%x) {size = array<i32: 16, 16>, roi = ["a", "b"]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'roi' of 'image.resize2d' expects floats, got ["a", "b"]{{$}}
func.func @kind_floats(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32> {
  %r = relay.image.resize2d(%x) {size = array<i32: 16, 16>, roi = ["a", "b"]} : (tensor<1x3x8x8xf32>) -> tensor<1x3x16x16xf32>
  func.return %r : tensor<1x3x16x16xf32>
}

// -----

// ===== relay.op =====

// (C2) the operator name is not empty.
// CHECK: {{^}}'relay.op' needs a non-empty op_name{{$}}
// CHECK: %r = "relay.op"(%x) {op_name = ""} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.op' needs a non-empty op_name{{$}}
func.func @op_empty_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.op ""(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C3) every argument is a tensor or a tuple of tensors.
// CHECK: {{^}}argument #0 must be a tensor or a tuple of tensors, got i32{{$}}
// CHECK: %r = "relay.op"(%x) {op_name = "nn.my_op"} : (i32) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: argument #0 must be a tensor or a tuple of tensors, got i32{{$}}
func.func @op_argument_type(%x: i32) -> tensor<4xf32> {
  %r = relay.op "nn.my_op"(%x) : (i32) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C4) the result is a tensor or a tuple of tensors.
// CHECK: {{^}}result must be a tensor or a tuple of tensors, got index{{$}}
// CHECK: %r = "relay.op"(%x) {op_name = "nn.my_op"} : (tensor<4xf32>) -> index
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: result must be a tensor or a tuple of tensors, got index{{$}}
func.func @op_result_type(%x: tensor<4xf32>) -> index {
  %r = relay.op "nn.my_op"(%x) : (tensor<4xf32>) -> index
  func.return %r : index
}

// -----

// (C1) op_name is required (generic form)...
// CHECK: {{^}}attribute 'op_name' expected in operation 'relay.op'{{$}}
// CHECK: %r = "relay.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: attribute 'op_name' expected in operation 'relay.op'{{$}}
func.func @op_missing_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "relay.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C1) ... and is a string.
// CHECK: {{^}}3 : i32 should be of base attribute string{{$}}
// CHECK: %r = "relay.op"(%x) {op_name = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 3 : i32 should be of base attribute string{{$}}
func.func @op_name_not_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "relay.op"(%x) {op_name = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// ===== relay.constant =====

// (C1) not both value and meta_index...
// CHECK: {{^}}'relay.constant' needs exactly one of 'value' or 'meta_index'{{$}}
// CHECK: %c = "relay.constant"() {value = dense<1.000000e+00> : tensor<f32>, meta_index = 0 : i64} : () -> tensor<f32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.constant' needs exactly one of 'value' or 'meta_index'{{$}}
func.func @constant_both() -> tensor<f32> {
  %c = "relay.constant"() {value = dense<1.000000e+00> : tensor<f32>, meta_index = 0 : i64} : () -> tensor<f32>
  func.return %c : tensor<f32>
}

// -----

// (C1) ... and not neither.
// CHECK: {{^}}'relay.constant' needs exactly one of 'value' or 'meta_index'{{$}}
// CHECK: %c = "relay.constant"() : () -> tensor<f32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.constant' needs exactly one of 'value' or 'meta_index'{{$}}
func.func @constant_neither() -> tensor<f32> {
  %c = "relay.constant"() : () -> tensor<f32>
  func.return %c : tensor<f32>
}

// -----

// (C2) the value's type is the result type.
// CHECK: {{^}}value type tensor<2xf32> does not match result type tensor<3xf32>{{$}}
// CHECK: %c = "relay.constant"() {value = dense<1.000000e+00> : tensor<2xf32>} : () -> tensor<3xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: value type tensor<2xf32> does not match result type tensor<3xf32>{{$}}
func.func @constant_value_type() -> tensor<3xf32> {
  %c = "relay.constant"() {value = dense<1.000000e+00> : tensor<2xf32>} : () -> tensor<3xf32>
  func.return %c : tensor<3xf32>
}

// -----

// (C3) meta_index is non-negative.
// CHECK: {{^}}meta_index must be non-negative{{$}}
// CHECK: %c = "relay.constant"() {meta_index = -1 : i64} : () -> tensor<3xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: meta_index must be non-negative{{$}}
func.func @constant_negative_meta_index() -> tensor<3xf32> {
  %c = "relay.constant"() {meta_index = -1 : i64} : () -> tensor<3xf32>
  func.return %c : tensor<3xf32>
}

// -----

// (C4) value is dense elements or dense_resource.
// CHECK: {{^}}Unexpected attribute "abc"{{$}}
// CHECK: %c = "relay.constant"() {value = "abc"} : () -> tensor<3xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: Unexpected attribute "abc"{{$}}
func.func @constant_value_kind() -> tensor<3xf32> {
  %c = "relay.constant"() {value = "abc"} : () -> tensor<3xf32>
  func.return %c : tensor<3xf32>
}

// -----

// (C5) the result is a tensor.
// CHECK: {{^}}result 'result' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}tuple<tensor<3xf32>> should be of base attribute tensor{{$}}
// CHECK: %c = "relay.constant"() {meta_index = 0 : i64} : () -> tuple<tensor<3xf32>>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: result 'result' at position 0 does not verify:{{$}}
func.func @constant_result_type() -> tuple<tensor<3xf32>> {
  %c = "relay.constant"() {meta_index = 0 : i64} : () -> tuple<tensor<3xf32>>
  func.return %c : tuple<tensor<3xf32>>
}

// -----

// ===== relay.tuple =====

// (C1) the result is a tuple.
// CHECK: {{^}}result 'result' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}tensor<2xf32> should be of base attribute tuple{{$}}
// CHECK: %t = "relay.tuple"(%a) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: result 'result' at position 0 does not verify:{{$}}
func.func @tuple_result_type(%a: tensor<2xf32>) -> tensor<2xf32> {
  %t = "relay.tuple"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %t : tensor<2xf32>
}

// -----

// (C2) the result's field types are the operand types.
// CHECK: {{^}}result type tuple<tensor<2xf32>> does not match the field types{{$}}
// CHECK: %t = "relay.tuple"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tuple<tensor<2xf32>>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: result type tuple<tensor<2xf32>> does not match the field types{{$}}
func.func @tuple_field_types(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tuple<tensor<2xf32>> {
  %t = "relay.tuple"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tuple<tensor<2xf32>>
  func.return %t : tuple<tensor<2xf32>>
}

// -----

// ===== relay.tuple_get_item =====

// (C1) the operand is a tuple.
// CHECK: {{^}}operand 'tuple_value' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}tensor<2xf32> should be of base attribute tuple{{$}}
// CHECK: %x = "relay.tuple_get_item"(%t) {index = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: operand 'tuple_value' at position 0 does not verify:{{$}}
func.func @tuple_get_item_operand_type(%t: tensor<2xf32>) -> tensor<2xf32> {
  %x = "relay.tuple_get_item"(%t) {index = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %x : tensor<2xf32>
}

// -----

// (C2) the index is in range...
// CHECK: {{^}}index 2 is out of range for a tuple of 2 fields{{$}}
// CHECK: %x = "relay.tuple_get_item"(%t) {index = 2 : i64} : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<2xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: index 2 is out of range for a tuple of 2 fields{{$}}
func.func @tuple_get_item_index(%t: tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<2xf32> {
  %x = "relay.tuple_get_item"(%t) {index = 2 : i64} : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<2xf32>
  func.return %x : tensor<2xf32>
}

// -----

// (C2) ... and not negative.
// CHECK: {{^}}index -1 is out of range for a tuple of 2 fields{{$}}
// CHECK: %x = "relay.tuple_get_item"(%t) {index = -1 : i64} : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<2xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: index -1 is out of range for a tuple of 2 fields{{$}}
func.func @tuple_get_item_negative_index(%t: tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<2xf32> {
  %x = "relay.tuple_get_item"(%t) {index = -1 : i64} : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<2xf32>
  func.return %x : tensor<2xf32>
}

// -----

// (C3) the result type is the field's type.
// CHECK: {{^}}result type tensor<3xf32> does not match field 0 of type tensor<2xf32>{{$}}
// CHECK: %x = "relay.tuple_get_item"(%t) {index = 0 : i64} : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<3xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: result type tensor<3xf32> does not match field 0 of type tensor<2xf32>{{$}}
func.func @tuple_get_item_result_type(%t: tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<3xf32> {
  %x = "relay.tuple_get_item"(%t) {index = 0 : i64} : (tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<3xf32>
  func.return %x : tensor<3xf32>
}

// -----

// ===== relay.fn =====

// (C1) the body is one block ending in a terminator: not empty...
// CHECK: {{^}}Operation relay.fn contains empty block in single-block region that expects at least a terminator{{$}}
func.func @fn_empty_body(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> {
  }
  func.return %r : tensor<4xf32>
}

// -----

// (C1) ... and not ending in a non-terminator.
// CHECK: {{^}}Operation relay.negative terminates block in single-block region but is not a terminator{{$}}
func.func @fn_no_terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> {
    %n = relay.negative(%p) : (tensor<4xf32>) -> tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// (C2) as many arguments as parameters.
// CHECK: {{^}}'relay.fn' has 1 argument(s) but its body takes 2 parameter(s){{$}}
// CHECK: %r = "relay.fn"(%a) ({
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.fn' has 1 argument(s) but its body takes 2 parameter(s){{$}}
func.func @fn_parameter_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "relay.fn"(%a) ({
  ^bb0(%p: tensor<4xf32>, %q: tensor<4xf32>):
    "relay.return"(%p) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// (C3) each argument has its parameter's type.
// CHECK: {{^}}argument #0 has type tensor<4xf32> but parameter #0 has type tensor<3xf32>{{$}}
// CHECK: %r = "relay.fn"(%a) ({
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: argument #0 has type tensor<4xf32> but parameter #0 has type tensor<3xf32>{{$}}
func.func @fn_parameter_type(%a: tensor<4xf32>) -> tensor<3xf32> {
  %r = "relay.fn"(%a) ({
  ^bb0(%p: tensor<3xf32>):
    "relay.return"(%p) : (tensor<3xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// (C4) the terminator is relay.return, not another dialect's.
// CHECK: {{^}}'relay.fn' body must end with 'relay.return'{{$}}
// CHECK: %r = "relay.fn"(%a) ({
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.fn' body must end with 'relay.return'{{$}}
func.func @fn_foreign_terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> {
    "llvm.unreachable"() : () -> ()
  }
  func.return %r : tensor<4xf32>
}

// -----

// (C5) the returned value has the result type.
// CHECK: {{^}}returned type tensor<4xf32> does not match result type tensor<2x2xf32>{{$}}
// CHECK: %r = "relay.fn"(%a) ({
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: returned type tensor<4xf32> does not match result type tensor<2x2xf32>{{$}}
func.func @fn_return_type(%a: tensor<4xf32>) -> tensor<2x2xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<2x2xf32> {
    relay.return %p : tensor<4xf32>
  }
  func.return %r : tensor<2x2xf32>
}

// -----

// (C6) the body uses no value from outside (IsolatedFromAbove).
// CHECK: {{^}}Operation using value defined out of its IsolatedFromAbove parent: AddOp(%s = relay.add(%p, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>){{$}}
// CHECK: %r = "relay.fn"(%a) ({
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: Operation using value defined out of its IsolatedFromAbove parent: AddOp(%s = relay.add(%p, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>){{$}}
func.func @fn_isolated(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> {
    %s = relay.add(%p, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relay.return %s : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// (C7) relay.literal is an i64 integer.
// CHECK: {{^}}'relay.literal' must be an i64 integer, got "f"{{$}}
// CHECK: %r = "relay.fn"(%a) ({
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.literal' must be an i64 integer, got "f"{{$}}
func.func @fn_literal_number(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> attributes {relay.literal = "f"} {
    relay.return %p : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// (C8) relay.call_attrs names its attrs_type_key.
// CHECK: {{^}}'relay.call_attrs' must be a dictionary with a non-empty string 'attrs_type_key', got {name = "n"}{{$}}
// CHECK: %r = "relay.fn"(%a) ({
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.call_attrs' must be a dictionary with a non-empty string 'attrs_type_key', got {name = "n"}{{$}}
func.func @fn_call_attrs(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> attributes {relay.call_attrs = {name = "n"}} {
    relay.return %p : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// ===== relay.return =====

// (C1) only in a relay.fn or relay.function body or a relay.if branch.
// CHECK: {{^}}'relay.return' expects parent op 'relay.fn', 'relay.function' or 'relay.if'{{$}}
// CHECK: "relay.return"(%a) : (tensor<4xf32>) -> ()
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.return' expects parent op 'relay.fn', 'relay.function' or 'relay.if'{{$}}
func.func @return_outside_fn(%a: tensor<4xf32>) -> tensor<4xf32> {
  relay.return %a : tensor<4xf32>
}

// -----

// (C2) last in its block.
// CHECK: {{^}}'relay.return' must be the last operation in its parent block{{$}}
// CHECK: "relay.return"(%p) : (tensor<4xf32>) -> ()
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.return' must be the last operation in its parent block{{$}}
func.func @return_not_last(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.fn(%p = %a : tensor<4xf32>) -> tensor<4xf32> {
    relay.return %p : tensor<4xf32>
    %n = relay.negative(%p) : (tensor<4xf32>) -> tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// ===== relay.let =====

// (C1) the variable has the type of the bound value.
// CHECK: {{^}}'relay.let' binds a tensor<4xf32> to a variable of type tensor<2xf32>{{$}}
// CHECK: %y = "relay.let"(%x) : (tensor<4xf32>) -> tensor<2xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 'relay.let' binds a tensor<4xf32> to a variable of type tensor<2xf32>{{$}}
func.func @let_type(%x: tensor<4xf32>) -> tensor<2xf32> {
  %y = "relay.let"(%x) : (tensor<4xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}

// -----

// (C2) dataflow is a unit attribute.
// CHECK: {{^}}1 : i32 should be of base attribute unit{{$}}
// CHECK: %y = "relay.let"(%x) {dataflow = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: {{^ *\^+-+$}}
// CHECK-NEXT: | Operation does not verify: 1 : i32 should be of base attribute unit{{$}}
func.func @let_dataflow(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "relay.let"(%x) {dataflow = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
