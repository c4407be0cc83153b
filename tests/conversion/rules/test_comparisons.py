"""not_equal, less, less_equal, isnan, isinf and isfinite lowered, compiled and
run against the interpreter (NaN and infinities of both signs; integers are
never either); equal and not_equal of booleans."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(10)
A = RNG.integers(-2, 3, (3, 4)).astype(np.float32)
B = RNG.integers(-2, 3, (4,)).astype(np.float32)

CASES = {
    operator: (
        (
            "def @main(%a: Tensor[(3, 4), float32], %b: Tensor[(4,), float32]) {"
            f" {operator}(%a, %b) }}"
        ),
        {"a": A, "b": B},
    )
    for operator in ("not_equal", "less", "less_equal")
}
for operator in ("equal", "not_equal"):
    CASES[f"{operator}_bool"] = (
        f"def @main(%a: Tensor[(3, 4), bool], %b: Tensor[(4,), bool]) {{ {operator}(%a, %b) }}",
        {"a": A > 0, "b": B > 0},
    )
SPECIAL = np.array([[np.nan, np.inf, -np.inf, 0.0], [-1.5, 6.0e4, -np.nan, 65504.0]])
for operator in ("isnan", "isinf", "isfinite"):
    for dtype in ("float32", "float16", "int32"):
        data = (
            SPECIAL.astype(dtype) if dtype != "int32" else np.arange(8, dtype=dtype).reshape(2, 4)
        )
        CASES[f"{operator}_{dtype}"] = (
            f"def @main(%x: Tensor[(2, 4), {dtype}]) {{ {operator}(%x) }}",
            {"x": data},
        )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
