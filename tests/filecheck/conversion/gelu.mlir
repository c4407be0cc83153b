// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// The exact GELU, 0.5 * x * (1 + erf(x / sqrt(2))), its tanh approximation,
// and silu, x * sigmoid(x).

func.func @gelu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = relay.relax.nn.gelu(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @gelu_tanh(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = relay.relax.nn.gelu_tanh(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @silu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = relay.relax.nn.silu(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "gelu"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const"() {values = dense<0.707106769> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V3:%.*]] = "tosa.mul"([[V0]], [[V1]], [[V2]]) : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.erf"([[V3]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.const"() {values = dense<1.000000e+00> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.add"([[V4]], [[V5]]) : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V7:%.*]] = "tosa.const"() {values = dense<5.000000e-01> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V8:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V9:%.*]] = "tosa.mul"([[V0]], [[V7]], [[V8]]) : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V10:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V11:%.*]] = "tosa.mul"([[V9]], [[V6]], [[V10]]) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"([[V11]]) : (tensor<2x3xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "gelu_tanh"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V2:%.*]] = "tosa.mul"([[V0]], [[V0]], [[V1]]) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V4:%.*]] = "tosa.mul"([[V2]], [[V0]], [[V3]]) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.const"() {values = dense<4.471500e-02> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V7:%.*]] = "tosa.mul"([[V4]], [[V5]], [[V6]]) : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V8:%.*]] = "tosa.add"([[V0]], [[V7]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V9:%.*]] = "tosa.const"() {values = dense<0.797884583> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V10:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V11:%.*]] = "tosa.mul"([[V8]], [[V9]], [[V10]]) : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V12:%.*]] = "tosa.tanh"([[V11]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V13:%.*]] = "tosa.const"() {values = dense<1.000000e+00> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V14:%.*]] = "tosa.add"([[V12]], [[V13]]) : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V15:%.*]] = "tosa.const"() {values = dense<5.000000e-01> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: [[V16:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V17:%.*]] = "tosa.mul"([[V0]], [[V15]], [[V16]]) : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V18:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V19:%.*]] = "tosa.mul"([[V17]], [[V14]], [[V18]]) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"([[V19]]) : (tensor<2x3xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "silu"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.sigmoid"([[V0]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
// CHECK-NEXT: [[V3:%.*]] = "tosa.mul"([[V0]], [[V1]], [[V2]]) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: "func.return"([[V3]]) : (tensor<2x3xf32>) -> ()
