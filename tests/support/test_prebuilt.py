"""prebuilt: the same attribute as the constructor's, without the verifier."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    IntegerAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
    i64,
)
from xdsl.ir import Attribute, ParametrizedAttribute

from relay_xdsl.support.prebuilt import prebuilt, prebuilt_data


def test_prebuilt_attributes_equal_and_hash_as_constructed():
    cases: list[tuple[type[ParametrizedAttribute], tuple[Attribute, ...]]] = [
        (FileLineColLoc, (StringAttr("/conv1/Conv"), IntAttr(3), IntAttr(0))),
        (NameLoc, (StringAttr("lv1"), NoneAttr())),
        (IntegerAttr, (IntAttr(7), i64)),
    ]
    for cls, parameters in cases:
        built = prebuilt(cls, *parameters)
        constructed = cls.new(parameters)
        assert type(built) is cls
        assert built == constructed
        assert hash(built) == hash(constructed)
        assert str(built) == str(constructed)
        assert built.parameters == parameters


def test_prebuilt_name_location_wraps_a_location():
    inner = FileLineColLoc(StringAttr("f"), IntAttr(1), IntAttr(2))
    assert prebuilt(NameLoc, StringAttr("x"), inner) == NameLoc(StringAttr("x"), inner)


def test_prebuilt_data_equals_and_hashes_as_constructed():
    for built, constructed in [
        (prebuilt_data(StringAttr, "/blocks.0/Add"), StringAttr("/blocks.0/Add")),
        (prebuilt_data(IntAttr, 7), IntAttr(7)),
    ]:
        assert type(built) is type(constructed)
        assert built == constructed
        assert hash(built) == hash(constructed)
        assert str(built) == str(constructed)
