// dense_resource constants keep their blob through upstream MLIR: the
// generic printout carries the resource section, and mlir-opt passes it on.
// REQUIRES: mlir-opt-22
// RUN: xdsl-opt %s -t upstream-mlir | %UPSTREAM_ROUNDTRIP | filecheck %s

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = relay.constant dense_resource<blob1> : tensor<2xf32>
  %0 = relay.add(%x, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}

// CHECK:      func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:   %c = relay.constant dense_resource<blob1> : tensor<2xf32>
// CHECK:        blob1: "0x040000000000803F00000040"
