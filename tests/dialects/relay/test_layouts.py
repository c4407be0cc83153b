"""Data layouts and shape conversion between them (TVM's ``BijectiveLayout``)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX

from relay_xdsl.dialects.relay.layouts import (
    LayoutError,
    convert_layout,
    layout_index,
    parse_layout,
    primal_axes,
)

Q = DYNAMIC_INDEX


def test_parse_blocked_layout():
    assert parse_layout("NCHW4c") == [("N", 0), ("C", 0), ("H", 0), ("W", 0), ("c", 4)]
    assert parse_layout("OIHW16i4o")[-2:] == [("i", 16), ("o", 4)]
    assert primal_axes("NCHW4c") == {"N", "C", "H", "W"}


@pytest.mark.parametrize("layout", ["NCHW4", "NCHW4C", "NCHc", "NCCW", "NC-HW", "NCHW4x"])
def test_malformed_layouts_are_rejected(layout):
    with pytest.raises(LayoutError):
        parse_layout(layout)


def test_convert_layout_blocks_round_up():
    assert convert_layout([1, 6, 8, 8], "NCHW", "NCHW4c") == [1, 2, 8, 8, 4]
    assert convert_layout([1, 2, 8, 8, 4], "NCHW4c", "NHWC") == [1, 8, 8, 8]
    assert convert_layout([Q, 3, 8, Q], "NCHW", "NHWC") == [Q, 8, Q, 3]


def test_convert_layout_rejects_mismatches():
    with pytest.raises(LayoutError):
        convert_layout([1, 2, 3, 4], "NCHW", "NCW")  # other primal axes
    with pytest.raises(LayoutError):
        convert_layout([1, 2, 3], "NCHW", "NHWC")  # other rank
    with pytest.raises(LayoutError):
        convert_layout([1, 2, 3, 4, 3], "NCHW4c", "NCHW")  # a 4c block of 3


def test_layout_index_needs_an_unblocked_axis():
    assert layout_index("NHWC", "C") == 3
    with pytest.raises(LayoutError):
        layout_index("NCHW4c", "C")
    with pytest.raises(LayoutError):
        layout_index("NCW", "H")
