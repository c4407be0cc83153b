// The schedule keeps a matmul's reduction a rolled loop: an scf.for over K in
// steps of 8, carrying the 8x32 accumulator, one vector.contract per step (the
// remainders of M, N and K peeled into loops of their own), so that the code
// does not grow with K. Run: every output sums all K products.
// REQUIRES: mlir-runner-22
// RUN: mlir-opt-22 %mlir_schedule %s | filecheck %s
// RUN: mlir-opt-22 %mlir_scheduled_pipeline %s | %mlir_runner | filecheck %s --check-prefix=OUT

// CHECK-LABEL: func.func @dense
// CHECK:       scf.for %{{.*}} = %c0 to %c1000 step %c8 iter_args(%{{.*}}) -> (vector<8x32xf32>)
// CHECK:         vector.contract {{.*}} : vector<8x8xf32>, vector<8x32xf32> into vector<8x32xf32>
// CHECK-NOT:   vector<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}x
// CHECK-LABEL: func.func @batched
// CHECK:       scf.for %{{.*}} = %c0 to %c296 step %c8 iter_args(%{{.*}}) -> (vector<8x32xf32>)
// CHECK:         vector.contract {{.*}} : vector<8x8xf32>, vector<8x32xf32> into vector<8x32xf32>
// CHECK-NOT:   vector<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}x
// CHECK-LABEL: func.func @main
func.func @dense(%a: tensor<1x10x1000xf32>, %b: tensor<1x1000x40xf32>) -> tensor<1x10x40xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %out = tosa.matmul %a, %b, %zp, %zp : (tensor<1x10x1000xf32>, tensor<1x1000x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x10x40xf32>
  return %out : tensor<1x10x40xf32>
}

func.func @batched(%a: tensor<2x10x300xf32>, %b: tensor<2x300x40xf32>) -> tensor<2x10x40xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %out = tosa.matmul %a, %b, %zp, %zp : (tensor<2x10x300xf32>, tensor<2x300x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x10x40xf32>
  return %out : tensor<2x10x40xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %ones = arith.constant dense<1.0> : tensor<1x10x1000xf32>
  %halves = arith.constant dense<0.5> : tensor<1x1000x40xf32>
  %dense = call @dense(%ones, %halves) : (tensor<1x10x1000xf32>, tensor<1x1000x40xf32>) -> tensor<1x10x40xf32>
  %0 = tensor.cast %dense : tensor<1x10x40xf32> to tensor<*xf32>
  call @printMemrefF32(%0) : (tensor<*xf32>) -> ()
  %twos = arith.constant dense<2.0> : tensor<2x10x300xf32>
  %quarters = arith.constant dense<0.25> : tensor<2x300x40xf32>
  %batched = call @batched(%twos, %quarters) : (tensor<2x10x300xf32>, tensor<2x300x40xf32>) -> tensor<2x10x40xf32>
  %1 = tensor.cast %batched : tensor<2x10x40xf32> to tensor<*xf32>
  call @printMemrefF32(%1) : (tensor<*xf32>) -> ()
  return
}

// Every row of 40 outputs, 500 = 1000 * 1 * 0.5 and 150 = 300 * 2 * 0.25.
// OUT:      sizes = [1, 10, 40]
// OUT-COUNT-10: {{\[}}500{{(, +500){39}\]}}
// OUT:      sizes = [2, 10, 40]
// OUT-COUNT-20: {{\[}}150{{(, +150){39}\]}}
