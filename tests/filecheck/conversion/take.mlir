// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// take: known indices that count up by one are a tosa.slice (vit's class
// token: index 0 of axis 1, the axis then reshaped away); other indices are a
// tosa.gather of the data as (before, axis, after), the i32 indices repeated
// for each row; indices known at run time are cast to i32 and clamped.

func.func @class_token(%x: tensor<1x5x8xf32>) -> tensor<1x8xf32> {
  %i = relay.constant dense<0> : tensor<i64>
  %r = relay.take(%x, %i) {axis = 1 : i32, mode = "fast"} : (tensor<1x5x8xf32>, tensor<i64>) -> tensor<1x8xf32>
  func.return %r : tensor<1x8xf32>
}

func.func @known_gather(%x: tensor<2x5x3xf32>) -> tensor<2x2x3xf32> {
  %i = relay.constant dense<[4, -5]> : tensor<2xi64>
  %r = relay.take(%x, %i) {axis = 1 : i32, mode = "wrap"} : (tensor<2x5x3xf32>, tensor<2xi64>) -> tensor<2x2x3xf32>
  func.return %r : tensor<2x2x3xf32>
}

func.func @run_time_indices(%x: tensor<5x3xf32>, %i: tensor<4xi32>) -> tensor<4x3xf32> {
  %r = relay.take(%x, %i) {axis = 0 : i32} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "class_token"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<1x5x8xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const_shape"() {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V3:%.*]] = "tosa.slice"([[V0]], [[V1]], [[V2]]) : (tensor<1x5x8xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x8xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.const_shape"() {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V5:%.*]] = "tosa.reshape"([[V3]], [[V4]]) : (tensor<1x1x8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
// CHECK-NEXT: "func.return"([[V5]]) : (tensor<1x8xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "known_gather"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x5x3xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const"() {values = dense<[[4, 0], [4, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.gather"([[V0]], [[V1]]) : (tensor<2x5x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
// CHECK-NEXT: "func.return"([[V2]]) : (tensor<2x2x3xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "run_time_indices"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<5x3xf32>, [[V1:%.*]]: tensor<4xi32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[1, 5, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V3:%.*]] = "tosa.reshape"([[V0]], [[V2]]) : (tensor<5x3xf32>, !tosa.shape<3>) -> tensor<1x5x3xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.const_shape"() {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V5:%.*]] = "tosa.reshape"([[V1]], [[V4]]) : (tensor<4xi32>, !tosa.shape<2>) -> tensor<1x4xi32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.const"() {values = dense<0> : tensor<1x1xi32>} : () -> tensor<1x1xi32>
// CHECK-NEXT: [[V7:%.*]] = "tosa.maximum"([[V5]], [[V6]]) : (tensor<1x4xi32>, tensor<1x1xi32>) -> tensor<1x4xi32>
// CHECK-NEXT: [[V8:%.*]] = "tosa.const"() {values = dense<4> : tensor<1x1xi32>} : () -> tensor<1x1xi32>
// CHECK-NEXT: [[V9:%.*]] = "tosa.minimum"([[V7]], [[V8]]) : (tensor<1x4xi32>, tensor<1x1xi32>) -> tensor<1x4xi32>
// CHECK-NEXT: [[V10:%.*]] = "tosa.gather"([[V3]], [[V9]]) : (tensor<1x5x3xf32>, tensor<1x4xi32>) -> tensor<1x4x3xf32>
// CHECK-NEXT: [[V11:%.*]] = "tosa.const_shape"() {values = dense<[4, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V12:%.*]] = "tosa.reshape"([[V10]], [[V11]]) : (tensor<1x4x3xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
// CHECK-NEXT: "func.return"([[V12]]) : (tensor<4x3xf32>) -> ()
