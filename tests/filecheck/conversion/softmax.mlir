// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// Softmax along an axis: exp(x - max) times the reciprocal of the sum, the
// reductions keeping the axis so that they broadcast back.

func.func @softmax(%x: tensor<2x5x7xf32>) -> tensor<2x5x7xf32> {
  %r = relay.nn.softmax(%x) {axis = 1 : i32} : (tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  func.return %r : tensor<2x5x7xf32>
}

func.func @log_softmax(%x: tensor<2x5x7xf32>) -> tensor<2x5x7xf32> {
  %r = relay.nn.log_softmax(%x) {axis = -1 : i32} : (tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  func.return %r : tensor<2x5x7xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "softmax"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x5x7xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.reduce_max"([[V0]]) {axis = 1 : i32} : (tensor<2x5x7xf32>) -> tensor<2x1x7xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.sub"([[V0]], [[V1]]) : (tensor<2x5x7xf32>, tensor<2x1x7xf32>) -> tensor<2x5x7xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.exp"([[V2]]) : (tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.reduce_sum"([[V3]]) {axis = 1 : i32} : (tensor<2x5x7xf32>) -> tensor<2x1x7xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.reciprocal"([[V4]]) : (tensor<2x1x7xf32>) -> tensor<2x1x7xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V7:%.*]] = "tosa.mul"([[V3]], [[V5]], [[V6]]) : (tensor<2x5x7xf32>, tensor<2x1x7xf32>, tensor<1xi8>) -> tensor<2x5x7xf32>
// CHECK-NEXT: "func.return"([[V7]]) : (tensor<2x5x7xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "log_softmax"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x5x7xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.reduce_max"([[V0]]) {axis = 2 : i32} : (tensor<2x5x7xf32>) -> tensor<2x5x1xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.sub"([[V0]], [[V1]]) : (tensor<2x5x7xf32>, tensor<2x5x1xf32>) -> tensor<2x5x7xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.exp"([[V2]]) : (tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.reduce_sum"([[V3]]) {axis = 2 : i32} : (tensor<2x5x7xf32>) -> tensor<2x5x1xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.log"([[V4]]) : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.sub"([[V2]], [[V5]]) : (tensor<2x5x7xf32>, tensor<2x5x1xf32>) -> tensor<2x5x7xf32>
// CHECK-NEXT: "func.return"([[V6]]) : (tensor<2x5x7xf32>) -> ()
