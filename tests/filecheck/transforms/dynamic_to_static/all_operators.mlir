// Each dynamic operator with a static form, its shape arguments constants (a
// splat among them): the static call, the constants it no longer uses gone,
// the function's result types known. dyn.sparse_to_dense, which has no static
// counterpart, stays.
// RUN: xdsl-opt %s -p relay-dynamic-to-static | filecheck %s
// RUN: xdsl-opt %s -p relay-dynamic-to-static | xdsl-opt -p relay-infer-type | filecheck %s

func.func @main(%x: tensor<4x10x3xf32>, %img: tensor<1x3x4x4xf32>, %vol: tensor<1x2x2x2x2xf32>, %row: tensor<3xf32>, %fill: tensor<f32>, %values: tensor<2xf32>) -> (tensor<?x?x3xf32>, tensor<?x?x?x?xf32>, tensor<1x3x?x?xf32>, tensor<1x2x?x?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<?x?xf32>) {
  %begin = relay.constant dense<[0, 2]> : tensor<2xi64>
  %end = relay.constant dense<[4, 10]> : tensor<2xi64>
  %strides = relay.constant dense<[1, 2]> : tensor<2xi64>
  %slice = relay.dyn.strided_slice(%x, %begin, %end, %strides) : (tensor<4x10x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?x3xf32>
  %pad_width = relay.constant dense<[[0, 0], [0, 0], [1, 2], [0, 1]]> : tensor<4x2xi64>
  %zero = relay.constant dense<0.000000e+00> : tensor<f32>
  %padded = relay.dyn.nn.pad(%img, %pad_width, %zero) {pad_width = array<i32>, pad_mode = "edge"} : (tensor<1x3x4x4xf32>, tensor<4x2xi64>, tensor<f32>) -> tensor<?x?x?x?xf32>
  %size = relay.constant dense<[8, 6]> : tensor<2xi64>
  %roi = relay.constant dense<0.000000e+00> : tensor<4xf32>
  %resized = relay.dyn.image.resize2d(%img, %size, %roi) {method = "nearest_neighbor"} : (tensor<1x3x4x4xf32>, tensor<2xi64>, tensor<4xf32>) -> tensor<1x3x?x?xf32>
  %two = relay.constant dense<2.000000e+00> : tensor<f32>
  %upsampled = relay.dyn.nn.upsampling3d(%vol, %two, %two, %two) : (tensor<1x2x2x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x?x?x?xf32>
  %shape = relay.constant dense<[2, 3]> : tensor<2xi64>
  %zeros = relay.dyn.zeros(%shape) {dtype = "int32"} : (tensor<2xi64>) -> tensor<?x?xi32>
  %ones = relay.dyn.ones(%shape) {dtype = "float32"} : (tensor<2xi64>) -> tensor<?x?xf32>
  %full = relay.dyn.full(%fill, %shape) : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %broadcast = relay.dyn.broadcast_to(%row, %shape) : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %reps = relay.constant dense<[2, 1]> : tensor<2xi64>
  %tiled = relay.dyn.tile(%broadcast, %reps) {reps = array<i32>} : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %axes = relay.constant dense<0> : tensor<1xi64>
  %squeezed = relay.dyn.squeeze(%img, %axes) : (tensor<1x3x4x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  %indices = relay.constant dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
  %dense = relay.dyn.sparse_to_dense(%indices, %values, %zero, %shape) : (tensor<2x2xi64>, tensor<2xf32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %slice, %padded, %resized, %upsampled, %zeros, %ones, %full, %broadcast, %tiled, %squeezed, %dense : tensor<?x?x3xf32>, tensor<?x?x?x?xf32>, tensor<1x3x?x?xf32>, tensor<1x2x?x?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<?x?xf32>
}

// CHECK:      func.func @main(%x: tensor<4x10x3xf32>, %img: tensor<1x3x4x4xf32>, %vol: tensor<1x2x2x2x2xf32>, %row: tensor<3xf32>, %fill: tensor<f32>, %values: tensor<2xf32>) -> (tensor<4x4x3xf32>, tensor<1x3x7x5xf32>, tensor<1x3x8x6xf32>, tensor<1x2x4x4x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<3x4x4xf32>, tensor<?x?xf32>) {
// CHECK-NEXT:   %slice = relay.strided_slice(%x) {begin = array<i32: 0, 2>, end = array<i32: 4, 10>, strides = array<i32: 1, 2>} : (tensor<4x10x3xf32>) -> tensor<4x4x3xf32>
// CHECK-NEXT:   %zero = relay.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:   %padded = relay.nn.pad(%img, %zero) {pad_width = [array<i32: 0, 0>, array<i32: 0, 0>, array<i32: 1, 2>, array<i32: 0, 1>], pad_mode = "edge"} : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x7x5xf32>
// CHECK-NEXT:   %resized = relay.image.resize2d(%img) {method = "nearest_neighbor", size = array<i32: 8, 6>, roi = array<f32: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x6xf32>
// CHECK-NEXT:   %upsampled = relay.nn.upsampling3d(%vol) {scale_d = 2.000000e+00 : f32, scale_h = 2.000000e+00 : f32, scale_w = 2.000000e+00 : f32} : (tensor<1x2x2x2x2xf32>) -> tensor<1x2x4x4x4xf32>
// CHECK-NEXT:   %shape = relay.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT:   %zeros = relay.zeros() {dtype = "int32", shape = array<i32: 2, 3>} : () -> tensor<2x3xi32>
// CHECK-NEXT:   %ones = relay.ones() {dtype = "float32", shape = array<i32: 2, 3>} : () -> tensor<2x3xf32>
// CHECK-NEXT:   %full = relay.full(%fill) {shape = array<i32: 2, 3>} : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %broadcast = relay.broadcast_to(%row) {shape = array<i32: 2, 3>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %tiled = relay.tile(%broadcast) {reps = array<i32: 2, 1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:   %squeezed = relay.squeeze(%img) {axis = array<i32: 0>} : (tensor<1x3x4x4xf32>) -> tensor<3x4x4xf32>
// CHECK-NEXT:   %indices = relay.constant dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
// CHECK-NEXT:   %dense = relay.dyn.sparse_to_dense(%indices, %values, %zero, %shape) : (tensor<2x2xi64>, tensor<2xf32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT:   func.return %slice, %padded, %resized, %upsampled, %zeros, %ones, %full, %broadcast, %tiled, %squeezed, %dense : tensor<4x4x3xf32>, tensor<1x3x7x5xf32>, tensor<1x3x8x6xf32>, tensor<1x2x4x4x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<3x4x4xf32>, tensor<?x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
