"""power lowered, compiled and run against the interpreter: known small
exponents as multiplications (negative bases included), others as tosa.pow;
integers by squaring."""

from __future__ import annotations

import numpy as np
import pytest

X = np.array([[-3.0, -0.5, 0.25, 2.0], [1.5, -1.25, 4.0, 0.75]], np.float32)
POSITIVE = np.abs(X) + 0.5


def known(exponent: str) -> str:
    return f"""
    func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {{
      %e = relay.constant dense<{exponent}> : tensor<f32>
      %r = relay.power(%x, %e) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
      func.return %r : tensor<2x4xf32>
    }}
    """


CASES = {
    f"known_{name}": (known(exponent), {"x": data})
    for name, exponent, data in [
        ("square", "2.0", X),
        ("cube", "3.0", X),
        ("fourth", "4.0", X),
        ("inverse_square", "-2.0", X),
        ("square_root", "0.5", POSITIVE),
        ("inverse_square_root", "-0.5", POSITIVE),
        ("other", "1.7", POSITIVE),
    ]
}
CASES["run_time_exponent"] = (
    "def @main(%x: Tensor[(2, 4), float32], %e: Tensor[(4,), float32]) { power(%x, %e) }",
    {"x": POSITIVE, "e": np.array([0.0, 1.5, -2.0, 3.0], np.float32)},
)

for dtype in ("int32", "int64"):
    CASES[f"run_time_exponent_{dtype}"] = (
        f"def @main(%x: Tensor[(2, 4), {dtype}], %e: Tensor[(4,), {dtype}]) {{ power(%x, %e) }}",
        {"x": (X * 2).astype(dtype), "e": np.array([0, 1, 5, 13], dtype)},
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
