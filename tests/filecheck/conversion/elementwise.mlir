// Elementwise operators (elementwise.py): one TOSA operator each, in the layout
// their operands are held in (layout.py).
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

// Elementwise operators run in the layout of their first operand computed at
// run time (NHWC after a convolution; an add there would be the convolution's
// bias, rules/bias.py). A lower-rank operand gets leading ones
// (a reshape) and then that layout (a reshape too, where it moves only ones); a
// known one is laid out when compiling; a full-rank NCHW operand (the input) is
// transposed, once.
// CHECK-LABEL: sym_name = "broadcast_nhwc"
// CHECK:       ^bb0(%[[X:.*]]: tensor<1x2x4x4xf32>, %{{.*}}: tensor<2x2x1x1xf32>, %[[B:.*]]: tensor<2x1x1xf32>):
// CHECK-NEXT:  %[[X_NHWC:.*]] = "tosa.transpose"(%[[X]]) {perms = array<i32: 0, 2, 3, 1>}
// CHECK:       %[[C:.*]] = "tosa.conv2d"
// CHECK:       %[[B4:.*]] = "tosa.reshape"(%[[B]], %{{.*}}) : (tensor<2x1x1xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
// CHECK-NEXT:  %[[B_SHAPE:.*]] = "tosa.const_shape"() {values = dense<[1, 1, 1, 2]> : tensor<4xindex>}
// CHECK-NEXT:  %[[B_NHWC:.*]] = "tosa.reshape"(%[[B4]], %[[B_SHAPE]]) : (tensor<1x2x1x1xf32>, !tosa.shape<4>) -> tensor<1x1x1x2xf32>
// CHECK-NEXT:  %[[A:.*]] = "tosa.sub"(%[[C]], %[[B_NHWC]]) : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT:  %[[K:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00]]]]> : tensor<1x1x1x2xf32>}
// CHECK-NEXT:  %[[SHIFT:.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>}
// CHECK-NEXT:  %[[M:.*]] = "tosa.mul"(%[[A]], %[[K]], %[[SHIFT]]) : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT:  %[[S:.*]] = "tosa.sub"(%[[M]], %[[X_NHWC]]) : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT:  %[[R:.*]] = "tosa.clamp"(%[[S]]) {min_val = 0.000000e+00 : f32, max_val = 3.40282347e+38 : f32}
// CHECK-NEXT:  "tosa.transpose"(%[[R]]) {perms = array<i32: 0, 3, 1, 2>}
func.func @broadcast_nhwc(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %b: tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = relay.subtract(%c, %b) : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %k = relay.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %m = relay.multiply(%a, %k) : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %s = relay.subtract(%m, %x) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r = relay.nn.relu(%s) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  func.return %r : tensor<1x2x4x4xf32>
}

// Calls on known values fold when compiling (expand_dims, multiply), and so do
// their layout changes; a known divisor becomes its reciprocal: 1 / (2 * [1, 2]).
// CHECK-LABEL: sym_name = "folded"
// CHECK:       %[[C:.*]] = "tosa.conv2d"
// CHECK-NEXT:  %[[K:.*]] = "tosa.const"() {values = dense<{{\[\[\[\[}}5.000000e-01, 2.500000e-01]]]]> : tensor<1x1x1x2xf32>}
// CHECK-NEXT:  %[[SHIFT:.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>}
// CHECK-NEXT:  %[[M:.*]] = "tosa.mul"(%[[C]], %[[K]], %[[SHIFT]])
// CHECK-NEXT:  "tosa.transpose"(%[[M]]) {perms = array<i32: 0, 3, 1, 2>}
func.func @folded(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %c = relay.nn.conv2d(%x, %w) {channels = 2 : i32, kernel_size = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %k = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = relay.expand_dims(%k) {axis = 1 : i32, num_newaxis = 2 : i32} : (tensor<2xf32>) -> tensor<2x1x1xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %d = relay.multiply(%e, %two) : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %r = relay.divide(%c, %d) : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %r : tensor<1x2x4x4xf32>
}

// Unary operators, one TOSA operator each; sqrt is reciprocal(rsqrt(x)), a
// division by a value computed at run time a multiplication by its reciprocal.
// CHECK-LABEL: sym_name = "unary"
// CHECK:       ^bb0(%[[X:.*]]: tensor<2x3xf32>):
// CHECK-NEXT:  %[[A:.*]] = "tosa.sigmoid"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %[[B:.*]] = "tosa.clamp"(%[[A]]) {min_val = 0.000000e+00 : f32, max_val = 6.000000e+00 : f32}
// CHECK-NEXT:  %[[R:.*]] = "tosa.rsqrt"(%[[B]])
// CHECK-NEXT:  %[[C:.*]] = "tosa.reciprocal"(%[[R]])
// CHECK-NEXT:  %[[ZP:.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>}
// CHECK-NEXT:  %[[D:.*]] = "tosa.negate"(%[[C]], %[[ZP]], %[[ZP]])
// CHECK-NEXT:  %[[INV:.*]] = "tosa.reciprocal"(%[[X]])
// CHECK-NEXT:  %[[SHIFT:.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>}
// CHECK-NEXT:  %[[Q:.*]] = "tosa.mul"(%[[D]], %[[INV]], %[[SHIFT]])
// CHECK-NEXT:  "func.return"(%[[Q]])
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = relay.sigmoid(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = relay.clip(%a) {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = relay.sqrt(%b) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = relay.negative(%c) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = relay.divide(%d, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
