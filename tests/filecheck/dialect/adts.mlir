// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | %RELAY_ROUNDTRIP | filecheck %s

// Round trip of the ops for algebraic data types (relay.type_def,
// // relay.construct, relay.constructor, relay.match, relay.match_yield), with
// a generic global and a constructor called as function values (relay.global,
// relay.call), in custom and generic syntax.

relay.type_def "List" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"List", [!relay.type_var<"A">]>), Nil}
relay.type_def "nat" {zero, succ(!relay.adt<"nat">)}
relay.type_def extern "Storage"
func.func @hd(%xs: !relay.adt<"List", [!relay.type_var<"A">]>) -> !relay.type_var<"A"> attributes {type_params = [!relay.type_var<"A">]} {
  %r = relay.match partial %xs : !relay.adt<"List", [!relay.type_var<"A">]> -> !relay.type_var<"A"> {
    case Cons(%x : !relay.type_var<"A">, _) {
      relay.match_yield %x : !relay.type_var<"A">
    }
  }
  func.return %r : !relay.type_var<"A">
}
func.func @zip(%xs: !relay.adt<"List", [tensor<f32>]>, %ys: !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]> {
  %t = relay.tuple(%xs, %ys) : tuple<!relay.adt<"List", [tensor<f32>]>, !relay.adt<"List", [tensor<f32>]>>
  %r = relay.match %t : tuple<!relay.adt<"List", [tensor<f32>]>, !relay.adt<"List", [tensor<f32>]>> -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]> {
    case (Cons(%x : tensor<f32>, _), Cons(%y : tensor<f32>, _)) {
      %p = relay.tuple(%x, %y) : tuple<tensor<f32>, tensor<f32>>
      %nil = relay.construct "Nil"() : () -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
      %l = relay.construct "Cons"(%p, %nil) : (tuple<tensor<f32>, tensor<f32>>, !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>) -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
      relay.match_yield %l : !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
    }
    case _ {
      %n = relay.construct "Nil"() : () -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
      relay.match_yield %n : !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
    }
  }
  func.return %r : !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
}
func.func @values(%xs: !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]> {
  %hd = relay.global @hd : (!relay.adt<"List", [tensor<f32>]>) -> tensor<f32>
  %cons = relay.constructor "Cons" : (tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>
  %0 = relay.call %hd(%xs) : ((!relay.adt<"List", [tensor<f32>]>) -> tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> tensor<f32>
  %1 = relay.call %cons(%0, %xs) : ((tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>, tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>
  func.return %1 : !relay.adt<"List", [tensor<f32>]>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   relay.type_def "List" ["A"] {Cons(!relay.type_var<"A">, !relay.adt<"List", [!relay.type_var<"A">]>), Nil}
// CHECK-NEXT:   relay.type_def "nat" {zero, succ(!relay.adt<"nat">)}
// CHECK-NEXT:   relay.type_def extern "Storage"
// CHECK-NEXT:   func.func @hd(%xs: !relay.adt<"List", [!relay.type_var<"A">]>) -> !relay.type_var<"A"> attributes {type_params = [!relay.type_var<"A">]} {
// CHECK-NEXT:     %r = relay.match partial %xs : !relay.adt<"List", [!relay.type_var<"A">]> -> !relay.type_var<"A"> {
// CHECK-NEXT:       case Cons(%x : !relay.type_var<"A">, _) {
// CHECK-NEXT:         relay.match_yield %x : !relay.type_var<"A">
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %r : !relay.type_var<"A">
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @zip(%xs: !relay.adt<"List", [tensor<f32>]>, %ys: !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]> {
// CHECK-NEXT:     %t = relay.tuple(%xs, %ys) : tuple<!relay.adt<"List", [tensor<f32>]>, !relay.adt<"List", [tensor<f32>]>>
// CHECK-NEXT:     %r = relay.match %t : tuple<!relay.adt<"List", [tensor<f32>]>, !relay.adt<"List", [tensor<f32>]>> -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]> {
// CHECK-NEXT:       case (Cons(%x : tensor<f32>, _), Cons(%y : tensor<f32>, _)) {
// CHECK-NEXT:         %p = relay.tuple(%x, %y) : tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT:         %nil = relay.construct "Nil"() : () -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
// CHECK-NEXT:         %l = relay.construct "Cons"(%p, %nil) : (tuple<tensor<f32>, tensor<f32>>, !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>) -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
// CHECK-NEXT:         relay.match_yield %l : !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
// CHECK-NEXT:       }
// CHECK-NEXT:       case _ {
// CHECK-NEXT:         %n = relay.construct "Nil"() : () -> !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
// CHECK-NEXT:         relay.match_yield %n : !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %r : !relay.adt<"List", [tuple<tensor<f32>, tensor<f32>>]>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @values(%xs: !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]> {
// CHECK-NEXT:     %hd = relay.global @hd : (!relay.adt<"List", [tensor<f32>]>) -> tensor<f32>
// CHECK-NEXT:     %cons = relay.constructor "Cons" : (tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>
// CHECK-NEXT:     %0 = relay.call %hd(%xs) : ((!relay.adt<"List", [tensor<f32>]>) -> tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> tensor<f32>
// CHECK-NEXT:     %1 = relay.call %cons(%0, %xs) : ((tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>, tensor<f32>, !relay.adt<"List", [tensor<f32>]>) -> !relay.adt<"List", [tensor<f32>]>
// CHECK-NEXT:     func.return %1 : !relay.adt<"List", [tensor<f32>]>
// CHECK-NEXT:   }
// CHECK-NEXT: }
