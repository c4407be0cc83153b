// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// cast: tosa.cast, after truncating floats toward zero for an integer type
// (TOSA rounds to nearest); to bool, integers cast (TOSA's != 0) and floats
// compare with zero; bool to a float goes through i8.

func.func @to_int(%x: tensor<4xf32>) -> tensor<4xi32> {
  %r = relay.cast(%x) {dtype = "int32"} : (tensor<4xf32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

func.func @float_to_bool(%x: tensor<4xf32>) -> tensor<4xi1> {
  %r = relay.cast(%x) {dtype = "bool"} : (tensor<4xf32>) -> tensor<4xi1>
  func.return %r : tensor<4xi1>
}

func.func @int_to_bool(%x: tensor<4xi8>) -> tensor<4xi1> {
  %r = relay.cast(%x) {dtype = "bool"} : (tensor<4xi8>) -> tensor<4xi1>
  func.return %r : tensor<4xi1>
}

func.func @bool_to_float(%x: tensor<4xi1>) -> tensor<4xf32> {
  %r = relay.cast(%x) {dtype = "float32"} : (tensor<4xi1>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// The emitted TOSA, in order:
// CHECK-LABEL: "func.func"() <{sym_name = "to_int"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<4xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.greater"([[V1]], [[V0]]) : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: [[V3:%.*]] = "tosa.ceil"([[V0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: [[V4:%.*]] = "tosa.floor"([[V0]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: [[V5:%.*]] = "tosa.select"([[V2]], [[V3]], [[V4]]) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: [[V6:%.*]] = "tosa.cast"([[V5]]) : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: "func.return"([[V6]]) : (tensor<4xi32>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "float_to_bool"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<4xf32>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT: [[V2:%.*]] = "tosa.equal"([[V0]], [[V1]]) : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
// CHECK-NEXT: [[V3:%.*]] = "tosa.logical_not"([[V2]]) : (tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: "func.return"([[V3]]) : (tensor<4xi1>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "int_to_bool"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<4xi8>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.cast"([[V0]]) : (tensor<4xi8>) -> tensor<4xi1>
// CHECK-NEXT: "func.return"([[V1]]) : (tensor<4xi1>) -> ()
// CHECK-LABEL: "func.func"() <{sym_name = "bool_to_float"
// CHECK-NEXT: ^bb0([[V0:%.*]]: tensor<4xi1>):
// CHECK-NEXT: [[V1:%.*]] = "tosa.cast"([[V0]]) : (tensor<4xi1>) -> tensor<4xi8>
// CHECK-NEXT: [[V2:%.*]] = "tosa.cast"([[V1]]) : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT: "func.return"([[V2]]) : (tensor<4xf32>) -> ()
