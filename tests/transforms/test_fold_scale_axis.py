"""relay-fold-scale-axis: TVM's FoldScaleAxis, structurally and numerically."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.transforms.diagnostics import PassOptionError
from relay_xdsl.transforms.fold_scale_axis import (
    Message,
    RelayFoldScaleAxisPass,
    intersect,
    match_broadcast_to_left_axes,
)

from .interpreted import assert_same_outputs

TESTS = Path(__file__).resolve().parents[1]
CASES = TESTS / "filecheck" / "transforms" / "fold_scale_axis" / "Inputs"


def _operators(module: ModuleOp) -> Counter[str]:
    return Counter(op.operator_name for op in module.walk() if isinstance(op, relay.OperatorOp))


def _folded(text: str, direction: str = "both") -> tuple[ModuleOp, ModuleOp]:
    before, after = parse_relay(text), parse_relay(text)
    RelayFoldScaleAxisPass(direction=direction).apply(Context(), after)
    after.verify()
    return before, after


def test_match_broadcast_to_left_axes():
    assert match_broadcast_to_left_axes([1, 8, 4, 4], [8, 1, 1], [1])
    assert match_broadcast_to_left_axes([1, 4, 4, 8], [8], [3])
    assert not match_broadcast_to_left_axes([1, 8, 4, 4], [8], [1])
    assert not match_broadcast_to_left_axes([1, 8, 4, 4], [1, 8, 4, 4], [1])


def test_intersect():
    assert intersect(Message((1, 2)), Message((2,), True)) == Message((2,), True)
    assert intersect(None, Message((1,))) is None


@pytest.mark.parametrize("direction", ["backward", "forward"])
def test_same_outputs(direction: str):
    before, after = _folded((CASES / f"{direction}.relay").read_text(), direction)
    assert _operators(after)["multiply"] > 0
    assert_same_outputs(before, after, tolerance=1e-4)


def test_seed_scales_go_into_the_weights():
    text = (TESTS.parent / "examples" / "seed" / "original.relay").read_text()
    from relay_xdsl.transforms.simplify_inference import simplify_inference

    module = parse_relay(text)
    simplify_inference(module)
    RelayFoldScaleAxisPass().apply(Context(), module)
    convolutions = [op for op in module.walk() if isinstance(op, relay.OperatorOp)]
    weights = [op.operands[1].owner for op in convolutions if op.operator_name == "nn.conv2d"]
    assert all(isinstance(w, relay.OperatorOp) and w.operator_name == "multiply" for w in weights)
    # The convolution's result goes straight to the add of the shift.
    for conv in (op for op in convolutions if op.operator_name == "nn.conv2d"):
        (use,) = conv.results[0].uses
        assert isinstance(use.operation, relay.OperatorOp)
        assert use.operation.operator_name == "add"


def test_a_shared_convolution_keeps_its_scale():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(3, 2, 1, 1), float32], %s: Tensor[(3, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, kernel_size=[1, 1]);
  %1 = multiply(%0, %s);
  (%0, %1)
}
"""
    _, after = _folded(text)
    assert _operators(after) == Counter({"nn.conv2d": 1, "multiply": 1})


def test_a_relu_needs_a_known_non_negative_scale():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(3, 2, 1, 1), float32], %s: Tensor[(3, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, kernel_size=[1, 1]);
  %1 = nn.relu(%0);
  multiply(%1, %s)
}
"""
    _, after = _folded(text)
    assert _operators(after) == Counter({"nn.conv2d": 1, "nn.relu": 1, "multiply": 1})


def test_grouped_convolutions_are_left_alone():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 4, 4), float32], %w: Tensor[(4, 2, 1, 1), float32], %s: Tensor[(4, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, groups=2, kernel_size=[1, 1]);
  multiply(%0, %s)
}
"""
    _, after = _folded(text)
    assert _operators(after) == Counter({"nn.conv2d": 1, "multiply": 1})


def test_direction_option():
    with pytest.raises(PassOptionError, match="direction"):
        RelayFoldScaleAxisPass(direction="sideways")
