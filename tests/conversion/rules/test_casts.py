"""cast lowered, compiled and run against the interpreter: truncation toward
zero, and ``!= 0`` to bool."""

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


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
