// nn.conv2d with 1 < groups < channels. convert-relay-to-tosa slices the input
// and the weight into groups, convolves each and concatenates the results on
// channels; convert-relay-to-linalg writes one linalg.generic over all groups:
// the input padded by tosa.pad (of HWC: TOSA's pad takes three dimensions) and split into groups by a reshape (NHWGC), the
// weight [G, KH, KW, C/G, O/G], the output (NHWGO, zero-filled tensor.empty)
// reshaped back to NHWC.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s --check-prefix=TOSA
// RUN: xdsl-opt %s -p convert-relay-to-linalg --print-op-generic | filecheck %s --check-prefix=LINALG
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-linalg --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// TOSA-LABEL: sym_name = "grouped"
// TOSA:      %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x6x6x4xf32>
// TOSA:      %[[W:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>} : (tensor<6x2x3x3xf32>) -> tensor<6x3x3x2xf32>
// TOSA-NEXT: %[[ZERO:.*]] = "tosa.const_shape"() {values = dense<0> : tensor<4xindex>}
// TOSA-NEXT: %[[SIZE:.*]] = "tosa.const_shape"() {values = dense<[1, 6, 6, 2]> : tensor<4xindex>}
// TOSA-NEXT: %[[X0:.*]] = "tosa.slice"(%[[X]], %[[ZERO]], %[[SIZE]]) : {{.*}} -> tensor<1x6x6x2xf32>
// TOSA-NEXT: %[[WSIZE:.*]] = "tosa.const_shape"() {values = dense<[3, 3, 3, 2]> : tensor<4xindex>}
// TOSA-NEXT: %[[W0:.*]] = "tosa.slice"(%[[W]], %[[ZERO]], %[[WSIZE]]) : {{.*}} -> tensor<3x3x3x2xf32>
// TOSA:      %[[C0:.*]] = "tosa.conv2d"(%[[X0]], %[[W0]], {{.*}}) {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : {{.*}} -> tensor<1x3x3x3xf32>
// TOSA-NEXT: %[[START:.*]] = "tosa.const_shape"() {values = dense<[0, 0, 0, 2]> : tensor<4xindex>}
// TOSA-NEXT: %[[X1:.*]] = "tosa.slice"(%[[X]], %[[START]], %[[SIZE]])
// TOSA-NEXT: %[[WSTART:.*]] = "tosa.const_shape"() {values = dense<[3, 0, 0, 0]> : tensor<4xindex>}
// TOSA-NEXT: %[[W1:.*]] = "tosa.slice"(%[[W]], %[[WSTART]], %[[WSIZE]])
// TOSA:      %[[C1:.*]] = "tosa.conv2d"(%[[X1]], %[[W1]], {{.*}}) {{.*}} -> tensor<1x3x3x3xf32>
// TOSA-NEXT: %[[CAT:.*]] = "tosa.concat"(%[[C0]], %[[C1]]) {axis = 3 : i32} : (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>) -> tensor<1x3x3x6xf32>
// TOSA-NEXT: "tosa.transpose"(%[[CAT]]) {perms = array<i32: 0, 3, 1, 2>}

// LINALG-LABEL: sym_name = "grouped"
// LINALG:      ^bb0(%{{.*}}: tensor<1x4x6x6xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>):
// LINALG-NEXT: %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x6x6x4xf32>
// LINALG:      %[[WS:.*]] = "tosa.reshape"(%[[W]], %{{.*}}) : (tensor<6x2x3x3xf32>, !tosa.shape<5>) -> tensor<2x3x2x3x3xf32>
// LINALG-NEXT: %[[GW:.*]] = "tosa.transpose"(%[[WS]]) {perms = array<i32: 0, 3, 4, 2, 1>} : (tensor<2x3x2x3x3xf32>) -> tensor<2x3x3x2x3xf32>
// LINALG:      %[[HWC:.*]] = "tosa.reshape"(%[[X]], %{{.*}}) : {{.*}} -> tensor<6x6x4xf32>
// LINALG:      %[[PADS:.*]] = "tosa.const_shape"() {values = dense<[1, 0, 1, 0, 0, 0]> : tensor<6xindex>}
// LINALG-NEXT: %[[PADDED_HWC:.*]] = "tosa.pad"(%[[HWC]], %[[PADS]], %{{.*}}) : {{.*}} -> tensor<7x7x4xf32>
// LINALG:      %[[PADDED:.*]] = "tosa.reshape"(%[[PADDED_HWC]], %{{.*}}) : {{.*}} -> tensor<1x7x7x4xf32>
// LINALG-NEXT: %{{.*}} = "tosa.const_shape"() {values = dense<[1, 7, 7, 2, 2]> : tensor<5xindex>}
// LINALG-NEXT: %[[GX:.*]] = "tosa.reshape"(%[[PADDED]], %{{.*}}) : {{.*}} -> tensor<1x7x7x2x2xf32>
// LINALG-NEXT: %[[ZERO:.*]] = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
// LINALG-NEXT: %[[EMPTY:.*]] = "tensor.empty"() : () -> tensor<1x3x3x2x3xf32>
// LINALG-NEXT: %[[INIT:.*]] = "linalg.fill"(%[[ZERO]], %[[EMPTY]])
// LINALG:      %[[G:.*]] = "linalg.generic"(%[[GX]], %[[GW]], %[[INIT]]) <{indexing_maps = [
// LINALG-SAME:   affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + d5), d3, d6)>,
// LINALG-SAME:   affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3, d4, d5, d6, d7)>,
// LINALG-SAME:   affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d7)>],
// LINALG-SAME:   iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>]
// LINALG-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// LINALG-NEXT:   %[[P:.*]] = "arith.mulf"(%[[A]], %[[B]])
// LINALG-NEXT:   %[[S:.*]] = "arith.addf"(%[[ACC]], %[[P]])
// LINALG-NEXT:   "linalg.yield"(%[[S]])
// LINALG-NEXT: }) : (tensor<1x7x7x2x2xf32>, tensor<2x3x3x2x3xf32>, tensor<1x3x3x2x3xf32>) -> tensor<1x3x3x2x3xf32>
// LINALG-NEXT: %{{.*}} = "tosa.const_shape"() {values = dense<[1, 3, 3, 6]> : tensor<4xindex>}
// LINALG-NEXT: %[[R:.*]] = "tosa.reshape"(%[[G]], %{{.*}}) : {{.*}} -> tensor<1x3x3x6xf32>
// LINALG-NEXT: "tosa.transpose"(%[[R]]) {perms = array<i32: 0, 3, 1, 2>}
func.func @grouped(%x: tensor<1x4x6x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, groups = 2 : i32, channels = 6 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x4x6x6xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  func.return %r : tensor<1x6x3x3xf32>
}

// A known weight is laid out per group when compiling: weight[g*2+o, c] at [g, 0, 0, c, o].
// LINALG-LABEL: sym_name = "grouped_known_weight"
// LINALG:      %[[W:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[\[}}0.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00]]]], {{\[\[\[\[}}4.000000e+00, 6.000000e+00], [5.000000e+00, 7.000000e+00]]]]]> : tensor<2x1x1x2x2xf32>}
// LINALG-NOT:  "tosa.pad"
// LINALG:      "linalg.generic"(%{{.*}}, %[[W]], %{{.*}})
func.func @grouped_known_weight(%x: tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %w = relay.constant dense<[[[[0.0]], [[1.0]]], [[[2.0]], [[3.0]]], [[[4.0]], [[5.0]]], [[[6.0]], [[7.0]]]]> : tensor<4x2x1x1xf32>
  %r = relay.nn.conv2d(%x, %w) {groups = 2 : i32, channels = 4 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x4x3x3xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x3x3xf32>
  func.return %r : tensor<1x4x3x3xf32>
}
