"""The device annotations: the value itself, as PyTorch's copy to the (only) CPU device."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")


@pytest.mark.parametrize(
    "call",
    ["on_device(%x, virtual_device=meta[VirtualDevice][0])", "device_copy(%x)"],
)
def test_device_annotations_are_the_identity_against_torch(evaluate, call):
    x = np.random.default_rng(9).standard_normal((2, 3)).astype(np.float32)
    expected = torch.from_numpy(x).to("cpu", copy=True).numpy()
    np.testing.assert_array_equal(evaluate(call, x=x), expected)
