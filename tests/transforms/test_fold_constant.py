"""relay-fold-constant: TVM's FoldConstant, with values (the interpreter) and without."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.transforms.diagnostics import RelayPassWarning
from relay_xdsl.transforms.fold_constant import RelayFoldConstantPass, fold_constants

from .interpreted import assert_same_outputs

TESTS = Path(__file__).resolve().parents[1]
CASES = TESTS / "filecheck" / "transforms" / "fold_constant"


def _operators(module: ModuleOp) -> Counter[str]:
    return Counter(op.operator_name for op in module.walk() if isinstance(op, relay.OperatorOp))


def _folded(text: str) -> tuple[ModuleOp, ModuleOp]:
    before, after = parse_relay(text), parse_relay(text)
    fold_constants(after)
    after.verify()
    return before, after


def test_values_fold_where_tvm_folds():
    before, after = _folded((CASES / "values.relay").read_text())
    assert _operators(after) == Counter(
        {"multiply": 1, "add": 3, "subtract": 1, "nn.dropout": 1, "zeros": 1}
    )
    assert_same_outputs(before, after)


def test_folded_values():
    _, after = _folded(
        """#[version = "0.0.5"]
def @main() {
  %0 = add(2f, 3f);
  %1 = multiply(%0, 4f);
  negative(%1)
}
"""
    )
    (constant,) = [op for op in after.walk() if isinstance(op, relay.ConstantOp)]
    assert constant.value is not None and constant.value.get_values() == (-20.0,)


def test_opaque_constants_fold_to_opaque_constants_numbered_by_use():
    _, after = _folded((CASES / "opaque.relay").read_text())
    constants = [op for op in after.walk() if isinstance(op, relay.ConstantOp)]
    assert [c.meta_index.value.data for c in constants if c.meta_index is not None] == [0, 1, 2]
    assert all(c.value is None for c in constants)
    assert _operators(after) == Counter({"multiply": 1, "add": 1, "subtract": 1})


def test_primitive_functions_are_not_folded():
    text = """#[version = "0.0.5"]
def @main(%x: float32) {
  %0 = fn (%p: float32, Primitive=1) {
    add(%p, add(1f, 2f))
  };
  %0(%x)
}
"""
    _, after = _folded(text)
    assert _operators(after)["add"] == 2


def test_a_tuple_result_folds_to_a_tuple_of_constants():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = (1f, 2f);
  %1 = %0.1;
  add(%x, %1)
}
"""
    _, after = _folded(text)
    assert not any(isinstance(op, relay.TupleGetItemOp | relay.TupleOp) for op in after.walk())


def test_calls_without_a_kernel_stay_with_a_warning(monkeypatch: pytest.MonkeyPatch):
    from relay_xdsl.interpreter import InterpreterError
    from relay_xdsl.transforms import fold_constant

    def no_kernel(op, args):
        raise InterpreterError(f"operator '{op.operator_name}' has no kernel yet")

    monkeypatch.setattr("relay_xdsl.interpreter.dispatch.run_operator", no_kernel)
    module = parse_relay('#[version = "0.0.5"]\ndef @main() { negative(1f) }\n')
    with pytest.warns(RelayPassWarning, match="negative"):
        RelayFoldConstantPass().apply(Context(), module)
    assert _operators(module) == Counter({"negative": 1})
    assert fold_constant.NOT_FOLDED  # the module is the one patched


def test_folded_subgraphs_compute_the_same():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3), float32]) {
  %0 = full(3f, shape=[2, 3], dtype="float32");
  %1 = mean(%0, axis=[1], keepdims=True);
  %2 = expand_dims(%1, axis=0);
  %3 = squeeze(%2, axis=[0]);
  %4 = multiply(%x, %3);
  %5 = sqrt(%0);
  %6 = transpose(%5, axes=[1, 0]);
  %7 = reshape(%6, newshape=[2, 3]);
  add(%4, %7)
}
"""
    before, after = _folded(text)
    assert _operators(after) == Counter({"multiply": 1, "add": 1})
    assert_same_outputs(before, after)


def test_an_if_on_a_constant_becomes_its_branch():
    text = """#[version = "0.0.5"]
def @main(%x: float32) {
  %0 = less(1f, 2f);
  if (%0) {
    let %y = add(%x, add(1f, 1f));
    %y
  } else {
    %x
  }
}
"""
    before, after = _folded(text)
    assert not any(isinstance(op, relay.IfOp) for op in after.walk())
    assert _operators(after) == Counter({"add": 1})
    assert_same_outputs(before, after)


COMPOSITE_ON_CONSTANTS = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 2), float32]) {
  %0 = fn (%a: float32, %b: float32, PartitionedFromPattern="add_nn.relu_", Composite="ccompiler.add_relu") {
    %1 = add(%a, %b);
    nn.relu(%1)
  };
  %2 = multiply(2f, 3f);
  %3 = %0(%2, %2);
  %4 = fn (%p0: Tensor[(2, 2), float32], Primitive=1) {
    %5 = subtract(4f, 1f);
    multiply(%p0, %5)
  };
  %6 = %4(%x);
  add(%3, %6)
}
"""


def test_composite_and_primitive_functions_stay_whole():
    """A Composite function called on constants is not evaluated (nor is its body
    touched), and a Primitive function's body keeps its computation on constants;
    only the multiply outside them folds."""
    before, after = _folded(COMPOSITE_ON_CONSTANTS)
    fns = [op for op in after.walk() if isinstance(op, relay.FnOp)]
    assert len(fns) == 2
    composite, primitive = fns
    assert "Composite" in composite.attributes and "Primitive" in primitive.attributes
    assert [
        op.operator_name for op in composite.body.walk() if isinstance(op, relay.OperatorOp)
    ] == [
        "add",
        "nn.relu",
    ]
    inside = [op.operator_name for op in primitive.body.walk() if isinstance(op, relay.OperatorOp)]
    assert inside == ["subtract", "multiply"]
    assert _operators(after) == Counter({"add": 2, "nn.relu": 1, "subtract": 1, "multiply": 1})
    assert_same_outputs(before, after)


def test_the_seeds_fused_module_is_left_as_it_is():
    """TVM's fused seed module: its composite calls take constants, and stay calls."""
    from relay_xdsl.exporters.relay_text import print_relay
    from relay_xdsl.interpreter.random_values import give_random_values

    module = parse_relay((TESTS.parent / "examples" / "seed" / "fused.relay").read_text())
    give_random_values(module, 0)
    expected = print_relay(module)
    RelayFoldConstantPass().apply(Context(), module)
    assert print_relay(module) == expected
