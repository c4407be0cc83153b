"""Random constants and inputs: batch-norm variances drawn non-negative, values given to the module."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import parameters, run
from relay_xdsl.interpreter.arrays import (
    give_random_values,
    random_constants,
    random_inputs,
    variance_constants,
)

SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"

FUSED_BATCH_NORM = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 3, 3), float32]) {
  %0 = fn (%v: Tensor[(2), float32], %d: Tensor[(1, 2, 3, 3), float32], Primitive=1) {
    %1 = nn.batch_norm(%d, meta[relay.Constant][0], meta[relay.Constant][1], meta[relay.Constant][2], %v);
    %1.0
  };
  %0(meta[relay.Constant][3], %x)
}
"""


def test_the_seeds_variances_are_its_batch_norms_fifth_arguments():
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    assert variance_constants(module) == {4, 9, 14}


def test_a_variance_is_followed_through_a_function_parameter():
    module = parse_relay(FUSED_BATCH_NORM)
    assert variance_constants(module) == {3}
    values = random_constants(module, 0)
    assert (values[3] >= 0).all()
    assert any((values[i] < 0).any() for i in (0, 1, 2))  # the others keep their sign


def test_variances_are_the_absolute_values_of_the_same_draws():
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    drawn = random_constants(module, 0)
    rng = np.random.RandomState(0)
    for index in sorted(drawn):
        plain = rng.uniform(-1.0, 1.0, size=drawn[index].shape).astype(np.float32)
        expected = np.abs(plain) if index in {4, 9, 14} else plain
        np.testing.assert_array_equal(drawn[index], expected)


def test_the_seed_runs_to_finite_outputs_on_random_constants():
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    inputs = random_inputs(parameters(module), 1)
    (output,) = run(module, inputs, random_constants=0)
    assert np.isfinite(output).all() and output.std() > 0.01


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
