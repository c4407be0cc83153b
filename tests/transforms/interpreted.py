"""Numeric checks of rewrites: a module and its rewrite, run by the interpreter on the same random inputs."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.interpreter import parameters, run
from relay_xdsl.interpreter.random_values import random_inputs


def outputs(module: ModuleOp, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """`module`'s outputs on `inputs`; an operator without a kernel fails the test."""
    return run(module, inputs)


def assert_same_outputs(
    before: ModuleOp,
    after: ModuleOp,
    inputs: dict[str, np.ndarray] | None = None,
    tolerance: float = 1e-5,
) -> None:
    """`before` and `after` compute the same outputs, within `tolerance`, on
    `inputs` (default: random ones)."""
    if inputs is None:
        inputs = random_inputs(parameters(before), seed=0)
    expected, actual = outputs(before, inputs), outputs(after, inputs)
    assert len(expected) == len(actual)
    for want, got in zip(expected, actual):
        assert want.shape == got.shape and want.dtype == got.dtype
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)
