"""relay-simplify-inference: TVM's SimplifyInference, structurally and numerically."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import parameters
from relay_xdsl.transforms.simplify_inference import (
    RelaySimplifyInferencePass,
    simplify_inference,
)

from .interpreted import assert_same_outputs, outputs

TESTS = Path(__file__).resolve().parents[1]
CASES = TESTS / "filecheck" / "transforms" / "simplify_inference"
SEED = TESTS.parent / "examples" / "seed"


def _operators(module: ModuleOp) -> Counter[str]:
    return Counter(op.operator_name for op in module.walk() if isinstance(op, relay.OperatorOp))


def _simplified(text: str) -> tuple[ModuleOp, ModuleOp]:
    before = parse_relay(text)
    after = parse_relay(text)
    RelaySimplifyInferencePass().apply(Context(), after)
    after.verify()
    return before, after


def _inputs(module: ModuleOp) -> dict[str, np.ndarray]:
    """Random inputs with a positive variance (`%v`)."""
    rng = np.random.default_rng(1)
    inputs = {}
    for name, type_ in parameters(module):
        low, high = (0.5, 1.5) if name == "v" else (-1.0, 1.0)
        inputs[name] = rng.uniform(low, high, size=type_.get_shape()).astype(np.float32)
    return inputs


def test_seed_batch_norms_become_scale_and_shift():
    _, after = _simplified((SEED / "original.relay").read_text())
    operators = _operators(after)
    assert "nn.batch_norm" not in operators
    assert operators["expand_dims"] == 6  # a scale and a shift per batch norm
    assert operators["nn.conv2d"] == 3 and operators["sqrt"] == 3
    assert not any(isinstance(op, relay.TupleGetItemOp) for op in after.walk())


@pytest.mark.parametrize("case", ["batch_norm", "norms"])
def test_same_outputs(case: str):
    before, after = _simplified((CASES / f"{case}.relay").read_text())
    assert not {"nn.layer_norm", "nn.group_norm", "nn.instance_norm"} & set(_operators(after))
    assert_same_outputs(before, after, _inputs(before))


def test_batch_norm_moving_statistics_keep_the_batch_norm():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 3, 3), float32], %g: Tensor[(2), float32], %v: Tensor[(2), float32]) {
  %0 = nn.batch_norm(%x, %g, %g, %g, %v);
  (%0.0, %0.2)
}
"""
    _, after = _simplified(text)
    assert _operators(after)["nn.batch_norm"] == 1
    assert sum(isinstance(op, relay.TupleGetItemOp) for op in after.walk()) == 1


def test_unknown_types_are_left_alone():
    module = parse_relay(
        """#[version = "0.0.5"]
def @main(%x, %g, %b) {
  nn.layer_norm(%x, %g, %b)
}
"""
    )
    assert simplify_inference(module) == 0
    assert _operators(module) == Counter({"nn.layer_norm": 1})


def _normalised(x: np.ndarray, axes: tuple[int, ...], eps: float) -> np.ndarray:
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)


def test_simplified_norms_compute_the_normalisations():
    """The arithmetic alone (no normalisation kernel) against numpy's formulas."""
    _, after = _simplified((CASES / "norms.relay").read_text())
    inputs = _inputs(after)
    x, g, b, h, c = (inputs[name] for name in "xgbhc")
    layer, instance, group, l2, dropped = outputs(after, inputs)
    channel = (slice(None), None, None)
    np.testing.assert_allclose(layer, _normalised(x, (3,), 1e-5) * h + c, rtol=1e-5, atol=1e-5)
    expected = _normalised(x, (2, 3), 1e-5) * g[channel] + b[channel]
    np.testing.assert_allclose(instance, expected, rtol=1e-5, atol=1e-5)
    grouped = _normalised(x.reshape(2, 3, 2, 4, 4), (2, 3, 4), 1e-5).reshape(x.shape)
    expected = grouped * g[channel] + b[channel]
    np.testing.assert_allclose(group, expected, rtol=1e-5, atol=1e-5)
    norm = np.sqrt(np.maximum((x * x).sum(axis=1, keepdims=True), 1e-10))
    np.testing.assert_allclose(l2, x / norm, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(dropped, x)


def test_simplified_batch_norm_computes_the_batch_norm():
    text = (CASES / "batch_norm.relay").read_text()
    text = text.replace("  %4 = %0.1;\n", "").replace("(%1, %3, %4)", "(%1, %3)")
    _, after = _simplified(text)
    inputs = _inputs(after)
    x, y, g, b, m, v = (inputs[name] for name in "xygbmv")
    first, last_axis = outputs(after, inputs)
    channel = (slice(None), None, None)
    expected = (x - m[channel]) / np.sqrt(v[channel] + 1e-3) * g[channel] + b[channel]
    np.testing.assert_allclose(first, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(last_axis, (y - m) / np.sqrt(v + 1e-5), rtol=1e-5, atol=1e-5)
