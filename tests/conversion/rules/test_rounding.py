"""round, trunc and sign lowered, compiled and run against the interpreter:
halves round away from zero, negative values truncate up, the sign of zero
and NaN is zero; integers of each width."""

from __future__ import annotations

import numpy as np
import pytest

FLOATS = np.array([[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], [-2.7, -0.2, 0.0, 0.49999997, 3.7, np.nan]])
INTEGERS = np.array([[-3, -1, 0, 1, 2, 100], [7, -7, 0, 5, -128, 127]])

CASES = {}
for operator in ("round", "trunc", "sign"):
    for dtype in ("float32", "float16"):
        CASES[f"{operator}_{dtype}"] = (
            f"def @main(%x: Tensor[(2, 6), {dtype}]) {{ {operator}(%x) }}",
            {"x": FLOATS.astype(dtype)},
        )
    for dtype in ("int8", "int32"):
        CASES[f"{operator}_{dtype}"] = (
            f"def @main(%x: Tensor[(2, 6), {dtype}]) {{ {operator}(%x) }}",
            {"x": INTEGERS.astype(dtype)},
        )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
