"""Binding lines read whole: exactly the lines TVM prints, each one token
standing for the tokens the general rules read from it."""

from __future__ import annotations

import pytest

from relay_xdsl.relay_text.binding_lines import BindingLine, BindingLineReader, ProjectionLine
from relay_xdsl.relay_text.lexer import Kind, Token, tokenize
from relay_xdsl.relay_text.source import SourceError, SourceFile

CALL = (
    "%3 = nn.dense(%2, meta[relay.Constant][7] /* ty=Tensor[(4, 8), float32] */, "
    "-1e-05f /* ty=float32 */, units=None, axes=[0, 1]) /* ty=Tensor[(1, 4), float32] span=a:1:2 */;"
)


def _tokens(text: str, lines: bool = True) -> list[Token]:
    source = SourceFile(text, "t.relay")
    read_line = BindingLineReader().read if lines else None
    return tokenize(source, tensor_types=True, int_arrays=True, read_line=read_line)


def _general(text: str, start: int, end: int) -> list[Token]:
    """The tokens the general rules read from `start` to `end`."""
    return tokenize(SourceFile(text, "t.relay"), start, end, tensor_types=True, int_arrays=True)[
        :-1
    ]


def test_a_call_line_is_one_token_of_its_pieces_as_the_general_rules_read_them():
    text = "{\n  " + CALL + "\n  %3\n}"
    tokens = _tokens(text)
    assert [t.kind for t in tokens] == [Kind.PUNCT, Kind.LINE, Kind.GRAPH, Kind.PUNCT, Kind.EOF]
    line_token = tokens[1]
    assert line_token.text == CALL
    line = line_token.value
    assert isinstance(line, BindingLine)
    general = _general(text, line_token.start, line_token.end)
    assert line.variable == general[0].text
    assert line.name == "nn.dense"
    assert line.name_token == general[2]  # `nn`, where the call is located
    variable, meta, number = line.arguments
    assert variable == "%2"
    assert meta == (general[8], general[9])  # the constant and its comment
    assert number == (general[11], general[12])
    assert number[0].value == (-1e-05, 32)
    assert line.attributes == "units=None, axes=[0, 1]"
    assert line.attributes_start == text.index("units")
    start = line.attributes_start
    assert line.attribute_tokens == tokenize(
        SourceFile(text, "t.relay"), start, start + len(line.attributes), int_arrays=True
    )
    assert line.comment == general[-2]
    assert line.comment.text == " ty=Tensor[(1, 4), float32] span=a:1:2 "


def test_each_attribute_text_is_tokenized_on_its_first_line_only():
    text = "{ %1 = f(%0, axis=1) /* ty=int32 */; %2 = f(%1, axis=1) /* ty=int32 */; %2 }"
    first, second = (t.value for t in _tokens(text) if t.kind is Kind.LINE)
    assert isinstance(first, BindingLine) and isinstance(second, BindingLine)
    assert first.attribute_tokens is not None
    assert [t.text for t in first.attribute_tokens] == ["axis", "=", "1", ""]
    assert second.attribute_tokens is None


def test_a_number_literal_seen_before_is_the_token_the_general_rules_read():
    text = "{ %1 = f(2f /* ty=float32 */, 7i64 /* ty=int64 */) /* ty=int32 */; %2 = f(7i64 /* ty=int64 */, 2f /* ty=float32 */) /* ty=int32 */; %2 }"
    lines = [t for t in _tokens(text) if t.kind is Kind.LINE]
    for line_token in lines:
        line = line_token.value
        assert isinstance(line, BindingLine)
        general = _general(text, line_token.start, line_token.end)
        assert line.arguments == ((general[4], general[5]), (general[7], general[8]))


def test_a_projection_line_is_one_token():
    text = "{ %4 = %3.1 /* ty=int32 */; %4 }"
    line_token = _tokens(text)[1]
    line = line_token.value
    assert isinstance(line, ProjectionLine)
    general = _general(text, line_token.start, line_token.end)
    assert line.variable == general[0].text
    assert line.tuple_variable == "%3"
    assert line.field == general[4]
    assert line.comment == general[5]


@pytest.mark.parametrize(
    "line",
    [
        "%1 = f(%x) /* ty=int32 */;",  # a parameter, not a graph variable
        "%1 = f(%0) /* a */ /* ty=int32 */;",  # two comments
        "%1 = f(%0);",  # no comment
        "%1 = f(%0 /* a */) /* ty=int32 */;",  # a variable's comment
        "%1 = f(%0, x=(1, 2)) /* ty=int32 */;",  # a tuple value
        '%1 = f(%0, x="a\nb") /* ty=int32 */;',  # a string over two lines
        "%1 = f(%0) /* ty=int32 /* nested */ */;",
        "%1 = f(%0) /* ty=Storage[] */;",
        "%1 = type(%0) /* ty=int32 */;",
        "%1 = f(%0, True=1) /* ty=int32 */;",
        "%1 = %0.1234567890 /* ty=int32 */;",  # an index of ten digits
        "%1 = (%0, %0) /* ty=int32 */;",
    ],
)
def test_other_lines_are_read_a_token_at_a_time(line: str) -> None:
    text = "{ " + line + " %1 }"
    assert _tokens(text) == _tokens(text, lines=False)


def test_a_binding_is_read_whole_only_where_a_sequence_goes_on():
    text = "f(%1 = g(%0) /* ty=int32 */; %1)"
    assert _tokens(text) == _tokens(text, lines=False)


@pytest.mark.parametrize(
    "text",
    [
        "{ %1 = f(%0) /* ty=int32 */; %2 = f(1.5.3f /* ty=float32 */, axis=99999999999) /* ty=int32 */; %2 }",
        "{ %2 = f(%0, axis=1.5.3f) /* ty=int32 */; %2 }",
    ],
    ids=["argument", "attribute"],
)
def test_a_malformed_number_in_a_line_is_the_error_tokenizing_gives(text):
    with pytest.raises(SourceError) as general:
        _tokens(text, lines=False)
    with pytest.raises(SourceError) as whole:
        _tokens(text)
    assert str(whole.value) == str(general.value)
    assert "invalid floating point number" in str(whole.value)
