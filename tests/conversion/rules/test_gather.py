"""take, gather, gather_nd and one_hot lowered, compiled and run against the
interpreter: slices for known contiguous indices, tosa.gather otherwise;
negative indices, batch dimensions, booleans, negative axes."""

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


GATHER_INDICES = RNG.integers(-5, 5, (3, 2, 4)).astype(np.int32)
CASES["gather_axis_1"] = (
    (
        "def @main(%x: Tensor[(3, 5, 4), float32], %i: Tensor[(3, 2, 4), int32]) {"
        " gather(%x, %i, axis=1) }"
    ),
    {"x": DATA, "i": GATHER_INDICES},
)
CASES["gather_negative_axis_int64_indices"] = (
    (
        "def @main(%x: Tensor[(3, 5, 4), float32], %i: Tensor[(3, 5, 6), int64]) {"
        " gather(%x, %i, axis=-1) }"
    ),
    {"x": DATA, "i": RNG.integers(-4, 4, (3, 5, 6))},
)
CASES["gather_known_indices_int8"] = (
    """
    func.func @main(%x: tensor<2x3xi8>) -> tensor<3x3xi8> {
      %i = relay.constant dense<[[1, 0, 1], [0, -1, 1], [1, 1, 0]]> : tensor<3x3xi32>
      %r = relay.gather(%x, %i) {axis = 0 : i32} : (tensor<2x3xi8>, tensor<3x3xi32>) -> tensor<3x3xi8>
      func.return %r : tensor<3x3xi8>
    }
    """,
    {"x": np.array([[1, -2, 3], [4, 5, -6]], np.int8)},
)
CASES["gather_bool"] = (
    "def @main(%x: Tensor[(4, 3), bool], %i: Tensor[(2, 3), int32]) { gather(%x, %i, axis=0) }",
    {
        "x": RNG.integers(0, 2, (4, 3)).astype(bool),
        "i": np.array([[3, 0, 1], [2, 2, -1]], np.int32),
    },
)
CASES["gather_int64"] = (
    "def @main(%x: Tensor[(4, 3), int64], %i: Tensor[(2, 3), int32]) { gather(%x, %i, axis=0) }",
    {
        "x": np.array([[2**40 + 5, -1, 0], [-(2**63), 2**63 - 1, 7], [-(2**33), 3, -9], [1, 2, 3]]),
        "i": np.array([[3, 0, 1], [2, 1, -1]], np.int32),
    },
)
CASES["take_bool"] = (
    "def @main(%x: Tensor[(5, 2), bool], %i: Tensor[(3,), int32]) { take(%x, %i, axis=0) }",
    {"x": RNG.integers(0, 2, (5, 2)).astype(bool), "i": np.array([4, 0, 2], np.int32)},
)
CASES["gather_nd"] = (
    "def @main(%x: Tensor[(3, 5, 4), float32], %i: Tensor[(2, 6), int32]) { gather_nd(%x, %i) }",
    {"x": DATA, "i": np.array([[0, 2, 1, -1, 2, 0], [4, 0, 3, 1, -5, 2]], np.int32)},
)
CASES["gather_nd_all_dimensions"] = (
    "def @main(%x: Tensor[(3, 5, 4), float32], %i: Tensor[(3, 2, 2), int32]) { gather_nd(%x, %i) }",
    {"x": DATA, "i": RNG.integers(0, 3, (3, 2, 2)).astype(np.int32)},
)
CASES["gather_nd_batch_dims"] = (
    (
        "def @main(%x: Tensor[(3, 5, 4), float32], %i: Tensor[(1, 3, 2), int64]) {"
        " gather_nd(%x, %i, batch_dims=1) }"
    ),
    {"x": DATA, "i": RNG.integers(0, 5, (1, 3, 2))},
)
for name, axis, dtype in [("last", -1, "float32"), ("first", 0, "int32"), ("middle", 1, "float16")]:
    CASES[f"one_hot_{name}_{dtype}"] = (
        (
            f"def @main(%i: Tensor[(2, 3), int32], %on: Tensor[(), {dtype}],"
            f" %off: Tensor[(), {dtype}]) {{"
            f' one_hot(%i, %on, %off, depth=4, axis={axis}, dtype="{dtype}") }}'
        ),
        {
            "i": np.array([[0, 3, 5], [-1, 2, 1]], np.int32),
            "on": np.array(7, dtype),
            "off": np.array(-1, dtype),
        },
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
