"""The reductions lowered, compiled and run against the interpreter: all, any,
argmax and argmin (ties, select_last_index, several axes, exclude), mean
and variance (float16 summed in float32, integers truncated), sums of
narrow integers, products of integers, collapse_sum_like."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(13)
DATA = RNG.standard_normal((3, 4, 5)).astype(np.float32)
TIES = RNG.integers(-2, 3, (3, 4, 5))
FLAGS = RNG.integers(0, 4, (3, 4, 5)) > 0


def reduce(operator: str, dtype: str, attributes: str = "") -> str:
    """`operator` of a (3, 4, 5) tensor of `dtype`."""
    return f"def @main(%x: Tensor[(3, 4, 5), {dtype}]) {{ {operator}(%x{attributes}) }}"


AXES = {
    "all_axes": "",
    "axis_1": ", axis=[1]",
    "negative_axis_keepdims": ", axis=[-1], keepdims=True",
    "two_axes": ", axis=[0, 2]",
    "exclude": ", axis=[1], exclude=True",
}
CASES = {}
for operator in ("all", "any"):
    for name, attributes in AXES.items():
        CASES[f"{operator}_{name}"] = (reduce(operator, "bool", attributes), {"x": FLAGS})
for operator in ("argmax", "argmin"):
    for name, attributes in AXES.items():
        CASES[f"{operator}_{name}"] = (reduce(operator, "float32", attributes), {"x": DATA})
    for dtype in ("int8", "int16", "int32", "int64", "float16", "bool"):
        CASES[f"{operator}_ties_{dtype}"] = (
            reduce(operator, dtype, ", axis=[1]"),
            {"x": TIES.astype(dtype)},
        )
        CASES[f"{operator}_ties_last_{dtype}"] = (
            reduce(operator, dtype, ", axis=[-1, 0], select_last_index=True, keepdims=True"),
            {"x": TIES.astype(dtype)},
        )
WITH_NAN = DATA.copy()
WITH_NAN[1, 2, 3] = WITH_NAN[2, 0, 1] = np.nan
for operator in ("argmax", "argmin"):
    CASES[f"{operator}_nan"] = (reduce(operator, "float32", ", axis=[2]"), {"x": WITH_NAN})
for name, attributes in AXES.items():
    CASES[f"mean_{name}"] = (reduce("mean", "float32", attributes), {"x": DATA})
for dtype in ("float16", "int8", "int32"):
    data = (RNG.standard_normal((3, 4, 5)) * 3).astype(dtype)
    CASES[f"mean_{dtype}"] = (reduce("mean", dtype, ", axis=[1, 2]"), {"x": data})
    CASES[f"sum_{dtype}"] = (reduce("sum", dtype, ", axis=[0]"), {"x": data})
for dtype in ("int8", "int32", "int64"):
    CASES[f"prod_{dtype}"] = (reduce("prod", dtype, ", axis=[1, 2]"), {"x": TIES.astype(dtype)})
CASES["mean_int8_wrapping"] = (
    reduce("mean", "int8", ", axis=[2]"),
    {"x": np.full((3, 4, 5), 100, np.int8)},
)
for dtype in ("float32", "float16"):
    for unbiased in (False, True):
        CASES[f"variance_{dtype}_{'unbiased' if unbiased else 'biased'}"] = (
            (
                f"def @main(%x: Tensor[(3, 4, 5), {dtype}]) {{"
                f" variance(%x, mean(%x, axis=[1], keepdims=True), axis=[1],"
                f" unbiased={unbiased}) }}"
            ),
            {"x": DATA.astype(dtype)},
        )
CASES["variance_all_axes_keepdims"] = (
    (
        "def @main(%x: Tensor[(3, 4, 5), float32], %m: Tensor[(1, 1, 1), float32]) {"
        " variance(%x, %m, keepdims=True) }"
    ),
    {"x": DATA, "m": np.full((1, 1, 1), 0.25, np.float32)},
)
CASES["collapse_sum_like"] = (
    (
        "def @main(%x: Tensor[(3, 4, 5), float32], %y: Tensor[(4, 1), float32]) {"
        " collapse_sum_like(%x, %y) }"
    ),
    {"x": DATA, "y": np.zeros((4, 1), np.float32)},
)
CASES["collapse_sum_like_int8"] = (
    (
        "def @main(%x: Tensor[(3, 4, 5), int8], %y: Tensor[(1, 5), int8]) {"
        " collapse_sum_like(%x, %y) }"
    ),
    {"x": TIES.astype(np.int8) * 20, "y": np.zeros((1, 5), np.int8)},
)

# The channels of a tensor held in NHWC.
CASES["argmax_nhwc"] = (
    (
        "def @main(%x: Tensor[(1, 3, 5, 5), float32], %w: Tensor[(4, 3, 3, 3), float32]) {"
        " argmax(nn.conv2d(%x, %w, padding=[1, 1]), axis=[1]) }"
    ),
    {
        "x": RNG.standard_normal((1, 3, 5, 5)).astype(np.float32),
        "w": RNG.standard_normal((4, 3, 3, 3)).astype(np.float32),
    },
)


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
