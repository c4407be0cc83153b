"""Relay's type grammar: tensor, scalar, tuple, function and unknown types."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, FunctionType, TensorType, TupleType

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.types import IncompleteType
from relay_xdsl.importers.relay_types import RelayTypeParser
from relay_xdsl.relay_text.lexer import Kind, tokenize
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


@pytest.mark.parametrize(
    "text",
    [
        "Tensor[(1, 3), float32]",
        "Tensor[(5,), int64]",
        "Tensor[(), bool]",
        "Tensor[(2147483648), uint8]",
        "Tensor[(1,3), float32]",  # not TVM's spelling: read a token at a time
        "Tensor[(1, 3) , float32]",
        "(Tensor[(1, 3), float32], Tensor[(2), int8])",
    ],
)
def test_tensor_types_read_whole_are_those_read_a_token_at_a_time(text: str):
    source = SourceFile(text, "t.relay")
    whole = RelayTypeParser(source, tokenize(source, tensor_types=True))
    assert whole.parse_type() == parse(text)


def test_a_tensor_type_as_tvm_prints_it_is_one_token():
    source = SourceFile("Tensor[(1, 8, 8), float32] Tensor[(1,8), float32]", "t.relay")
    first, *rest = tokenize(source, tensor_types=True)
    assert (first.kind, first.text, first.value) == (
        Kind.TENSOR,
        "Tensor[(1, 8, 8), float32]",
        ((1, 8, 8), "float32"),
    )
    assert rest[0].kind is Kind.IDENT and rest[0].text == "Tensor"  # not TVM's spelling
    assert [t.kind for t in tokenize(source)][:2] == [Kind.IDENT, Kind.PUNCT]  # by default


def test_an_unknown_dtype_in_a_whole_tensor_type_is_named_where_it_is():
    source = SourceFile("Tensor[(1, 3), floot32]", "t.relay")
    parser = RelayTypeParser(source, tokenize(source, tensor_types=True))
    with pytest.raises(SourceError) as whole:
        parser.parse_type()
    with pytest.raises(SourceError) as by_token:
        parse("Tensor[(1, 3), floot32]")
    assert str(whole.value) == str(by_token.value)
    assert "t.relay:1:16" in str(whole.value)


def test_function_type():
    parsed = parse("fn (int32) -> float32")
    assert isinstance(parsed, FunctionType)


def test_negative_dimension_is_an_error():
    with pytest.raises(
        SourceError, match="t.relay:1:9: error: a tensor dimension cannot be negative"
    ):
        parse("Tensor[(-3, 2), float32]")


def test_reference_and_type_variable_types():
    from relay_xdsl.dialects import relay

    source = SourceFile("ref(A)", "<type>")
    parser = RelayTypeParser(source, tokenize(source))
    parser.type_vars.append(frozenset({"A"}))
    assert parser.parse_type() == relay.RefType(relay.TypeVarType("A"))
