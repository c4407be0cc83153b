"""gelu, gelu_tanh and silu lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

X = (np.random.default_rng(1).standard_normal((3, 17)) * 3).astype(np.float32)

CASES = {
    operator: (
        f"""
        func.func @main(%x: tensor<3x17xf32>) -> tensor<3x17xf32> {{
          %r = relay.relax.nn.{operator}(%x) : (tensor<3x17xf32>) -> tensor<3x17xf32>
          func.return %r : tensor<3x17xf32>
        }}
        """,
        {"x": X},
    )
    for operator in ("gelu", "gelu_tanh", "silu")
}


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
