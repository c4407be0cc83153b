// nn.conv2d with one group per input channel: tosa.depthwise_conv2d, its weight
// [KH, KW, C, M] (M outputs per input channel) made from the OIHW weight
// (C*M, 1, KH, KW) when compiling, or by a transpose at run time (and a
// reshape, where M > 1). With linalg preferred, one output per channel is
// linalg.depthwise_conv_2d_nhwc_hwc of the padded data (one generic writing
// each padded element once, from the input or zero) by a [KH, KW, C] weight.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s --check-prefixes=CHECK,TOSA
// RUN: xdsl-opt %s -p convert-relay-to-linalg --print-op-generic | filecheck %s --check-prefixes=CHECK,LINALG
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// Two input channels, two outputs each: output channel c*2+m reads input c.
// CHECK-LABEL: sym_name = "depthwise_multiplier"
// CHECK:      %[[NHWC:.*]] = "tosa.transpose"(%{{.*}}) {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
// CHECK:      %[[W:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]]]> : tensor<1x1x2x2xf32>}
// CHECK:      "tosa.depthwise_conv2d"(%[[NHWC]], %[[W]], {{.*}}) {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
func.func @depthwise_multiplier(%x: tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]], [[[3.0]]], [[[4.0]]]]> : tensor<4x1x1x1xf32>
  %r = relay.nn.conv2d(%x, %w) {groups = 2 : i32, channels = 4 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// mobilenet's 3x3 stride-2 depthwise convolution on an even size: padding 0 after.
// CHECK-LABEL: sym_name = "depthwise_stride_2"
// CHECK:      ^bb0(%{{.*}}: tensor<1x8x6x6xf32>, %[[W:.*]]: tensor<8x1x3x3xf32>):
// TOSA:       %[[HWCM:.*]] = "tosa.transpose"(%[[W]]) {perms = array<i32: 2, 3, 0, 1>} : (tensor<8x1x3x3xf32>) -> tensor<3x3x8x1xf32>
// TOSA:       "tosa.depthwise_conv2d"(%{{.*}}, %[[HWCM]], {{.*}}) {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : {{.*}} -> tensor<1x3x3x8xf32>
// LINALG:      %[[CHW:.*]] = "tosa.reshape"(%[[W]], %{{.*}}) : (tensor<8x1x3x3xf32>, !tosa.shape<3>) -> tensor<8x3x3xf32>
// LINALG-NEXT: %[[HWC:.*]] = "tosa.transpose"(%[[CHW]]) {perms = array<i32: 1, 2, 0>} : (tensor<8x3x3xf32>) -> tensor<3x3x8xf32>
// LINALG:      %[[DATA:.*]] = "linalg.generic"(%{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// LINALG:      %[[IN:.*]] = "tensor.extract"(%[[NHWC:.*]], {{.*}}) : (tensor<1x6x6x8xf32>, index, index, index, index) -> f32
// LINALG-NEXT: %[[PICK:.*]] = "arith.select"(%{{.*}}, %[[IN]], %{{.*}}) : (i1, f32, f32) -> f32
// LINALG-NEXT: "linalg.yield"(%[[PICK]])
// LINALG-NEXT: }) : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
// LINALG:      %[[ZEROS:.*]] = "linalg.fill"
// LINALG:      "linalg.depthwise_conv_2d_nhwc_hwc"(%[[DATA]], %[[HWC]], %[[ZEROS]]) <{strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>, operandSegmentSizes = array<i32: 2, 1>}>
// LINALG:      %[[P:.*]] = "arith.mulf"
// LINALG-NEXT: "arith.addf"(%{{.*}}, %[[P]])
// LINALG:      }) : (tensor<1x7x7x8xf32>, tensor<3x3x8xf32>, tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
func.func @depthwise_stride_2(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, groups = 8 : i32, channels = 8 : i32, kernel_size = array<i32: 3, 3>} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x3x3xf32>
  func.return %r : tensor<1x8x3x3xf32>
}
