"""not_equal, less and less_equal lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.parametrize("operator", ["not_equal", "less", "less_equal"])
def test_comparison(lowered_run, operator: str):
    rng = np.random.default_rng(10)
    a = rng.integers(-2, 3, (3, 4)).astype(np.float32)
    b = rng.integers(-2, 3, (4,)).astype(np.float32)
    lowered_run(
        "def @main(%a: Tensor[(3, 4), float32], %b: Tensor[(4,), float32]) {"
        f" {operator}(%a, %b) }}",
        a=a,
        b=b,
    )
