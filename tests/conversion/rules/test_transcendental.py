"""The transcendental functions lowered, compiled and run against the
interpreter: TOSA's operators (scaled for log2 and log10) and ``math``
operations in linalg.generic, in float32 and float16, each over its domain."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(7)
ANY = np.linspace(-3.0, 3.0, 15)
UNIT = np.linspace(-0.95, 0.95, 15)
POSITIVE = np.linspace(0.05, 40.0, 15)
ABOVE_ONE = np.linspace(1.0, 9.0, 15)
DOMAINS = {
    "fast_exp": ANY,
    "fast_erf": ANY,
    "fast_tanh": ANY,
    "log2": np.concatenate([POSITIVE[:-2], [8.0, 0.125]]),
    "log10": np.concatenate([POSITIVE[:-2], [100.0, 0.001]]),
    "tan": np.linspace(-1.4, 1.4, 15),
    "cosh": ANY,
    "sinh": ANY,
    "acos": UNIT,
    "acosh": ABOVE_ONE,
    "asin": UNIT,
    "asinh": ANY * 10,
    "atan": ANY * 10,
    "atanh": UNIT,
}
CASES = {}
for name, domain in DOMAINS.items():
    for dtype in ("float32", "float16"):
        CASES[f"{name}_{dtype}"] = (
            f"def @main(%x: Tensor[(3, 5), {dtype}]) {{ {name}(%x) }}",
            {"x": domain.reshape(3, 5).astype(dtype)},
        )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
