// floor_divide (division.py): floats divide exactly (arith.divf in a
// linalg.generic, broadcasting by a constant index) before tosa.floor, so that
// an exact quotient is not rounded below an integer by a reciprocal.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

func.func @floor_divide(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %r = relay.floor_divide(%a, %b) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// CHECK-LABEL: sym_name = "floor_divide"
// CHECK-NEXT:  ^bb0(%[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<4xf32>):
// CHECK:       %[[B2:.*]] = "tosa.reshape"(%[[B]], %{{.*}}) : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
// CHECK-NEXT:  %[[EMPTY:.*]] = "tensor.empty"() : () -> tensor<2x4xf32>
// CHECK-NEXT:  %[[Q:.*]] = "linalg.generic"(%[[A]], %[[B2]], %[[EMPTY]]) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>]
// CHECK-NEXT:  ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:  %[[D:.*]] = "arith.divf"(%[[X]], %[[Y]])
// CHECK-NEXT:  "linalg.yield"(%[[D]])
// CHECK:       %[[F:.*]] = "tosa.floor"(%[[Q]]) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:  "func.return"(%[[F]])
