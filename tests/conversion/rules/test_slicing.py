"""strided_slice, relax.strided_slice, slice_like and split lowered, compiled and
run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(5)
DATA = RNG.standard_normal((4, 7, 6)).astype(np.float32)

STRIDED = {
    "contiguous": "begin=[1, 2, 0], end=[3, 7, 6], strides=[1, 1, 1]",
    "strides_and_reversal": "begin=[0, 1, 5], end=[4, 7, 0], strides=[2, 3, -2]",
    "listed_axis_padded": "begin=[-3], end=[100], strides=[2], axes=[1]",
    "reversed": "begin=[3, 6], end=[-5, -100], strides=[-1, -3]",
    "size_mode": 'begin=[1, 2], end=[2, -1], strides=[1], slice_mode="size"',
}
CASES = {
    f"strided_slice_{name}": (
        f"def @main(%x: Tensor[(4, 7, 6), float32]) {{ strided_slice(%x, {attributes}) }}",
        {"x": DATA},
    )
    for name, attributes in STRIDED.items()
}
# The slice of a tensor held in NHWC is cut there, its bounds permuted.
CASES["strided_slice_nhwc"] = (
    (
        "def @main(%x: Tensor[(1, 3, 6, 6), float32], %w: Tensor[(4, 3, 3, 3), float32]) {"
        " strided_slice(nn.conv2d(%x, %w, padding=[1, 1]),"
        " begin=[0, 1, 1, 0], end=[1, 4, 6, 5], strides=[1, 2, 2, 1]) }"
    ),
    {
        "x": RNG.standard_normal((1, 3, 6, 6)).astype(np.float32),
        "w": RNG.standard_normal((4, 3, 3, 3)).astype(np.float32),
    },
)
CASES["relax_strided_slice"] = (
    """
    func.func @main(%x: tensor<4x7x6xf32>) -> tensor<4x3x3xf32> {
      %r = relay.relax.strided_slice(%x) {axes = array<i32: 2, 1>,
        begin = array<i32: 4, 1>, end = array<i32: -100, 7>, strides = array<i32: -2, 2>}
        : (tensor<4x7x6xf32>) -> tensor<4x3x3xf32>
      func.return %r : tensor<4x3x3xf32>
    }
    """,
    {"x": DATA},
)
for name, attributes in {
    "sections": "indices_or_sections=3, axis=2",
    "indices": "indices_or_sections=[2, 5], axis=1",
}.items():
    CASES[f"split_{name}"] = (
        f"def @main(%x: Tensor[(4, 7, 6), float32]) {{ split(%x, {attributes}) }}",
        {"x": DATA},
    )


CASES["slice_like_all_axes"] = (
    "def @main(%x: Tensor[(4, 7, 6), float32], %y: Tensor[(3, 5, 6), int32]) { slice_like(%x, %y) }",
    {"x": DATA, "y": np.zeros((3, 5, 6), np.int32)},
)
CASES["slice_like_negative_axis"] = (
    (
        "def @main(%x: Tensor[(4, 7, 6), float32], %y: Tensor[(2, 2, 3), float32]) {"
        " slice_like(%x, %y, axes=[-1]) }"
    ),
    {"x": DATA, "y": np.zeros((2, 2, 3), np.float32)},
)

for start, end, step, width in [(0, 8, 2, 4), (1, 4, 1, 3), (7, 0, -3, 3)]:
    CASES[f"relax_slice_scatter_{start}_{end}_{step}"] = (
        f"""
        func.func @main(%x: tensor<2x8xf32>, %s: tensor<2x{width}xf32>) -> tensor<2x8xf32> {{
          %r = relay.relax.slice_scatter(%x, %s)
            {{start = {start} : i64, end = {end} : i64, step = {step} : i64, axis = 1 : i32}}
            : (tensor<2x8xf32>, tensor<2x{width}xf32>) -> tensor<2x8xf32>
          func.return %r : tensor<2x8xf32>
        }}
        """,
        {
            "x": np.arange(16, dtype=np.float32).reshape(2, 8),
            "s": -1 - np.arange(2 * width, dtype=np.float32).reshape(2, width),
        },
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
