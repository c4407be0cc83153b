// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// Dense products are tosa.matmul on rank-3 operands: nn.dense with a known
// weight transposes it when compiling; nn.batch_matmul transposes its second
// operand at run time; relax.matmul of a stack of matrices by one matrix is
// one product of all the rows.

func.func @dense(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = relay.nn.dense(%x, %w) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

func.func @batch_matmul(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>) -> tensor<2x3x5xf32> {
  %r = relay.nn.batch_matmul(%x, %y) {transpose_b = true} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  func.return %r : tensor<2x3x5xf32>
}

func.func @relax_matmul(%x: tensor<2x3x4xf32>, %y: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %r = relay.relax.matmul(%x, %y) : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  func.return %r : tensor<2x3x5xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "dense"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const_shape"() {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V2:%.*]] = "tosa.reshape"([[V0]], [[V1]]) : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<1x2x3xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.const"() {values = dense<[[[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]]> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.matmul"([[V2]], [[V3]], [[V4]], [[V4]]) : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.const_shape"() {values = dense<2> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V7:%.*]] = "tosa.reshape"([[V5]], [[V6]]) : (tensor<1x2x2xf32>, !tosa.shape<2>) -> tensor<2x2xf32>
// CHECK-NEXT: "func.return"([[V7]]) : (tensor<2x2xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "batch_matmul"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3x4xf32>, [[V1:%.*]]: tensor<2x5x4xf32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.transpose"([[V1]]) {perms = array<i32: 0, 2, 1>} : (tensor<2x5x4xf32>) -> tensor<2x4x5xf32>
// CHECK-NEXT: [[V3:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.matmul"([[V0]], [[V2]], [[V3]], [[V3]]) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: "func.return"([[V4]]) : (tensor<2x3x5xf32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "relax_matmul"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x3x4xf32>, [[V1:%.*]]: tensor<4x5xf32>):
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[1, 6, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V3:%.*]] = "tosa.reshape"([[V0]], [[V2]]) : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<1x6x4xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.const_shape"() {values = dense<[1, 4, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V5:%.*]] = "tosa.reshape"([[V1]], [[V4]]) : (tensor<4x5xf32>, !tosa.shape<3>) -> tensor<1x4x5xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT: [[V7:%.*]] = "tosa.matmul"([[V3]], [[V5]], [[V6]], [[V6]]) : (tensor<1x6x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5xf32>
// CHECK-NEXT: [[V8:%.*]] = "tosa.const_shape"() {values = dense<[2, 3, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
// CHECK-NEXT: [[V9:%.*]] = "tosa.reshape"([[V7]], [[V8]]) : (tensor<1x6x5xf32>, !tosa.shape<3>) -> tensor<2x3x5xf32>
// CHECK-NEXT: "func.return"([[V9]]) : (tensor<2x3x5xf32>) -> ()
