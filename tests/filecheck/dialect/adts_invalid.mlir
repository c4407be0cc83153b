// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One case per verification error of the ops for algebraic data types
// (adts.py), in the order of docs/dialect.md. Function values and if:
// language/invalid.mlir.

// CHECK: Operation does not verify: type 'T' repeats a type parameter
relay.type_def "T" ["A", "A"] {C}
// -----
// CHECK: Operation does not verify: extern type 'S' may not have constructors
"relay.type_def"() {type_name = "S", type_params = [], constructors = [#relay.constructor<"C", []>], extern} : () -> ()
// -----
// CHECK: Operation does not verify: constructor 'C' of 'T' uses type variable 'B', which is not a parameter of 'T'
relay.type_def "T" {C(!relay.type_var<"B">)}
// -----
// CHECK: Operation does not verify: type 'T' is defined twice
relay.type_def "T" {C}
relay.type_def "T" {D}
// -----
// CHECK: Operation does not verify: constructor 'C' is defined by both 'U' and 'T'
relay.type_def "T" {C}
relay.type_def "U" {C}
// -----
// CHECK: Operation does not verify: 'relay.type_def' expects parent op 'builtin.module'
func.func @f() {
  relay.type_def "T" {C}
  func.return
}
// -----
// CHECK: Operation does not verify: unknown constructor 'C'
func.func @f() -> !relay.adt<"T"> {
  %c = relay.construct "C"() : () -> !relay.adt<"T">
  func.return %c : !relay.adt<"T">
}
// -----
// CHECK: Operation does not verify: constructor 'C' builds a 'T', but the result type is !relay.adt<"U">
relay.type_def "T" {C}
relay.type_def "U" {D}
func.func @f() -> !relay.adt<"U"> {
  %c = relay.construct "C"() : () -> !relay.adt<"U">
  func.return %c : !relay.adt<"U">
}
// -----
// CHECK: Operation does not verify: 'L' takes 1 type argument(s), the result type gives 0
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f() -> !relay.adt<"L"> {
  %c = relay.construct "Nil"() : () -> !relay.adt<"L">
  func.return %c : !relay.adt<"L">
}
// -----
// CHECK: Operation does not verify: constructor 'Cons' takes 2 field(s), got 1
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%x: tensor<f32>) -> !relay.adt<"L", [tensor<f32>]> {
  %c = relay.construct "Cons"(%x) : (tensor<f32>) -> !relay.adt<"L", [tensor<f32>]>
  func.return %c : !relay.adt<"L", [tensor<f32>]>
}
// -----
// CHECK: Operation does not verify: field #0 of 'Cons' has type tensor<i32>, expected tensor<f32>
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%x: tensor<i32>, %l: !relay.adt<"L", [tensor<f32>]>) -> !relay.adt<"L", [tensor<f32>]> {
  %c = relay.construct "Cons"(%x, %l) : (tensor<i32>, !relay.adt<"L", [tensor<f32>]>) -> !relay.adt<"L", [tensor<f32>]>
  func.return %c : !relay.adt<"L", [tensor<f32>]>
}
// -----
// CHECK: Operation does not verify: type (tensor<f32>, !relay.adt<"L", [tensor<i32>]>) -> !relay.adt<"L", [tensor<f32>]> is not an instance of constructor 'Cons''s type (!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>) -> !relay.adt<"L", [!relay.type_var<"A">]>
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f() {
  %c = relay.constructor "Cons" : (tensor<f32>, !relay.adt<"L", [tensor<i32>]>) -> !relay.adt<"L", [tensor<f32>]>
  func.return
}
// -----
// CHECK: Operation does not verify: 'relay.match' has 0 pattern(s) but 1 clause(s)
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = "relay.match"(%l) ({
  ^bb0(%x: tensor<f32>):
    "relay.match_yield"(%x) : (tensor<f32>) -> ()
  }) {patterns = []} : (!relay.adt<"L", [tensor<f32>]>) -> tensor<f32>
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: clause #0: a tuple pattern of 2 field(s) cannot match a value of type !relay.adt<"L", [tensor<f32>]>
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<"L", [tensor<f32>]> -> tensor<f32> {
    case (%a : tensor<f32>, _) {
      relay.match_yield %a : tensor<f32>
    }
  }
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: clause #0: unknown constructor 'Foo'
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<"L", [tensor<f32>]> -> tensor<f32> {
    case Foo(%a : tensor<f32>) {
      relay.match_yield %a : tensor<f32>
    }
  }
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: clause #0: constructor 'zero' of 'nat' cannot match a value of type !relay.adt<"L", [tensor<f32>]>
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
relay.type_def "nat" {zero}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<"L", [tensor<f32>]> -> tensor<f32> {
    case zero {
      relay.match_yield %r : tensor<f32>
    }
  }
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: clause #0: constructor 'Cons' has 2 field(s), the pattern gives 1
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<"L", [tensor<f32>]> -> tensor<f32> {
    case Cons(%a : tensor<f32>) {
      relay.match_yield %a : tensor<f32>
    }
  }
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: clause #0 binds 0 variable(s) but its block takes 1 argument(s)
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = "relay.match"(%l) ({
  ^bb0(%x: tensor<f32>):
    "relay.match_yield"(%x) : (tensor<f32>) -> ()
  }) {patterns = [#relay.pattern_wildcard]} : (!relay.adt<"L", [tensor<f32>]>) -> tensor<f32>
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: clause #0: a pattern variable of type tensor<f32> is bound to a block argument of type tensor<i32>
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<"L", [tensor<f32>]> -> tensor<f32> {
    case Cons(%a : tensor<i32>, _) {
      %z = relay.constant dense<1.0> : tensor<f32>
      relay.match_yield %z : tensor<f32>
    }
  }
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: clause #0 yields !relay.adt<"L", [tensor<f32>]>, but the match has type tensor<f32>
relay.type_def "L" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"L", [!relay.type_var<"A">]>), Nil}
func.func @f(%l: !relay.adt<"L", [tensor<f32>]>) -> tensor<f32> {
  %r = relay.match %l : !relay.adt<"L", [tensor<f32>]> -> tensor<f32> {
    case Cons(_, %rest : !relay.adt<"L", [tensor<f32>]>) {
      relay.match_yield %rest : !relay.adt<"L", [tensor<f32>]>
    }
  }
  func.return %r : tensor<f32>
}
// -----
// CHECK: Operation does not verify: 'relay.match_yield' expects parent op 'relay.match'
func.func @f(%x: tensor<f32>) {
  "relay.match_yield"(%x) : (tensor<f32>) -> ()
}
