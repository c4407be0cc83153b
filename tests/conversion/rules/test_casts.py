"""cast and reinterpret lowered, compiled and run against the interpreter:
truncation toward zero, ``!= 0`` to bool, and bit casts both ways."""

from __future__ import annotations

import numpy as np
import pytest

VALUES = np.array([[-2.7, -0.5, 0.0, 0.4], [1.5, 2.5, -3.5, 9.9]], np.float32)
CONVERSIONS = [
    ("float32", "int32", VALUES),
    ("float32", "int8", VALUES),
    ("float32", "bool", VALUES),
    ("int32", "float32", np.array([[-3, 0, 5, 7], [1, 2, 3, 4]], np.int32)),
    ("int8", "bool", np.array([[-3, 0, 5, 0], [1, 0, 3, 4]], np.int8)),
    ("bool", "int8", VALUES > 0),
    ("bool", "float32", VALUES > 0),
    ("float32", "int64", VALUES),
    ("int64", "float32", np.array([[-3, 0, 5, 7], [1, 2, 3, 1 << 40]], np.int64)),
    ("int8", "int64", np.array([[-3, 0, 5, 7], [1, 2, 3, 4]], np.int8)),
]
CASES = {
    f"{source}_to_{dtype}": (
        f'def @main(%x: Tensor[(2, 4), {source}]) {{ cast(%x, dtype="{dtype}") }}',
        {"x": data},
    )
    for source, dtype, data in CONVERSIONS
}
CASES["cast_like"] = (
    "def @main(%x: Tensor[(2, 4), float32], %y: Tensor[(1,), int32]) { cast_like(%x, %y) }",
    {"x": VALUES, "y": np.zeros(1, np.int32)},
)

REINTERPRETED = [
    ("float32", "int32", np.array([[1.0, -2.5, 0.0, np.inf], [1e-40, -0.0, 3.0, 7.5]], np.float32)),
    (
        "int32",
        "float32",
        np.array([[0, 1065353216, -1082130432, 2139095040], [1, 2, 3, 4]], np.int32),
    ),
    ("float16", "int16", np.array([[1.0, -2.5, 0.0, 65504.0], [0.5, -0.0, 3.0, 7.5]], np.float16)),
]
for source, dtype, data in REINTERPRETED:
    CASES[f"reinterpret_{source}_as_{dtype}"] = (
        f'def @main(%x: Tensor[(2, 4), {source}]) {{ reinterpret(%x, dtype="{dtype}") }}',
        {"x": data},
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
