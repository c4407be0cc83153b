"""Dense attributes as numpy arrays: a copy to compute in, or a read-only view of their bytes."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType, f32, i1

from relay_xdsl.interpreter.arrays import dense_array, dense_value, dense_view


def test_a_view_shares_the_attributes_bytes_and_cannot_be_written():
    weights = np.arange(6, dtype=np.float32).reshape(2, 3)
    attr = dense_value(weights, TensorType(f32, [2, 3]))
    view = dense_view(attr)
    np.testing.assert_array_equal(view, weights)
    assert view.base is not None and not view.flags.owndata
    with pytest.raises(ValueError, match="read-only"):
        view[0, 0] = 1
    copy = dense_array(attr)
    copy[0, 0] = 7  # its own
    np.testing.assert_array_equal(dense_view(attr), weights)


@pytest.mark.parametrize(
    ("element", "data", "expected"),
    [
        (f32, np.float32(2.5).tobytes(), np.full((2, 2), 2.5, np.float32)),  # a splat
        (i1, bytes([0xFF, 0, 0xFF, 0]), np.array([[True, False], [True, False]])),
    ],
)
def test_splats_and_booleans_view_and_copy_alike(element, data, expected):
    attr = DenseIntOrFPElementsAttr(TensorType(element, [2, 2]), BytesAttr(data))
    view, copy = dense_view(attr), dense_array(attr)
    for array in (view, copy):
        np.testing.assert_array_equal(array, expected)
        assert array.dtype == expected.dtype
    assert not view.flags.writeable and copy.flags.writeable
