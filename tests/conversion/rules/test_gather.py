"""take lowered, compiled and run against the interpreter: slices for known
contiguous indices, tosa.gather otherwise."""

from __future__ import annotations

import numpy as np
import pytest

from relay_xdsl.conversion.rules.gather import bounded

DATA = np.random.default_rng(2).standard_normal((3, 5, 4)).astype(np.float32)


def known_take(indices: str, index_type: str, result: str, attributes: str) -> str:
    return f"""
    func.func @main(%x: tensor<3x5x4xf32>) -> tensor<{result}xf32> {{
      %i = relay.constant dense<{indices}> : tensor<{index_type}>
      %r = relay.take(%x, %i) {{{attributes}}} : (tensor<3x5x4xf32>, tensor<{index_type}>)
        -> tensor<{result}xf32>
      func.return %r : tensor<{result}xf32>
    }}
    """


@pytest.mark.parametrize(
    ("indices", "index_type", "result", "attributes"),
    [
        ("0", "i64", "5x4", 'axis = 0 : i32, mode = "fast"'),  # vit's class token: a slice
        ("[1, 2, 3]", "3xi64", "3x3x4", 'axis = 1 : i32, mode = "clip"'),  # a slice
        ("[[3, 0], [-1, 7]]", "2x2xi32", "3x2x2x4", 'axis = 1 : i32, mode = "clip"'),
        ("[[3, 0], [-1, 7]]", "2x2xi32", "3x2x2x4", 'axis = 1 : i32, mode = "wrap"'),
        ("[2, -1]", "2xi64", "3x5x2", 'axis = -1 : i32, mode = "fast"'),
        ("[59, 0, 13]", "3xi32", "3", 'mode = "clip"'),  # of the flattened data
    ],
)
def test_take_known_indices(lowered_run, indices, index_type, result, attributes):
    lowered_run(known_take(indices, index_type, result.removesuffix("xf32"), attributes), x=DATA)


@pytest.mark.parametrize("mode", ["clip", "wrap", "fast"])
def test_take_indices_at_run_time(lowered_run, mode: str):
    indices = np.array([[4, -2, 0], [1, 9, -6]], dtype=np.int32)
    if mode == "fast":
        indices = bounded(indices, 5, "clip").astype(np.int32)
    lowered_run(
        "def @main(%x: Tensor[(3, 5, 4), float32], %i: Tensor[(2, 3), int32]) {"
        f' take(%x, %i, axis=1, mode="{mode}") }}',
        x=DATA,
        i=indices,
    )


def test_take_of_an_nhwc_activation(lowered_run):
    """A known index along the channels of a tensor held in NHWC slices it there."""
    lowered_run(
        "def @main(%x: Tensor[(1, 3, 5, 5), float32], %w: Tensor[(4, 3, 3, 3), float32]) {"
        " take(nn.conv2d(%x, %w, padding=[1, 1]), 2, axis=1) }",
        x=np.random.default_rng(3).standard_normal((1, 3, 5, 5)).astype(np.float32),
        w=np.random.default_rng(4).standard_normal((4, 3, 3, 3)).astype(np.float32),
    )
