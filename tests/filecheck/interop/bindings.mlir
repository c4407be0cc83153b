// relay.let survives upstream MLIR: a Relay let, an alias, a Relax output
// variable and a dataflow variable come back as the same ops, and the Relay
// text printed from them has the same let bindings.
// REQUIRES: mlir-opt-22
// RUN: xdsl-opt %s -t upstream-mlir | %UPSTREAM_ROUNDTRIP | filecheck %s
// RUN: xdsl-opt %s -t upstream-mlir | %UPSTREAM_ROUNDTRIP -t relay | filecheck %s --check-prefix=RELAY

func.func @main(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  %0 = relay.exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %y = relay.let %0 : tensor<4xf32>
  %z = relay.let %y : tensor<4xf32>
  %1 = relay.tuple(%y, %z) : tuple<tensor<4xf32>, tensor<4xf32>>
  %t = relay.let dataflow %1 : tuple<tensor<4xf32>, tensor<4xf32>>
  %out = relay.let %t : tuple<tensor<4xf32>, tensor<4xf32>>
  func.return %out : tuple<tensor<4xf32>, tensor<4xf32>>
}

// CHECK:      func.func @main(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
// CHECK-NEXT:   %0 = relay.exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %y = relay.let %0 : tensor<4xf32>
// CHECK-NEXT:   %z = relay.let %y : tensor<4xf32>
// CHECK-NEXT:   %1 = relay.tuple(%y, %z) : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   %t = relay.let dataflow %1 : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   %out = relay.let %t : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   func.return %out : tuple<tensor<4xf32>, tensor<4xf32>>

// RELAY:      def @main(%x: Tensor[(4), float32] /* ty=Tensor[(4), float32] */) -> (Tensor[(4), float32], Tensor[(4), float32]) {
// RELAY-NEXT:   let %y: Tensor[(4), float32] /* ty=Tensor[(4), float32] */ = exp(%x) /* ty=Tensor[(4), float32] */;
// RELAY-NEXT:   let %z: Tensor[(4), float32] /* ty=Tensor[(4), float32] */ = %y;
// RELAY-NEXT:   let %t: (Tensor[(4), float32], Tensor[(4), float32]) /* ty=(Tensor[(4), float32], Tensor[(4), float32]) */ = (%y, %z) /* ty=(Tensor[(4), float32], Tensor[(4), float32]) */;
// RELAY-NEXT:   let %out: (Tensor[(4), float32], Tensor[(4), float32]) /* ty=(Tensor[(4), float32], Tensor[(4), float32]) */ = %t;
// RELAY-NEXT:   %out
// RELAY-NEXT: }
