// nn.pad: a pad value known when compiling is tosa.pad's constant (on the data
// reshaped to at most three dimensions); edge, reflect and a pad value computed
// at run time concatenate what goes before and after; a negative width crops.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// CHECK-LABEL: sym_name = "pad_constant"
// CHECK:       %[[X:.*]] = "tosa.reshape"(%{{.*}}, %{{.*}}) : (tensor<1x3x4x4xf32>, !tosa.shape<3>) -> tensor<3x4x4xf32>
// CHECK-NEXT:  %[[V:.*]] = "tosa.const"() {values = dense<5.000000e-01> : tensor<1xf32>}
// CHECK-NEXT:  %[[P:.*]] = "tosa.const_shape"() {values = dense<[0, 0, 1, 2, 2, 1]> : tensor<6xindex>}
// CHECK-NEXT:  %[[R:.*]] = "tosa.pad"(%[[X]], %[[P]], %[[V]]) : {{.*}} -> tensor<3x7x7xf32>
// CHECK:       "tosa.reshape"(%[[R]], %{{.*}}) : {{.*}} -> tensor<1x3x7x7xf32>
func.func @pad_constant(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x7x7xf32> {
  %v = relay.constant dense<5.000000e-01> : tensor<f32>
  %r = relay.nn.pad(%x, %v) {pad_width = [[0, 0], [0, 0], [1, 2], [2, 1]]} : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x7x7xf32>
  func.return %r : tensor<1x3x7x7xf32>
}

// tosa.pad takes only a constant: a pad value computed at run time is tiled
// into the borders, which tosa.concat joins; the negative width is a slice.
// CHECK-LABEL: sym_name = "pad_runtime_value"
// CHECK:       ^bb0(%[[X:.*]]: tensor<2x3xf32>, %[[V:.*]]: tensor<f32>):
// CHECK:       %[[ONE:.*]] = "tosa.reshape"(%[[V]], %{{.*}}) : (tensor<f32>, !tosa.shape<2>) -> tensor<1x1xf32>
// CHECK:       %[[BEFORE:.*]] = "tosa.tile"(%[[ONE]], %{{.*}}) : {{.*}} -> tensor<1x3xf32>
// CHECK:       %[[ROWS:.*]] = "tosa.concat"(%[[BEFORE]], %[[X]]) {axis = 0 : i32} : {{.*}} -> tensor<3x3xf32>
// CHECK:       %[[AFTER:.*]] = "tosa.tile"(%[[ONE]], %{{.*}}) : {{.*}} -> tensor<3x2xf32>
// CHECK:       %[[COLUMNS:.*]] = "tosa.concat"(%[[ROWS]], %[[AFTER]]) {axis = 1 : i32} : {{.*}} -> tensor<3x5xf32>
// CHECK:       "tosa.slice"(%[[COLUMNS]], {{.*}}) : {{.*}} -> tensor<3x4xf32>
func.func @pad_runtime_value(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<3x4xf32> {
  %r = relay.nn.pad(%x, %v) {pad_width = [[1, 0], [-1, 2]]} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// reflect: the elements next to the border, in reverse order (one slice each).
// CHECK-LABEL: sym_name = "pad_reflect"
// CHECK:       ^bb0(%[[X:.*]]: tensor<5xf32>):
// CHECK-DAG:   %[[TWO:.*]] = "tosa.slice"(%[[X]], {{.*}}) : {{.*}} -> tensor<1xf32>
// CHECK-DAG:   %[[ONE:.*]] = "tosa.slice"(%[[X]], {{.*}}) : {{.*}} -> tensor<1xf32>
// CHECK:       %[[BEFORE:.*]] = "tosa.concat"(%[[TWO]], %[[ONE]]) {axis = 0 : i32} : {{.*}} -> tensor<2xf32>
// CHECK:       "tosa.concat"(%[[BEFORE]], %[[X]]) {axis = 0 : i32} : {{.*}} -> tensor<7xf32>
func.func @pad_reflect(%x: tensor<5xf32>) -> tensor<7xf32> {
  %v = relay.constant dense<0.000000e+00> : tensor<f32>
  %r = relay.nn.pad(%x, %v) {pad_width = [[2, 0]], pad_mode = "reflect"} : (tensor<5xf32>, tensor<f32>) -> tensor<7xf32>
  func.return %r : tensor<7xf32>
}
