"""The dense products of rules/nn.py (dense, batch_matmul, relax.matmul)
lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(9)


def random(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


CASES = {
    "dense": (
        (
            "def @main(%x: Tensor[(2, 3, 4), float32], %w: Tensor[(5, 4), float32]) {"
            " nn.dense(%x, %w, units=5) }"
        ),
        {"x": random(2, 3, 4), "w": random(5, 4)},
    ),
}
for transpose_a, transpose_b in [(False, True), (True, False)]:
    a = random(2, 4, 3) if transpose_a else random(2, 3, 4)
    b = random(2, 5, 4) if transpose_b else random(2, 4, 5)
    CASES[f"batch_matmul_{transpose_a}_{transpose_b}"] = (
        (
            f"def @main(%a: Tensor[{a.shape}, float32], %b: Tensor[{b.shape}, float32]) {{"
            f" nn.batch_matmul(%a, %b, transpose_a={transpose_a}, transpose_b={transpose_b}) }}"
        ),
        {"a": a, "b": b},
    )
for a_shape, b_shape, c_shape in [("2x3x4", "4x5", "2x3x5"), ("3x2x4", "3x4x6", "3x2x6")]:
    CASES[f"relax_matmul_{a_shape}_{b_shape}"] = (
        f"""
        func.func @main(%a: tensor<{a_shape}xf32>, %b: tensor<{b_shape}xf32>)
            -> tensor<{c_shape}xf32> {{
          %r = relay.relax.matmul(%a, %b)
            : (tensor<{a_shape}xf32>, tensor<{b_shape}xf32>) -> tensor<{c_shape}xf32>
          func.return %r : tensor<{c_shape}xf32>
        }}
        """,
        {
            "a": random(*map(int, a_shape.split("x"))),
            "b": random(*map(int, b_shape.split("x"))),
        },
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
