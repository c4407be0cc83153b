"""Backward type relations: the argument types a call determines, as TVM's
relations assign them."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, StringAttr, TensorType
from xdsl.ir import Attribute

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.inference import Call, Reject
from relay_xdsl.dialects.relay.types import IncompleteType

UNKNOWN = IncompleteType()


def t(*shape: int, dtype: str = "float32") -> TensorType:
    return TensorType(dtypes.element_type(dtype), list(shape))


def _attr(value: object) -> Attribute:
    """A Python value stored the way the Relay text importer stores it."""
    if isinstance(value, int):
        return IntegerAttr(value, IntegerType(32))
    if isinstance(value, str):
        return StringAttr(value)
    assert isinstance(value, tuple)
    return DenseArrayBase.from_list(IntegerType(32), list(value))


def _backward(name: str, args, result=None, **attrs):
    operator = relay.OPERATORS[name].OPERATOR
    attributes = {k: _attr(v) for k, v in attrs.items()}
    assert operator.backward is not None
    return list(operator.backward(Call(operator.schema, args, attributes), result))


def test_conv2d_weight_in_the_kernel_layout():
    assert _backward("nn.conv2d", [t(1, 4, 8, 8), UNKNOWN], channels=8, kernel_size=(3, 3)) == [
        None,
        t(8, 4, 3, 3),
    ]
    nhwc = _backward(
        "nn.conv2d",
        [t(1, 8, 8, 4), UNKNOWN],
        channels=8,
        kernel_size=(3, 3),
        data_layout="NHWC",
        kernel_layout="HWIO",
    )
    assert nhwc == [None, t(3, 3, 4, 8)]


def test_conv2d_without_channels_determines_nothing():
    assert _backward("nn.conv2d", [t(1, 4, 8, 8), UNKNOWN]) == [None, None]


def test_depthwise_conv2d_weight():
    weight = t(4, 1, 3, 3)
    assert _backward(
        "nn.conv2d", [t(1, 4, 8, 8), weight], channels=4, kernel_size=(3, 3), groups=4
    ) == [None, weight]


def test_conv2d_channel_mismatch_is_explained():
    with pytest.raises(Reject, match="the data has 3 input channels but the weight expects 5"):
        _backward("nn.conv2d", [t(1, 3, 8, 8), t(4, 5, 3, 3)], channels=4, kernel_size=(3, 3))


def test_unknown_data_determines_nothing_yet():
    with pytest.raises(Reject) as error:
        _backward("nn.batch_norm", [UNKNOWN] * 5)
    assert str(error.value) == ""


def test_batch_norm_and_bias_add_vectors():
    assert _backward("nn.batch_norm", [t(2, 3, 4, dtype="float16")] + [UNKNOWN] * 4) == [
        None,
        *[t(3, dtype="float16")] * 4,
    ]
    assert _backward("nn.bias_add", [t(2, 5), UNKNOWN], axis=-1) == [None, t(5)]


def test_dense_weight():
    assert _backward("nn.dense", [t(2, 7), UNKNOWN], units=3) == [None, t(3, 7)]


def test_broadcast_only_where_it_leaves_no_choice():
    scalar = t()
    assert _backward("add", [UNKNOWN, scalar], t(2, 3)) == [t(2, 3), None]
    assert _backward("add", [UNKNOWN, t(2, 3)], t(2, 3)) == [None, None]
