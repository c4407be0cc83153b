"""Relay's type grammar: tensor, scalar, tuple, function and unknown types."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, FunctionType, TensorType, TupleType

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.types import IncompleteType
from relay_xdsl.importers.relay_types import RelayTypeParser
from relay_xdsl.relay_text.lexer import tokenize
from relay_xdsl.relay_text.source import SourceError, SourceFile


def parse(text: str):
    source = SourceFile(text, "t.relay")
    return RelayTypeParser(source, tokenize(source)).parse_type()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tensor[(1, 3), float32]", TensorType(dtypes.element_type("float32"), [1, 3])),
        ("Tensor[(?, 3), float16]", TensorType(dtypes.element_type("float16"), [DYNAMIC_INDEX, 3])),
        ("float32", TensorType(dtypes.element_type("float32"), [])),
        ("int", TensorType(dtypes.element_type("int32"), [])),
        ("float", TensorType(dtypes.element_type("float32"), [])),
        ("Tensor[(2), uint]", TensorType(dtypes.element_type("uint32"), [2])),
        ("_", IncompleteType()),
        ("(_, bool)", TupleType((IncompleteType(), TensorType(dtypes.element_type("bool"), [])))),
        ("()", TupleType(())),
    ],
)
def test_types(text: str, expected):
    assert parse(text) == expected


def test_function_type():
    parsed = parse("fn (int32) -> float32")
    assert isinstance(parsed, FunctionType)


def test_negative_dimension_is_an_error():
    with pytest.raises(
        SourceError, match="t.relay:1:9: error: a tensor dimension cannot be negative"
    ):
        parse("Tensor[(-3, 2), float32]")
