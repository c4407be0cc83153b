"""gelu, gelu_tanh, silu, leaky_relu and prelu lowered, compiled and run against the interpreter."""

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

CASES["leaky_relu"] = (
    "def @main(%x: Tensor[(3, 17), float32]) { nn.leaky_relu(%x, alpha=0.1f) }",
    {"x": X},
)
CASES["leaky_relu_float16"] = (
    "def @main(%x: Tensor[(3, 17), float16]) { nn.leaky_relu(%x, alpha=0.3f) }",
    {"x": X.astype(np.float16)},
)
CASES["prelu"] = (
    "def @main(%x: Tensor[(2, 3, 4, 5), float32], %a: Tensor[(3,), float32]) { nn.prelu(%x, %a) }",
    {"x": np.resize(X, (2, 3, 4, 5)), "a": np.array([0.5, -1.0, 2.0], np.float32)},
)
# The slopes along the last axis of an NHWC tensor that a convolution left so.
CASES["prelu_after_conv"] = (
    (
        "def @main(%x: Tensor[(1, 2, 5, 5), float32], %w: Tensor[(3, 2, 3, 3), float32],"
        " %a: Tensor[(5,), float32]) { nn.prelu(nn.conv2d(%x, %w, padding=[1, 1]), %a, axis=3) }"
    ),
    {
        "x": np.resize(X, (1, 2, 5, 5)),
        "w": np.resize(X, (3, 2, 3, 3)) / 4,
        "a": np.array([0.5, -1.0, 2.0, 0.0, 0.25], np.float32),
    },
)


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
