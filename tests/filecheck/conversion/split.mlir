// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// split: one tosa.slice per piece; the tuple's fields are the results.

func.func @split(%x: tensor<2x6xf32>) -> (tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32>) {
  %t = relay.split(%x) {indices_or_sections = [1, 4], axis = 1 : i32}
    : (tensor<2x6xf32>) -> tuple<tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32>>
  %a = relay.tuple_get_item %t[0] : tuple<tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32>>
  %b = relay.tuple_get_item %t[1] : tuple<tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32>>
  %c = relay.tuple_get_item %t[2] : tuple<tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32>>
  func.return %a, %b, %c : tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "split"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<2x6xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const_shape"() {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V2:%.*]] = "tosa.const_shape"() {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V3:%.*]] = "tosa.slice"([[V0]], [[V1]], [[V2]]) : (tensor<2x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x1xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.const_shape"() {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V5:%.*]] = "tosa.const_shape"() {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V6:%.*]] = "tosa.slice"([[V0]], [[V4]], [[V5]]) : (tensor<2x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xf32>
// CHECK-NEXT: [[V7:%.*]] = "tosa.const_shape"() {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V8:%.*]] = "tosa.const_shape"() {values = dense<2> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: [[V9:%.*]] = "tosa.slice"([[V0]], [[V7]], [[V8]]) : (tensor<2x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
// CHECK-NEXT: "func.return"([[V3]], [[V6]], [[V9]]) : (tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32>) -> ()
