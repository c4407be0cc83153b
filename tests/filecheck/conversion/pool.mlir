// The pools: tosa.max_pool2d and tosa.avg_pool2d on NHWC, with TOSA's
// exact-size padding (see conv2d_padding.mlir).
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// Max pools pad with TOSA's own padding (never the maximum); resnet's 3x3
// stride-2 pool on an even size needs no padding after (TOSA's exact-size rule).
// A padded float max pool is pooled in parts: the outputs whose windows lie
// inside the data from an unpadded slice of it, the left column of outputs
// and then the top row from slices padded on those edges only, each inserted
// into the result, which is made first.
// CHECK-LABEL: sym_name = "max_pool"
// CHECK:       %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>}
// CHECK-NEXT:  %[[E:.*]] = "tensor.empty"() : () -> tensor<1x4x4x4xf32>
// CHECK:       %[[IS:.*]] = "tosa.slice"(%[[X]], {{.*}}) : {{.*}} -> tensor<1x7x7x4xf32>
// CHECK-NEXT:  %[[I:.*]] = "tosa.max_pool2d"(%[[IS]]) {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, kernel = array<i64: 3, 3>} : (tensor<1x7x7x4xf32>) -> tensor<1x3x3x4xf32>
// CHECK-NEXT:  %[[RI:.*]] = "tensor.insert_slice"(%[[I]], %[[E]]) <{static_offsets = array<i64: 0, 1, 1, 0>, static_sizes = array<i64: 1, 3, 3, 4>
// CHECK:       %[[LS:.*]] = "tosa.slice"(%[[X]], {{.*}}) : {{.*}} -> tensor<1x7x2x4xf32>
// CHECK-NEXT:  %[[L:.*]] = "tosa.max_pool2d"(%[[LS]]) {pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 2, 2>, kernel = array<i64: 3, 3>} : (tensor<1x7x2x4xf32>) -> tensor<1x3x1x4xf32>
// CHECK-NEXT:  %[[RL:.*]] = "tensor.insert_slice"(%[[L]], %[[RI]]) <{static_offsets = array<i64: 0, 1, 0, 0>, static_sizes = array<i64: 1, 3, 1, 4>
// CHECK:       %[[TS:.*]] = "tosa.slice"(%[[X]], {{.*}}) : {{.*}} -> tensor<1x2x8x4xf32>
// CHECK-NEXT:  %[[T:.*]] = "tosa.max_pool2d"(%[[TS]]) {pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>, kernel = array<i64: 3, 3>} : (tensor<1x2x8x4xf32>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT:  %[[P:.*]] = "tensor.insert_slice"(%[[T]], %[[RL]]) <{static_offsets = array<i64: 0, 0, 0, 0>, static_sizes = array<i64: 1, 1, 4, 4>
// CHECK-NEXT:  "tosa.transpose"(%[[P]]) {perms = array<i32: 0, 3, 1, 2>}
func.func @max_pool(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 3, 3>, strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// CHECK-LABEL: sym_name = "avg_pool"
// CHECK:       %[[ZP:.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>}
// CHECK-NEXT:  "tosa.avg_pool2d"(%{{.*}}, %[[ZP]], %[[ZP]]) {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, kernel = array<i64: 2, 2>, acc_type = f32} : (tensor<1x8x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
func.func @avg_pool(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// TOSA's average leaves its padding out of the count; count_include_pad pads
// with zeros first (two images: one rank-3 tosa.pad per padded dimension).
// CHECK-LABEL: sym_name = "avg_pool_count_include_pad"
// CHECK:       %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x4x8x8xf32>) -> tensor<2x8x8x4xf32>
// CHECK:       %[[H:.*]] = "tosa.reshape"(%[[X]], %{{.*}}) : {{.*}} -> tensor<2x8x32xf32>
// CHECK:       %[[PADS:.*]] = "tosa.const_shape"() {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>}
// CHECK-NEXT:  "tosa.pad"(%[[H]], %[[PADS]], %{{.*}}) : {{.*}} -> tensor<2x10x32xf32>
// CHECK:       %[[W:.*]] = "tosa.reshape"({{.*}}) : {{.*}} -> tensor<20x8x4xf32>
// CHECK:       "tosa.pad"(%[[W]], %[[PADS]], %{{.*}}) : {{.*}} -> tensor<20x10x4xf32>
// CHECK:       %[[PADDED:.*]] = "tosa.reshape"({{.*}}) : {{.*}} -> tensor<2x10x10x4xf32>
// CHECK:       "tosa.avg_pool2d"(%[[PADDED]], {{.*}}) {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, kernel = array<i64: 3, 3>, acc_type = f32} : {{.*}} -> tensor<2x8x8x4xf32>
func.func @avg_pool_count_include_pad(%x: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %r = relay.nn.avg_pool2d(%x) {pool_size = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, count_include_pad = true} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  func.return %r : tensor<2x4x8x8xf32>
}

// ceil_mode: the last window reaches past the input, by TOSA's padding after
// (of the bands of outputs that reach past it: the right column, the bottom row).
// CHECK-LABEL: sym_name = "max_pool_ceil_mode"
// CHECK:       "tosa.max_pool2d"(%{{.*}}) {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, kernel = array<i64: 2, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x3x3x4xf32>
// CHECK:       "tosa.max_pool2d"(%{{.*}}) {pad = array<i64: 0, 0, 0, 1>, stride = array<i64: 2, 2>, kernel = array<i64: 2, 2>} : (tensor<1x6x1x4xf32>) -> tensor<1x3x1x4xf32>
// CHECK:       "tosa.max_pool2d"(%{{.*}}) {pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>, kernel = array<i64: 2, 2>} : (tensor<1x1x7x4xf32>) -> tensor<1x1x4x4xf32>
func.func @max_pool_ceil_mode(%x: tensor<1x4x7x7xf32>) -> tensor<1x4x4x4xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, ceil_mode = true} : (tensor<1x4x7x7xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// A global pool's window is the whole image.
// CHECK-LABEL: sym_name = "global_avg_pool"
// CHECK:       "tosa.avg_pool2d"({{.*}}) {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, kernel = array<i64: 7, 7>, acc_type = f32} : {{.*}} -> tensor<1x1x1x4xf32>
func.func @global_avg_pool(%x: tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32> {
  %r = relay.nn.global_avg_pool2d(%x) : (tensor<1x4x7x7xf32>) -> tensor<1x4x1x1xf32>
  func.return %r : tensor<1x4x1x1xf32>
}

// An adaptive pool to a size that divides the input's: windows of 12 / 3 = 4, stride 4.
// CHECK-LABEL: sym_name = "adaptive_avg_pool"
// CHECK:       "tosa.avg_pool2d"({{.*}}) {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 4, 4>, kernel = array<i64: 4, 4>, acc_type = f32} : (tensor<1x12x12x4xf32>, {{.*}}) -> tensor<1x3x3x4xf32>
func.func @adaptive_avg_pool(%x: tensor<1x4x12x12xf32>) -> tensor<1x4x3x3xf32> {
  %r = relay.nn.adaptive_avg_pool2d(%x) {output_size = array<i32: 3, 3>} : (tensor<1x4x12x12xf32>) -> tensor<1x4x3x3xf32>
  func.return %r : tensor<1x4x3x3xf32>
}

// An NHWC pool: no transposes.
// CHECK-LABEL: sym_name = "max_pool_nhwc"
// CHECK:       ^bb0(%[[X:.*]]: tensor<1x8x8x4xf32>):
// CHECK-NEXT:  %[[P:.*]] = "tosa.max_pool2d"(%[[X]]) {{.*}} -> tensor<1x4x4x4xf32>
// CHECK-NEXT:  "func.return"(%[[P]])
func.func @max_pool_nhwc(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 2, 2>, strides = array<i32: 2, 2>, layout = "NHWC"} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// An adaptive average whose windows differ in size (rows 5 to 3: [0, 2), [1, 4),
// [3, 5)): a product with the rows' weights, then with the columns' (per row of
// the result), on NHWC reshaped without moving data.
// CHECK-LABEL: sym_name = "adaptive_avg_pool_uneven"
// CHECK:       %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>}
// CHECK-NEXT:  %[[ROWS:.*]] = "tosa.const"() {values = dense<{{\[\[\[}}5.000000e-01, 5.000000e-01, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.333333343, 0.333333343, 0.333333343, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e-01, 5.000000e-01]]]> : tensor<1x3x5xf32>}
// CHECK:       %[[X3:.*]] = "tosa.reshape"(%[[X]], %{{.*}}) : (tensor<1x5x5x4xf32>, !tosa.shape<3>) -> tensor<1x5x20xf32>
// CHECK:       %[[R:.*]] = "tosa.matmul"(%[[ROWS]], %[[X3]], {{.*}}) -> tensor<1x3x20xf32>
// CHECK-NEXT:  %[[COLS:.*]] = "tosa.const"() {{.*}} : () -> tensor<3x2x5xf32>
// CHECK:       %[[R3:.*]] = "tosa.reshape"(%[[R]], %{{.*}}) : (tensor<1x3x20xf32>, !tosa.shape<3>) -> tensor<3x5x4xf32>
// CHECK-NEXT:  %[[C:.*]] = "tosa.matmul"(%[[COLS]], %[[R3]], {{.*}}) -> tensor<3x2x4xf32>
// CHECK:       "tosa.reshape"(%[[C]], %{{.*}}) : (tensor<3x2x4xf32>, !tosa.shape<4>) -> tensor<1x3x2x4xf32>
func.func @adaptive_avg_pool_uneven(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x3x2xf32> {
  %r = relay.nn.adaptive_avg_pool2d(%x) {output_size = array<i32: 3, 2>} : (tensor<1x4x5x5xf32>) -> tensor<1x4x3x2xf32>
  func.return %r : tensor<1x4x3x2xf32>
}

// An adaptive maximum whose windows differ: one slice and reduce_max per window
// of rows, concatenated, then the same for columns.
// CHECK-LABEL: sym_name = "adaptive_max_pool_uneven"
// CHECK-COUNT-3: "tosa.reduce_max"({{.*}}) {axis = 1 : i32}
// CHECK:       %[[ROWS:.*]] = "tosa.concat"({{.*}}) {axis = 1 : i32} : {{.*}} -> tensor<1x3x5x4xf32>
// CHECK-COUNT-2: "tosa.reduce_max"({{.*}}) {axis = 2 : i32}
// CHECK:       "tosa.concat"({{.*}}) {axis = 2 : i32} : {{.*}} -> tensor<1x3x2x4xf32>
func.func @adaptive_max_pool_uneven(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x3x2xf32> {
  %r = relay.nn.adaptive_max_pool2d(%x) {output_size = array<i32: 3, 2>} : (tensor<1x4x5x5xf32>) -> tensor<1x4x3x2xf32>
  func.return %r : tensor<1x4x3x2xf32>
}
