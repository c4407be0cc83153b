// Hand-written TOSA through relay-xdsl's pass pipeline (%mlir_pipeline) and
// mlir-runner (%mlir_runner): the substitutions the lowering's execution tests use.
// REQUIRES: mlir-runner-22
// RUN: mlir-opt-22 %mlir_pipeline %s | %mlir_runner | filecheck %s

func.func @model(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<1x2x2xf32>) attributes {llvm.emit_c_interface} {
  %bias = "tosa.const"() {values = dense<[[-2.0, 0.0, 2.0]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %sum = tosa.add %x, %bias : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %relu = tosa.clamp %sum {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s1 = tosa.const_shape {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[1, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %a = tosa.reshape %x, %s1 : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<1x2x3xf32>
  %b = tosa.reshape %w, %s2 : (tensor<3x2xf32>, !tosa.shape<3>) -> tensor<1x3x2xf32>
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %product = tosa.matmul %a, %b, %zero, %zero : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %relu, %product : tensor<2x3xf32>, tensor<1x2x2xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %relu, %product = call @model(%x, %w) : (tensor<2x3xf32>, tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<1x2x2xf32>)
  %0 = tensor.cast %relu : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%0) : (tensor<*xf32>) -> ()
  %1 = tensor.cast %product : tensor<1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%1) : (tensor<*xf32>) -> ()
  return
}

// CHECK:      rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[0,   2,   5],
// CHECK-NEXT:  [2,   5,   8]]
// CHECK:      rank = 3 offset = 0 sizes = [1, 2, 2] strides = [4, 2, 1] data =
// CHECK-NEXT: {{\[}}{{\[}}[4,    5],
// CHECK-NEXT:   [10,    11]]]
