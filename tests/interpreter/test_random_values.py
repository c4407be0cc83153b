"""Random constants drawn by role (weights by fan-in, scales near 1, the rest small),
random inputs, and sizes refused before anything is drawn."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import InterpreterError, parameters, run
from relay_xdsl.interpreter.random_values import (
    SCALE,
    SMALL,
    constant_intervals,
    give_random_values,
    random_constants,
    random_inputs,
)

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed"
TEXTS = ROOT / "bench" / "tvm019" / "texts"

FUSED_BATCH_NORM = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 3, 3), float32]) {
  %0 = fn (%v: Tensor[(2), float32], %d: Tensor[(1, 2, 3, 3), float32], Primitive=1) {
    %1 = nn.batch_norm(%d, meta[relay.Constant][0], meta[relay.Constant][1], meta[relay.Constant][2], %v);
    %1.0
  };
  %0(meta[relay.Constant][3], %x)
}
"""

LAYERS = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 5, 5), float32], %t: Tensor[(4, 6), float32]) {
  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(16, 8, 3, 3), float32] */, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);
  %1 = nn.bias_add(%0, meta[relay.Constant][1] /* ty=Tensor[(16), float32] */);
  %2 = nn.relu(%1);
  %3 = nn.conv2d(%2, meta[relay.Constant][2] /* ty=Tensor[(3, 3, 4, 16), float32] */, padding=[1, 1, 1, 1], groups=4, channels=16, kernel_size=[3, 3], kernel_layout="HWIO");
  %4 = nn.batch_matmul(meta[relay.Constant][3] /* ty=Tensor[(1, 4, 12), float32] */, meta[relay.Constant][4] /* ty=Tensor[(1, 7, 12), float32] */, transpose_b=True);
  %5 = nn.dense(%t, transpose(meta[relay.Constant][5] /* ty=Tensor[(6, 9), float32] */));
  %6 = nn.layer_norm(%5, meta[relay.Constant][6] /* ty=Tensor[(9), float32] */, meta[relay.Constant][7] /* ty=Tensor[(9), float32] */);
  (%3, %4, divide(%6, meta[relay.Constant][8] /* ty=Tensor[(9), float32] */), cast(meta[relay.Constant][9] /* ty=Tensor[(9), int32] */, dtype="float32"))
}
"""


def _bound(gain_squared: float, fan_in: int) -> tuple[float, float]:
    bound = math.sqrt(3.0 * gain_squared / fan_in)
    return (-bound, bound)


def test_roles_come_from_the_operators_that_read_the_constants():
    module = parse_relay(LAYERS)
    assert constant_intervals(module) == {
        0: _bound(2, 8 * 3 * 3),  # He: the conv feeds a ReLU through its bias
        2: _bound(1, 3 * 3 * 4),  # LeCun; HWIO: O is the last axis
        3: _bound(1, 12),  # batch_matmul contracts a's last axis
        4: _bound(1, 12),  # and b's last with transpose_b
        5: _bound(1, 6),  # dense contracts its weight's last axis, here through a transpose
        6: SCALE,  # layer norm gamma
        8: SCALE,  # divisor
    }
    drawn = random_constants(module, 0)
    for index, array in drawn.items():
        low, high = constant_intervals(module).get(index, SMALL)
        if array.dtype == np.float32:
            assert low <= array.min() and array.max() <= high, index
    assert drawn[9].dtype == np.int32 and 0 <= drawn[9].min() and drawn[9].max() < 8


def test_a_variance_is_followed_through_a_function_parameter():
    module = parse_relay(FUSED_BATCH_NORM)
    assert constant_intervals(module) == {0: SCALE, 3: SCALE}  # gamma and the variance
    values = random_constants(module, 0)
    assert (values[3] > 0).all() and (values[0] > 0).all()
    assert any((values[i] < 0).any() for i in (1, 2))  # beta and mean are small, of any sign


def test_the_draws_are_one_stream_in_index_order():
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    drawn = random_constants(module, 0)
    intervals = constant_intervals(module)
    rng = np.random.RandomState(0)
    for index in sorted(drawn):
        low, high = intervals.get(index, SMALL)
        expected = rng.uniform(low, high, size=drawn[index].shape).astype(np.float32)
        np.testing.assert_array_equal(drawn[index], expected)


def test_the_seed_runs_to_finite_outputs_on_random_constants():
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    inputs = random_inputs(parameters(module), 1)
    (output,) = run(module, inputs, random_constants=0)
    assert np.isfinite(output).all() and 0.1 < output.std() < 10


def test_given_values_are_the_random_constants():
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    inputs = random_inputs(parameters(module), 1)
    (expected,) = run(module, inputs, random_constants=0)
    give_random_values(module, 0)
    module.verify()
    constants = [op for op in module.walk() if isinstance(op, relay.ConstantOp)]
    assert constants and all(op.meta_index is None and op.value for op in constants)
    (actual,) = run(module, inputs)
    np.testing.assert_array_equal(actual, expected)


def _model_text(name: str, dtype: str) -> str:
    """A TVM 0.19 text of the bench, its split indices filled in, cast to `dtype` by spelling."""
    text = (TEXTS / f"{name}.relay").read_text()
    sidecar = TEXTS / f"{name}.meta.json"
    if sidecar.exists():
        box_ints = json.loads(sidecar.read_text())["runtime.BoxInt"]
        text = re.sub(r"meta\[runtime\.BoxInt\]\[(\d+)\]", lambda m: str(box_ints[int(m[1])]), text)
    if dtype == "float16":
        text = text.replace("float32", "float16")
        text = re.sub(r"(\d|inf)f(?=[,) ])", r"\1f16", text)  # float literals
    return text


@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("name", ["resnet50", "mobilenet_v2", "gpt2"])
def test_real_models_stay_finite_and_depend_on_their_input(name: str, dtype: str):
    """Uniform [-1, 1) weights took resnet50 to NaN and mobilenet_v2 to 3e38;
    drawn by role, outputs stay within a few hundred, in float16 too, and
    another input changes them."""
    module = parse_relay(_model_text(name, dtype), f"{name}.relay")
    first, second = (
        run(module, random_inputs(parameters(module), seed), random_constants=0)[0]
        for seed in (0, 1)
    )
    assert first.dtype == np.dtype(dtype)
    assert np.isfinite(first).all() and np.abs(first).max() < 300
    assert np.abs(first.astype(np.float64) - second).max() > 1e-3


def test_sizes_beyond_the_machine_are_refused_before_drawing():
    huge = "Tensor[(100000, 100000, 100000), float32]"
    module = parse_relay(f'#[version = "0.0.5"]\ndef @main(%x: {huge}) {{ %x }}')
    with pytest.raises(
        InterpreterError,
        match=rf"input %x: 4e\+15 bytes \({re.escape(huge)}\) is more than the .* GiB this machine has",
    ):
        random_inputs(parameters(module), 0)
    module = parse_relay(
        f'#[version = "0.0.5"]\ndef @main() {{ meta[relay.Constant][2] /* ty={huge} */ }}'
    )
    with pytest.raises(InterpreterError, match=r"meta\[relay.Constant\]\[2\]: 4e\+15 bytes"):
        random_constants(module, 0)


def test_many_arrays_are_refused_together(monkeypatch):
    from relay_xdsl.interpreter import arrays

    monkeypatch.setattr(arrays, "machine_memory", lambda: 1000)
    module = parse_relay(
        '#[version = "0.0.5"]\n'
        "def @main(%a: Tensor[(200), float32], %b: Tensor[(200), float32]) { add(%a, %b) }"
    )
    with pytest.raises(InterpreterError, match=r"the random inputs: 1\.6e\+03 bytes in all"):
        random_inputs(parameters(module), 0)
