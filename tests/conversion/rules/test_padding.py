"""nn.pad and nn.mirror_pad lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(11)


def pad_case(
    shape: tuple[int, ...],
    widths: str,
    attrs: str = "",
    value: str = "1.5f",
    dtype: str = "float32",
) -> tuple[str, dict[str, np.ndarray]]:
    """``nn.pad`` of random data of `shape` by `widths`, padding with the constant `value`."""
    text = (
        f"def @main(%x: Tensor[{shape}, {dtype}]) {{"
        f" nn.pad(%x, {value}, pad_width={widths}{attrs}) }}"
    )
    return text, {"x": RNG.standard_normal(shape).astype(dtype)}


CASES = {
    "pad_constant": pad_case((2, 3, 4), "[[0, 0], [1, 2], [3, 0]]"),
    "pad_constant_rank5": pad_case((1, 2, 3, 4, 2), "[[0, 1], [1, 0], [2, 1], [0, 0], [1, 1]]"),
    "pad_negative": pad_case((3, 6, 5), "[[-1, 1], [2, -3], [-1, -2]]"),
    "pad_edge": pad_case((2, 3, 4), "[[1, 0], [2, 3], [0, 2]]", ', pad_mode="edge"'),
    "pad_edge_negative": pad_case((3, 5), "[[-1, 2], [3, -2]]", ', pad_mode="edge"'),
    "pad_reflect": pad_case((2, 4, 5), "[[1, 1], [3, 0], [2, 4]]", ', pad_mode="reflect"'),
    "pad_float16": pad_case((2, 5), "[[1, 2], [0, 3]]", value="-2f16", dtype="float16"),
}
# A pad value computed at run time: tosa.pad takes only a constant, so the borders are tiled.
CASES["pad_runtime_value"] = (
    (
        "def @main(%x: Tensor[(2, 3, 4), float32], %v: float32) {"
        " nn.pad(%x, %v, pad_width=[[1, 0], [0, 2], [-1, 1]]) }"
    ),
    {"x": RNG.standard_normal((2, 3, 4)).astype(np.float32), "v": np.array(-7.0, np.float32)},
)
# Padding an activation held in NHWC pads its physical axes.
CASES["pad_after_conv"] = (
    (
        "def @main(%x: Tensor[(1, 2, 5, 5), float32], %w: Tensor[(3, 2, 3, 3), float32]) {"
        " nn.pad(nn.conv2d(%x, %w), 0f, pad_width=[[0, 0], [0, 0], [1, 2], [2, 1]],"
        ' pad_mode="reflect") }'
    ),
    {
        "x": RNG.standard_normal((1, 2, 5, 5)).astype(np.float32),
        "w": RNG.standard_normal((3, 2, 3, 3)).astype(np.float32),
    },
)
for mode in ("SYMMETRIC", "REFLECT"):
    for widths in ("[[0, 0], [2, 1], [1, 3]]", "[[1, 2], [0, 0], [4, 0]]"):
        name = f"mirror_pad_{mode.lower()}_{len(CASES)}"
        CASES[name] = (
            (
                "def @main(%x: Tensor[(3, 4, 5), float32]) {"
                f' nn.mirror_pad(%x, mode="{mode}", pad_width={widths}) }}'
            ),
            {"x": RNG.standard_normal((3, 4, 5)).astype(np.float32)},
        )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
