// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// Slices are one tosa.slice; a negative stride reverses the axis first; a
// stride s > 1 keeps the first column of the axis reshaped to (n, s), padded
// at the end where the data is shorter.

func.func @contiguous(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %r = relay.strided_slice(%x) {begin = array<i32: 1, 2>, end = array<i32: 3, 5>, strides = array<i32: 1, 1>}
    : (tensor<4x6xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @strided_reversed(%x: tensor<4x7xf32>) -> tensor<4x3xf32> {
  %r = relay.strided_slice(%x) {begin = array<i32: 6>, end = array<i32: -100>, strides = array<i32: -3>, axes = array<i32: 1>}
    : (tensor<4x7xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

func.func @relax_strided_slice(%x: tensor<4x7xf32>) -> tensor<4x3xf32> {
  %r = relay.relax.strided_slice(%x) {axes = array<i32: 1>, begin = array<i32: 1>, end = array<i32: 7>, strides = array<i32: 2>}
    : (tensor<4x7xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "contiguous"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<4x6xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const_shape"() {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V3:%.*]] = "tosa.slice"([[V0]], [[V1]], [[V2]]) : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"([[V3]]) : (tensor<2x3xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "strided_reversed"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<4x7xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.reverse"([[V0]]) {axis = 1 : i32} : (tensor<4x7xf32>) -> tensor<4x7xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[4, 7, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V3:%.*]] = "tosa.reshape"([[V1]], [[V2]]) : (tensor<4x7xf32>, !tosa.shape<3>) -> tensor<4x7x1xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.const_shape"() {values = dense<[0, 0, 0, 2, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
// CHECK-NEXT: [[V6:%.*]] = "tosa.pad"([[V3]], [[V5]], [[V4]]) : (tensor<4x7x1xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<4x9x1xf32>
// CHECK-NEXT: [[V7:%.*]] = "tosa.const_shape"() {values = dense<[4, 3, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
// CHECK-NEXT: [[V8:%.*]] = "tosa.reshape"([[V6]], [[V7]]) : (tensor<4x9x1xf32>, !tosa.shape<4>) -> tensor<4x3x3x1xf32>
// CHECK-NEXT: [[V9:%.*]] = "tosa.const_shape"() {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
// CHECK-NEXT: [[V10:%.*]] = "tosa.const_shape"() {values = dense<[4, 3, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
// CHECK-NEXT: [[V11:%.*]] = "tosa.slice"([[V8]], [[V9]], [[V10]]) : (tensor<4x3x3x1xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<4x3x1x1xf32>
// CHECK-NEXT: [[V12:%.*]] = "tosa.const_shape"() {values = dense<[4, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V13:%.*]] = "tosa.reshape"([[V11]], [[V12]]) : (tensor<4x3x1x1xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
// CHECK-NEXT: "func.return"([[V13]]) : (tensor<4x3xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "relax_strided_slice"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<4x7xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const_shape"() {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V3:%.*]] = "tosa.slice"([[V0]], [[V1]], [[V2]]) : (tensor<4x7xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x6xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.const_shape"() {values = dense<[4, 6, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V5:%.*]] = "tosa.reshape"([[V3]], [[V4]]) : (tensor<4x6xf32>, !tosa.shape<3>) -> tensor<4x6x1xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.const_shape"() {values = dense<[4, 3, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
// CHECK-NEXT: [[V7:%.*]] = "tosa.reshape"([[V5]], [[V6]]) : (tensor<4x6x1xf32>, !tosa.shape<4>) -> tensor<4x3x2x1xf32>
// CHECK-NEXT: [[V8:%.*]] = "tosa.const_shape"() {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
// CHECK-NEXT: [[V9:%.*]] = "tosa.const_shape"() {values = dense<[4, 3, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
// CHECK-NEXT: [[V10:%.*]] = "tosa.slice"([[V7]], [[V8]], [[V9]]) : (tensor<4x3x2x1xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<4x3x1x1xf32>
// CHECK-NEXT: [[V11:%.*]] = "tosa.const_shape"() {values = dense<[4, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V12:%.*]] = "tosa.reshape"([[V10]], [[V11]]) : (tensor<4x3x1x1xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
// CHECK-NEXT: "func.return"([[V12]]) : (tensor<4x3xf32>) -> ()
