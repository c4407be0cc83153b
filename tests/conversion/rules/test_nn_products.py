"""The dense products of rules/nn.py (dense, matmul, batch_matmul, relax.matmul)
lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(9)


def random(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def test_dense(lowered_run):
    lowered_run(
        "def @main(%x: Tensor[(2, 3, 4), float32], %w: Tensor[(5, 4), float32]) {"
        " nn.dense(%x, %w, units=5) }",
        x=random(2, 3, 4),
        w=random(5, 4),
    )


@pytest.mark.parametrize(("transpose_a", "transpose_b"), [(False, True), (True, False)])
def test_batch_matmul(lowered_run, transpose_a: bool, transpose_b: bool):
    a = random(2, 4, 3) if transpose_a else random(2, 3, 4)
    b = random(2, 5, 4) if transpose_b else random(2, 4, 5)
    lowered_run(
        f"def @main(%a: Tensor[{a.shape}, float32], %b: Tensor[{b.shape}, float32]) {{"
        f" nn.batch_matmul(%a, %b, transpose_a={transpose_a}, transpose_b={transpose_b}) }}",
        a=a,
        b=b,
    )


@pytest.mark.parametrize(("a", "b", "c"), [("2x3x4", "4x5", "2x3x5"), ("3x2x4", "3x4x6", "3x2x6")])
def test_relax_matmul(lowered_run, a: str, b: str, c: str):
    lowered_run(
        f"""
        func.func @main(%a: tensor<{a}xf32>, %b: tensor<{b}xf32>) -> tensor<{c}xf32> {{
          %r = relay.relax.matmul(%a, %b) : (tensor<{a}xf32>, tensor<{b}xf32>) -> tensor<{c}xf32>
          func.return %r : tensor<{c}xf32>
        }}
        """,
        a=random(*map(int, a.split("x"))),
        b=random(*map(int, b.split("x"))),
    )
