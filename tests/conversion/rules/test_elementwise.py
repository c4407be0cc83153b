"""zeros and ones lowered, compiled and run against the interpreter: known
contents, which enter the IR where an operator uses them; relu and clip of
integers, which TOSA's clamp does not take."""

from __future__ import annotations

import numpy as np
import pytest

X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2

CASES = {
    f"{name}_{dtype}": (
        (
            f"def @main(%x: Tensor[(2, 3), {dtype}]) {{"
            f' multiply(%x, {name}(shape=[2, 3], dtype="{dtype}")) }}'
        ),
        {"x": X.astype(dtype)},
    )
    for name in ("zeros", "ones")
    for dtype in ("float32", "int32", "float16")
}

for dtype in ("int32", "int64"):
    CASES[f"relu_{dtype}"] = (
        f"def @main(%x: Tensor[(2, 3), {dtype}]) {{ nn.relu(%x) }}",
        {"x": X.astype(dtype)},
    )
    CASES[f"clip_{dtype}"] = (
        f"def @main(%x: Tensor[(2, 3), {dtype}]) {{ clip(%x, a_min=-1.5f, a_max=2f) }}",
        {"x": X.astype(dtype)},
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
