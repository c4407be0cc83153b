"""on_device and device_copy lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

X = np.arange(6, dtype=np.float32).reshape(2, 3)

CASES = {
    "on_device": (
        (
            "def @main(%x: Tensor[(2, 3), float32]) {"
            " add(on_device(%x, virtual_device=meta[VirtualDevice][0]), %x) }"
        ),
        {"x": X},
    ),
    "device_copy_tuple": (
        (
            "def @main(%x: Tensor[(2, 3), float32]) {"
            " %0 = device_copy((%x, %x), src_virtual_device=meta[VirtualDevice][0],"
            " dst_virtual_device=meta[VirtualDevice][1]); add(%0.0, %0.1) }"
        ),
        {"x": X},
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
