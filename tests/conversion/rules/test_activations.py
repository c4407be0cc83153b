"""gelu, gelu_tanh and silu lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.parametrize("operator", ["gelu", "gelu_tanh", "silu"])
def test_activation(lowered_run, operator: str):
    x = (np.random.default_rng(1).standard_normal((3, 17)) * 3).astype(np.float32)
    lowered_run(
        f"""
        func.func @main(%x: tensor<3x17xf32>) -> tensor<3x17xf32> {{
          %r = relay.relax.nn.{operator}(%x) : (tensor<3x17xf32>) -> tensor<3x17xf32>
          func.return %r : tensor<3x17xf32>
        }}
        """,
        x=x,
    )
