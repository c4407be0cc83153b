// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// broadcast_to: a reshape to the result's rank, then tosa.tile; a
// broadcast_to of a tensor to its own shape is nothing.

func.func @broadcast_to(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %r = relay.broadcast_to(%x) {shape = array<i32: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}

func.func @same_shape(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = relay.broadcast_to(%x) {shape = array<i32: 3, 4>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "broadcast_to"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<3x1xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const_shape"() {values = dense<[1, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V2:%.*]] = "tosa.reshape"([[V0]], [[V1]]) : (tensor<3x1xf32>, !tosa.shape<3>) -> tensor<1x3x1xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.const_shape"() {values = dense<[2, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V4:%.*]] = "tosa.tile"([[V2]], [[V3]]) : (tensor<1x3x1xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
// CHECK-NEXT: "func.return"([[V4]]) : (tensor<2x3x4xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "same_shape"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<3x4xf32>):
// CHECK-NEXT: "func.return"([[V0]]) : (tensor<3x4xf32>) -> ()
