// A call of another Relay function is lowered in place (the callee's body
// inlined); each relay.fn group becomes a private function, named uniquely
// across the module's functions.
// RUN: xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | filecheck %s
// RUN: %if mlir-opt-22 %{ xdsl-opt %s -p convert-relay-to-tosa --print-op-generic | mlir-opt-22 --tosa-validate > /dev/null %}

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = relay.nn.relu(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @g(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = relay.fn(%p = %x : tensor<2x3xf32>) -> tensor<2x3xf32> attributes {Primitive = 1 : i32} {
    %s = relay.exp(%p) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    relay.return %s : tensor<2x3xf32>
  }
  func.return %e : tensor<2x3xf32>
}

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = func.call @f(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = relay.fn(%p = %0 : tensor<2x3xf32>) -> tensor<2x3xf32> attributes {Primitive = 1 : i32} {
    %s = relay.negative(%p) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    relay.return %s : tensor<2x3xf32>
  }
  %1 = relay.add(%0, %n) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// CHECK:      "func.func"() <{sym_name = "f"
// CHECK:        "tosa.clamp"
// CHECK:      "func.func"() <{sym_name = "fused_exp_0", {{.*}}sym_visibility = "private"
// CHECK:        "tosa.exp"
// CHECK:      "func.func"() <{sym_name = "g"
// CHECK:        "func.call"(%{{.*}}) <{callee = @fused_exp_0}>
// CHECK:      "func.func"() <{sym_name = "fused_negative_1", {{.*}}sym_visibility = "private"
// CHECK:        "tosa.negate"
// CHECK:      "func.func"() <{sym_name = "main"
// CHECK-NOT:    callee = @f}
// CHECK:        %[[RELU:.*]] = "tosa.clamp"
// CHECK:        %[[NEG:.*]] = "func.call"(%[[RELU]]) <{callee = @fused_negative_1}>
// CHECK:        "tosa.add"(%[[RELU]], %[[NEG]])
