// argmin (reductions.py): tosa.argmax of the negated data; select_last_index
// reverses the axis and counts the index back from its end.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

func.func @argmin_last(%x: tensor<3x5xf32>) -> tensor<3xi32> {
  %r = relay.argmin(%x) {axis = [1], select_last_index = true} : (tensor<3x5xf32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}

// CHECK-LABEL: sym_name = "argmin_last"
// CHECK-NEXT:  ^bb0(%[[X:.*]]: tensor<3x5xf32>):
// CHECK-NEXT:  %[[ZERO:.*]] = "tosa.const"() {values = dense<0.000000e+00> : tensor<1xf32>}
// CHECK-NEXT:  %[[NEG:.*]] = "tosa.negate"(%[[X]], %[[ZERO]], %[[ZERO]]) : (tensor<3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:  %[[REV:.*]] = "tosa.reverse"(%[[NEG]]) {axis = 1 : i32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:  %[[ARG:.*]] = "tosa.argmax"(%[[REV]]) {axis = 1 : i32} : (tensor<3x5xf32>) -> tensor<3xi32>
// CHECK-NEXT:  %[[LAST:.*]] = "tosa.const"() {values = dense<4> : tensor<1xi32>}
// CHECK-NEXT:  %[[R:.*]] = "tosa.sub"(%[[LAST]], %[[ARG]]) : (tensor<1xi32>, tensor<3xi32>) -> tensor<3xi32>
// CHECK-NEXT:  "func.return"(%[[R]])
