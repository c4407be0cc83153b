"""not_equal, less and less_equal lowered, compiled and run against the interpreter."""

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


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
