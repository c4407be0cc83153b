"""Running whole programs: structure, control flow, closures, references, ADTs, and errors."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import InterpreterError, parameters, run
from relay_xdsl.support.depth import NestingTooDeepError, run_deep


def program(body: str) -> ModuleOp:
    return parse_relay(f'#[version = "0.0.5"]\n{body}', "test")


A = np.array([1.0, -2.0], np.float32)


def test_a_graph_with_a_tuple_result_flattens():
    module = program(
        "def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {\n"
        "  %0 = add(%x, %y);\n  ((%0, negative(%0)), %x)\n}"
    )
    first, second, third = run(module, {"x": A, "y": A})
    assert first.tolist() == [2, -4] and second.tolist() == [-2, 4] and third.tolist() == [1, -2]


def test_let_tuple_projection_and_a_fused_function():
    module = program(
        "def @main(%x: Tensor[(2), float32]) {\n"
        "  let %t = (%x, exp(%x));\n"
        "  %0 = fn (%p0: Tensor[(2), float32], Primitive=1) -> Tensor[(2), float32] {\n"
        "    multiply(%p0, 3f)\n  };\n"
        "  %0(%t.1)\n}"
    )
    (result,) = run(module, {"x": A})
    np.testing.assert_allclose(result, np.exp(A) * 3, rtol=1e-6)


def test_closures_globals_and_generic_functions():
    module = program(
        "def @id[A](%x: A) -> A { %x }\n"
        "def @apply(%f: fn (Tensor[(2), float32]) -> Tensor[(2), float32], "
        "%x: Tensor[(2), float32]) -> Tensor[(2), float32] { %f(%x) }\n"
        "def @main(%a: Tensor[(2), float32]) {\n"
        "  let %scale = multiply(%a, 2f);\n"
        "  let %add_scale = fn (%y: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
        "    add(%y, %scale)\n  };\n"
        "  let %twice = fn (%y) { %add_scale(%add_scale(%y)) };\n"
        "  let %pair = (%add_scale, %a);\n"
        "  %0 = @apply(%pair.0, %pair.1);\n"
        "  (%twice(%0), @id(%0))\n}"
    )
    twice, same = run(module, {"a": A})
    assert twice.tolist() == [7, -14] and same.tolist() == [3, -6]


def test_recursion_through_if():
    module = program(
        "def @sum_to(%n: int32) -> int32 {\n"
        "  if (%n == 0) { %n } else { add(%n, @sum_to(%n - 1)) }\n}\n"
        "def @main(%n: int32) { @sum_to(%n) }"
    )
    assert run(module, {"n": np.array(10, np.int32)})[0].tolist() == 55


def test_a_recursive_local_function():
    module = program(
        "def @main(%n: int32) {\n"
        "  let %fact = fn (%k: int32) -> int32 {\n"
        "    if (%k == 0) { 1 } else { multiply(%k, %fact(%k - 1)) }\n  };\n"
        "  %fact(%n)\n}"
    )
    assert run(module, {"n": np.array(5, np.int32)})[0].tolist() == 120


def test_references_are_shared_by_closures():
    module = program(
        "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
        "  let %r = ref(%x);\n"
        "  let %bump = fn () { ref_write(%r, add(ref_read(%r), %x)) };\n"
        "  %bump();\n  %bump();\n  ref_read(%r)\n}"
    )
    assert run(module, {"x": A})[0].tolist() == [3, -6]


LIST = (
    "type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}\n"
    "def @sum(%xs: List[int32]) -> int32 {\n"
    "  match (%xs) {\n    Cons(%y, %rest) => add(%y, @sum(%rest)),\n    Nil => 0,\n  }\n}\n"
)


def test_constructors_and_match():
    module = program(
        LIST + "def @main(%a: int32, %b: int32) {\n"
        "  let %xs = Cons(%a, Cons(%b, Cons(%b, Nil)));\n"
        "  match (%xs) {\n"
        "    Cons(%first, Cons(_, %tail)) => (%first, @sum(%tail), @sum(%xs)),\n"
        "    _ => (0, 0, 0),\n  }\n}"
    )
    values = run(module, {"a": np.array(5, np.int32), "b": np.array(2, np.int32)})
    assert [v.tolist() for v in values] == [5, 2, 9]


def test_a_partial_match_without_a_clause_is_an_error():
    module = program(
        LIST + "def @main(%a: int32) {\n  match? (Nil) {\n    Cons(%x, _) => %x,\n  }\n}"
    )
    with pytest.raises(InterpreterError, match="no clause matches the value \\(Nil\\)"):
        run(module, {"a": np.array(1, np.int32)})


def test_device_annotations_are_identities():
    module = program(
        "def @main(%x: Tensor[(2), float32]) {\n"
        "  %0 = on_device(%x, virtual_device=meta[VirtualDevice][0], constrain_result=True);\n"
        "  %1 = device_copy(%0, src_virtual_device=meta[VirtualDevice][0], "
        "dst_virtual_device=meta[VirtualDevice][0]);\n"
        "  exp(%1)\n}\n"
    )
    np.testing.assert_allclose(run(module, {"x": A})[0], np.exp(A), rtol=1e-6)


GRAPH = "def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) { add(%x, %y) }"


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"x": A}, "missing input y"),
        ({"x": A, "y": A, "z": A}, "unknown input z \\(the parameters are: x, y\\)"),
        ({"x": A, "y": A[:1]}, "input y is \\(1,\\) float32, the parameter is \\(2,\\) float32"),
        ({"x": A, "y": A.astype(np.float64)}, "input y is \\(2,\\) float64"),
    ],
)
def test_bad_inputs(inputs, message):
    with pytest.raises(InterpreterError, match=message):
        run(program(GRAPH), inputs)


def test_parameters_and_an_unknown_function():
    module = program(GRAPH)
    assert [name for name, _ in parameters(module)] == ["x", "y"]
    with pytest.raises(InterpreterError, match="no function @other"):
        run(module, {}, function="other")


def test_an_unknown_operator_is_an_error_naming_it():
    module = program(
        "def @main(%x: Tensor[(2), float32]) { my.op(%x) /* ty=Tensor[(2), float32] */ }"
    )
    with pytest.raises(InterpreterError, match="operator 'my.op' is unknown"):
        run(module, {"x": A})


def test_constants_without_values_need_a_seed():
    text = (
        "def @main(%x: Tensor[(2), float32]) {\n"
        "  add(%x, meta[relay.Constant][0] /* ty=Tensor[(2), float32] */)\n}"
    )
    module = program(text)
    with pytest.raises(InterpreterError, match="--random-constants SEED"):
        run(module, {"x": A})
    first = run(module, {"x": A}, random_constants=7)[0]
    again = run(module, {"x": A}, random_constants=7)[0]
    np.testing.assert_array_equal(first, again)
    constant = np.random.RandomState(7).uniform(-0.1, 0.1, size=(2,)).astype(np.float32)
    np.testing.assert_array_equal(first, A + constant)  # a constant without a role is small


def test_deep_recursion_has_room_within_the_opt_in_and_an_error_passes_up_quickly():
    module = program(
        LIST + "def @build(%n: int32) -> List[int32] {\n"
        "  if (%n == 0) { Nil } else { Cons(%n, @build(%n - 1)) }\n}\n"
        "def @main(%n: int32) { @sum(@build(%n)) }"
    )
    n = np.array(3000, np.int32)
    assert run_deep(run, module, {"n": n})[0].tolist() == 3000 * 3001 // 2
    with pytest.raises(NestingTooDeepError, match=r"the run .* relay_xdsl\.run_deep"):
        run(module, {"n": n})
    failing = program(
        LIST + "def @down(%n: int32) -> int32 {\n"
        "  if (%n == 0) { match? (Nil) { Cons(%x, _) => %x, } } else { @down(%n - 1) }\n}\n"
        "def @main(%n: int32) { @down(%n) }"
    )
    with pytest.raises(InterpreterError, match="no clause matches") as raised:
        run_deep(run, failing, {"n": n})
    assert not getattr(raised.value, "__notes__", None)  # the module is not printed into it


def test_constants_from_the_metadata_section():
    from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType, f32, i64

    from relay_xdsl.relay_text.metadata import encode_metadata

    weights = DenseIntOrFPElementsAttr(
        TensorType(f32, [2]), BytesAttr(np.float32([1, 2]).tobytes())
    )
    index = DenseIntOrFPElementsAttr(
        TensorType(i64, [3]), BytesAttr(np.int64([5, -1, 7]).tobytes())
    )
    module = program(
        "def @main(%x: Tensor[(2), float32]) {\n"
        "  %0 = add(%x, meta[relay.Constant][0]);\n"
        "  (%0, meta[relay.Constant][1])\n"
        "}\n#[metadata]\n" + "".join(encode_metadata([weights, index]))
    )
    total, indices = run(module, {"x": A})
    assert total.tolist() == [2, 0] and indices.tolist() == [5, -1, 7]
