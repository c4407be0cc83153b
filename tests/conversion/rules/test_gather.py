"""take lowered, compiled and run against the interpreter: slices for known
contiguous indices, tosa.gather otherwise."""

from __future__ import annotations

import numpy as np
import pytest

from relay_xdsl.conversion.rules.gather import bounded

RNG = np.random.default_rng(2)
DATA = RNG.standard_normal((3, 5, 4)).astype(np.float32)
RUN_TIME_INDICES = np.array([[4, -2, 0], [1, 9, -6]], dtype=np.int32)


def known_take(indices: str, index_type: str, result: str, attributes: str) -> str:
    return f"""
    func.func @main(%x: tensor<3x5x4xf32>) -> tensor<{result}xf32> {{
      %i = relay.constant dense<{indices}> : tensor<{index_type}>
      %r = relay.take(%x, %i) {{{attributes}}} : (tensor<3x5x4xf32>, tensor<{index_type}>)
        -> tensor<{result}xf32>
      func.return %r : tensor<{result}xf32>
    }}
    """


CASES = {
    # vit's class token: a slice, the axis reshaped away
    "known_scalar": (known_take("0", "i64", "5x4", 'axis = 0 : i32, mode = "fast"'), {"x": DATA}),
    "known_range": (
        known_take("[1, 2, 3]", "3xi64", "3x3x4", 'axis = 1 : i32, mode = "clip"'),
        {"x": DATA},
    ),
    "known_clip": (
        known_take("[[3, 0], [-1, 7]]", "2x2xi32", "3x2x2x4", 'axis = 1 : i32, mode = "clip"'),
        {"x": DATA},
    ),
    "known_wrap": (
        known_take("[[3, 0], [-1, 7]]", "2x2xi32", "3x2x2x4", 'axis = 1 : i32, mode = "wrap"'),
        {"x": DATA},
    ),
    "known_fast_last_axis": (
        known_take("[2, -1]", "2xi64", "3x5x2", 'axis = -1 : i32, mode = "fast"'),
        {"x": DATA},
    ),
    "known_flattened": (known_take("[59, 0, 13]", "3xi32", "3", 'mode = "clip"'), {"x": DATA}),
    # A known index along the channels of a tensor held in NHWC slices it there.
    "known_nhwc": (
        (
            "def @main(%x: Tensor[(1, 3, 5, 5), float32], %w: Tensor[(4, 3, 3, 3), float32]) {"
            " take(nn.conv2d(%x, %w, padding=[1, 1]), 2, axis=1) }"
        ),
        {
            "x": RNG.standard_normal((1, 3, 5, 5)).astype(np.float32),
            "w": RNG.standard_normal((4, 3, 3, 3)).astype(np.float32),
        },
    ),
}
for mode in ("clip", "wrap", "fast"):
    indices = RUN_TIME_INDICES
    if mode == "fast":  # in range, negative ones counted from the end
        indices = bounded(indices, 5, "clip").astype(np.int32) - 5 * (indices < 0)
    CASES[f"run_time_{mode}"] = (
        (
            "def @main(%x: Tensor[(3, 5, 4), float32], %i: Tensor[(2, 3), int32]) {"
            f' take(%x, %i, axis=1, mode="{mode}") }}'
        ),
        {"x": DATA, "i": indices.astype(np.int32)},
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
