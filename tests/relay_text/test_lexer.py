"""The Relay text lexer: the tokens read whole, as the slower rules read them."""

from __future__ import annotations

import pytest

from relay_xdsl.relay_text.lexer import Kind, Token, int_array_value, tokenize
from relay_xdsl.relay_text.source import SourceFile


def _tokens(text: str, int_arrays: bool = False) -> list[tuple[Kind, str, int, int, object]]:
    source = SourceFile(text, "t.relay")
    return [tuple(token) for token in tokenize(source, int_arrays=int_arrays)]


def test_a_binding_and_a_comment_with_the_punctuation_after_it_are_the_usual_tokens():
    text = "%12 = f(%1 /* a */, %2) /* ty=int32 */;"
    assert _tokens(text) == [
        (Kind.GRAPH, "%12", 0, 3, "12"),
        (Kind.PUNCT, "=", 4, 5, None),
        (Kind.IDENT, "f", 6, 7, "f"),
        (Kind.PUNCT, "(", 7, 8, None),
        (Kind.GRAPH, "%1", 8, 10, "1"),
        (Kind.COMMENT, " a ", 11, 18, None),
        (Kind.PUNCT, ",", 18, 19, None),
        (Kind.GRAPH, "%2", 20, 22, "2"),
        (Kind.PUNCT, ")", 22, 23, None),
        (Kind.COMMENT, " ty=int32 ", 24, 38, None),
        (Kind.PUNCT, ";", 38, 39, None),
        (Kind.EOF, "", 39, 39, None),
    ]
    # The same tokens, spaced so that no pair is read in one match.
    spaced = "%12  = f(%1 /* a */ , %2) /* ty=int32 */ ;"
    assert [t[:2] for t in _tokens(spaced)] == [t[:2] for t in _tokens(text)]


def test_a_flat_int32_array_after_equals_is_one_token():
    first, second = (
        t
        for t in tokenize(SourceFile("f(newshape=[1, -1, 768], axes=[])", "t"), int_arrays=True)
        if t.kind is Kind.INTS
    )
    assert (first.text, first.start, first.end, int_array_value(first)) == (
        "[1, -1, 768]",
        11,
        23,
        (1, -1, 768),
    )
    assert (second.text, int_array_value(second)) == ("[]", ())


@pytest.mark.parametrize(
    "text",
    [
        "a=[1, 2]",  # without int_arrays
        "a=[1,2]",  # not TVM's spelling
        "a=[2147483648, 1]",  # beyond int32
        "a=[-2147483649]",
        "a=[1i64, 2]",  # a width suffix
        "a=[1.5f]",
        "f([1, 2])",  # not after '='
        "a= /* c */[1]",
    ],
)
def test_other_arrays_are_read_a_token_at_a_time(text: str):
    int_arrays = not text.startswith("a=[1, 2]")
    kinds = [t[0] for t in _tokens(text, int_arrays=int_arrays)]
    assert Kind.INTS not in kinds and Kind.PUNCT in kinds


def test_int32_limits_are_one_token():
    (token,) = [
        t
        for t in tokenize(SourceFile("a=[-2147483648, 2147483647]", "t"), int_arrays=True)
        if t.kind is Kind.INTS
    ]
    assert int_array_value(token) == (-(2**31), 2**31 - 1)


def test_int_array_value_rejects_other_tokens():
    with pytest.raises(ValueError, match="not an int array"):
        int_array_value(Token(Kind.PUNCT, "[", 0, 1))
