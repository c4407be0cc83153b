"""tile, repeat and reverse lowered, compiled and run against the interpreter:
reps longer and shorter than the rank, negative axes, odd sizes, a tensor
held in NHWC."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(11)
DATA = RNG.standard_normal((2, 3, 5)).astype(np.float32)
CONV_INPUTS = {
    "x": RNG.standard_normal((1, 3, 5, 5)).astype(np.float32),
    "w": RNG.standard_normal((4, 3, 3, 3)).astype(np.float32),
}
CONV = "nn.conv2d(%x, %w, padding=[1, 1])"
CONV_PARAMS = "%x: Tensor[(1, 3, 5, 5), float32], %w: Tensor[(4, 3, 3, 3), float32]"


def on_data(call: str, dtype: str = "float32") -> str:
    return f"def @main(%x: Tensor[(2, 3, 5), {dtype}]) {{ {call} }}"


CASES = {
    "tile_same_rank": (on_data("tile(%x, reps=[2, 1, 3])"), {"x": DATA}),
    "tile_longer_reps": (on_data("tile(%x, reps=[3, 1, 2, 1])"), {"x": DATA}),
    "tile_shorter_reps": (on_data("tile(%x, reps=[2, 2])"), {"x": DATA}),
    "tile_int8": (
        on_data("tile(%x, reps=[1, 2, 1])", "int8"),
        {"x": np.arange(30, dtype=np.int8).reshape(2, 3, 5)},
    ),
    "tile_nhwc": (f"def @main({CONV_PARAMS}) {{ tile({CONV}, reps=[2, 1, 1, 3]) }}", CONV_INPUTS),
    "repeat_middle": (on_data("repeat(%x, repeats=3, axis=1)"), {"x": DATA}),
    "repeat_negative_axis": (on_data("repeat(%x, repeats=2, axis=-1)"), {"x": DATA}),
    "repeat_bool": (
        on_data("repeat(%x, repeats=2, axis=0)", "bool"),
        {"x": RNG.integers(0, 2, (2, 3, 5)).astype(bool)},
    ),
    "reverse_first": (on_data("reverse(%x, axis=0)"), {"x": DATA}),
    "reverse_negative_axis": (on_data("reverse(%x, axis=-1)"), {"x": DATA}),
    "reverse_int32": (
        on_data("reverse(%x, axis=1)", "int32"),
        {"x": np.arange(30, dtype=np.int32).reshape(2, 3, 5)},
    ),
    "reverse_nhwc": (f"def @main({CONV_PARAMS}) {{ reverse({CONV}, axis=1) }}", CONV_INPUTS),
}


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
