"""Values and names spelled as TVM v0.19's printer writes them."""

from __future__ import annotations

import struct

import pytest
from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute

from relay_xdsl.exporters.relay_attributes import (
    attribute_value,
    checked_name,
    function_attributes,
    relay_identifier,
    scalar_literal,
)
from relay_xdsl.relay_text.types import RelayExportError


@pytest.mark.parametrize(
    ("attribute", "text"),
    [
        (IntegerAttr(3, 32), "3"),
        (IntegerAttr(-3, 64), "-3i64"),
        (IntegerAttr(1, 1), "True"),
        (FloatAttr(0.1, Float32Type()), "0.1f"),
        (FloatAttr(2.0, Float64Type()), "2f64"),
        (FloatAttr(0.5, Float16Type()), "0.5f16"),
        (FloatAttr(float("-inf"), Float32Type()), "-inff"),
        (DenseArrayBase.from_list(IntegerType(64), [1, 2]), "[1i64, 2i64]"),
        (ArrayAttr([StringAttr("NCHW"), UnitAttr()]), '["NCHW", None]'),
    ],
)
def test_attribute_values(attribute: Attribute, text: str):
    assert attribute_value(attribute) == text


def test_a_float32_prints_as_the_shortest_decimal_that_reads_back():
    value = struct.unpack("<f", struct.pack("<f", 0.1))[0]
    assert value != 0.1
    assert attribute_value(FloatAttr(value, Float32Type())) == "0.1f"


@pytest.mark.parametrize(
    ("attribute", "message"),
    [
        (StringAttr('a"b'), "contains '\"'"),
        (FloatAttr(float("nan"), Float32Type()), "NaN has no Relay literal"),
        (IntegerAttr(3, 24), "has no Relay literal"),
    ],
)
def test_values_relay_cannot_spell(attribute: Attribute, message: str):
    with pytest.raises(RelayExportError, match=message):
        attribute_value(attribute)


def test_scalar_literals():
    def scalar(element: Attribute, fmt: str, value: object) -> DenseIntOrFPElementsAttr:
        return DenseIntOrFPElementsAttr(TensorType(element, []), BytesAttr(struct.pack(fmt, value)))

    assert scalar_literal(scalar(Float32Type(), "<f", 1.0)) == "1f"
    assert scalar_literal(scalar(IntegerType(64), "<q", 2)) == "2i64"
    assert scalar_literal(scalar(IntegerType(1), "<?", True)) == "True"
    # TVM writes int8 scalars as constants, not literals.
    assert scalar_literal(scalar(IntegerType(8), "<b", 2)) is None


def test_names():
    assert checked_name("nn.conv2d", "operator name", dotted=True) == "nn.conv2d"
    with pytest.raises(RelayExportError, match="operator name 'fn.x' is not a Relay identifier"):
        checked_name("fn.x", "operator name", dotted=True)
    with pytest.raises(RelayExportError, match="function name 'a.b' is not a Relay identifier"):
        checked_name("a.b", "function name")
    assert relay_identifier("a-b") == "a_b"
    assert relay_identifier("1x") == "v1x"


def test_function_attributes_in_tvms_order():
    attributes = {
        "global_symbol": StringAttr("f"),
        "Primitive": IntegerAttr(1, 32),
        "Custom": IntegerAttr(2, 32),
        "Composite": StringAttr("c"),
    }
    assert function_attributes(attributes) == [
        'Composite="c"',
        "Primitive=1",
        'global_symbol="f"',
        "Custom=2",
    ]
