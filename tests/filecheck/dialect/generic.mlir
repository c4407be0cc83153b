// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s

// Ops written in MLIR's generic form print in the relay dialect's custom form.

"func.func"() <{sym_name = "generic", function_type = (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<2xf32>)}> ({
^bb0(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>):
  %conv = "relay.nn.conv2d"(%x, %w) {strides = array<i32: 2, 2>, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  %sum = "relay.add"(%b, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %zeros = "relay.zeros"() {shape = array<i32: 4>, dtype = "float32"} : () -> tensor<4xf32>
  %custom = "relay.op"(%sum) {op_name = "nn.my_op", alpha = 5.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %dense = "relay.constant"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>
  %meta = "relay.constant"() {meta_index = 7 : i64} : () -> tensor<4xf32>
  %pair = "relay.tuple"(%sum, %meta) : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %second = "relay.tuple_get_item"(%pair) {index = 1 : i64} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %fn = "relay.fn"(%conv, %second) ({
  ^bb1(%p0: tensor<1x4x3x3xf32>, %p1: tensor<4xf32>):
    %relu = "relay.nn.relu"(%p0) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    "relay.return"(%relu) : (tensor<1x4x3x3xf32>) -> ()
  }) {Primitive = 1 : i32} : (tensor<1x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  "func.return"(%fn, %custom, %dense) : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<2xf32>) -> ()
}) : () -> ()

// CHECK-LABEL: func.func @generic(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<2xf32>) {
// CHECK-NEXT:    %conv = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, channels = 4 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT:    %sum = relay.add(%b, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %zeros = relay.zeros() {shape = array<i32: 4>, dtype = "float32"} : () -> tensor<4xf32>
// CHECK-NEXT:    %custom = relay.op "nn.my_op"(%sum) {alpha = 5.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %dense = relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %meta = relay.constant meta[7] : tensor<4xf32>
// CHECK-NEXT:    %pair = relay.tuple(%sum, %meta) : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:    %second = relay.tuple_get_item %pair[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:    %fn = relay.fn(%p0 = %conv : tensor<1x4x3x3xf32>, %p1 = %second : tensor<4xf32>) -> tensor<1x4x3x3xf32> attributes {Primitive = 1 : i32} {
// CHECK-NEXT:      %relu = relay.nn.relu(%p0) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT:      relay.return %relu : tensor<1x4x3x3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %fn, %custom, %dense : tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<2xf32>
// CHECK-NEXT:  }
