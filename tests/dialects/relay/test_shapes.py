"""The shape arithmetic the forward and backward relations share."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, TensorType, f32

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import shapes
from relay_xdsl.dialects.relay.inference import Call, infer_type
from relay_xdsl.dialects.relay.rejection import Reject
from relay_xdsl.dialects.relay.shapes import ANY
from relay_xdsl.dialects.relay.types import IncompleteType


def test_div_is_unknown_where_the_dimension_or_divisor_is_unknown_or_zero():
    assert shapes.div(7, 2) == 3
    assert shapes.div(ANY, 2) == ANY
    assert shapes.div(8, ANY) == ANY
    assert shapes.div(8, 0) == ANY


def test_mul_and_known():
    assert shapes.mul(3, 4) == 12
    assert shapes.mul(ANY, 4) == ANY
    assert shapes.known(1, 2) and not shapes.known(1, ANY)


def test_broadcast_rejects_in_the_shapes_terms():
    assert shapes.broadcast([4, 1], [3]) == [4, 3]
    with pytest.raises(Reject, match=r"the shapes \(4, 2\) and \(3\) do not broadcast"):
        shapes.broadcast([4, 2], [3])


def test_in_channels_check_survives_zero_groups():
    with pytest.raises(Reject, match="the data has 4 input channels"):
        shapes.check_in_channels(4, 2, 0)


@pytest.mark.parametrize("groups", [0, -1])
def test_both_conv_relations_reject_groups_that_are_not_positive(groups: int):
    conv = relay.Conv2DOp.OPERATOR
    groups_attr = {
        "groups": IntegerAttr(groups, IntegerType(32)),
        "channels": IntegerAttr(4, IntegerType(32)),
        "kernel_size": DenseArrayBase.from_list(IntegerType(32), [3, 3]),
    }
    data, weight = TensorType(f32, [1, 4, 8, 8]), TensorType(f32, [4, 4, 3, 3])
    assert infer_type(conv, [data, weight], groups_attr) is None
    assert conv.backward is not None
    call = Call(conv.schema, [data, IncompleteType()], groups_attr)
    with pytest.raises(Reject, match=f"groups={groups} is not positive"):
        conv.backward(call, None)
