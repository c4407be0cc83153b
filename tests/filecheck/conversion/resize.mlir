// image.resize2d: tosa.resize on NHWC where TOSA's integer arithmetic gives the
// mode's coordinates, else a tosa.matmul by the interpolation matrix of each axis.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// half_pixel, 4 to 8 rows and 5 to 10 columns: (out * 2 - 1) / 4 is
// (out + 0.5) / 2 - 0.5, so scale 4/2, offset -1, border 1 on both axes.
// CHECK-LABEL: sym_name = "resize_linear"
// CHECK:       %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
// CHECK-NEXT:  %[[SCALE:.*]] = "tosa.const_shape"() {values = dense<[4, 2, 4, 2]> : tensor<4xindex>}
// CHECK-NEXT:  %[[OFFSET:.*]] = "tosa.const_shape"() {values = dense<-1> : tensor<2xindex>}
// CHECK-NEXT:  %[[BORDER:.*]] = "tosa.const_shape"() {values = dense<1> : tensor<2xindex>}
// CHECK-NEXT:  %[[R:.*]] = "tosa.resize"(%[[X]], %[[SCALE]], %[[OFFSET]], %[[BORDER]]) {mode = #tosa<resize_mode<BILINEAR>>} : {{.*}} -> tensor<1x8x10x3xf32>
// CHECK-NEXT:  "tosa.transpose"(%[[R]]) {perms = array<i32: 0, 3, 1, 2>}
func.func @resize_linear(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32> {
  %r = relay.image.resize2d(%x) {size = array<i32: 8, 10>} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return %r : tensor<1x3x8x10xf32>
}

// Cubic has no TOSA operator: the rows are a product by a 6x4 matrix of the
// cubic weights (clamped at the edges), the columns, whose size stays, none (the
// rows first: a reshape, as the image is one).
// CHECK-LABEL: sym_name = "resize_cubic"
// CHECK:       %[[X:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>}
// CHECK-NEXT:  %[[ROWS_SHAPE:.*]] = "tosa.const_shape"() {values = dense<[4, 1, 4, 2]> : tensor<4xindex>}
// CHECK-NEXT:  %[[ROWS_FIRST:.*]] = "tosa.reshape"(%[[X]], %[[ROWS_SHAPE]]) : {{.*}} -> tensor<4x1x4x2xf32>
// CHECK:       %[[FLAT:.*]] = "tosa.reshape"(%[[ROWS_FIRST]], %{{.*}}) : {{.*}} -> tensor<1x4x8xf32>
// CHECK-NEXT:  %[[WEIGHTS:.*]] = "tosa.const"() {values = dense<{{.*}}> : tensor<1x6x4xf32>}
// CHECK:       "tosa.matmul"(%[[WEIGHTS]], %[[FLAT]], %{{.*}}, %{{.*}}) : {{.*}} -> tensor<1x6x8xf32>
// CHECK-NOT:   "tosa.matmul"
// CHECK:       "func.return"
func.func @resize_cubic(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x6x4xf32> {
  %r = relay.image.resize2d(%x) {size = array<i32: 6, 4>, method = "cubic"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x4xf32>
  func.return %r : tensor<1x2x6x4xf32>
}
