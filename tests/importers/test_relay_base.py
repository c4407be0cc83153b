"""The token cursor: comments are skipped, and a wrong token is a clean error."""

from __future__ import annotations

import pytest

from relay_xdsl.importers.relay_base import RelayBaseParser
from relay_xdsl.relay_text.lexer import Kind, tokenize
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import MAX_NESTING


def cursor(text: str) -> RelayBaseParser:
    source = SourceFile(text, "t.relay")
    return RelayBaseParser(source, tokenize(source))


def test_peek_and_next_skip_comments():
    parser = cursor("a /* ty=int32 */ ( b")
    assert parser.peek().text == "a"
    assert parser.peek(1).text == "("
    assert parser.peek(2).text == "b"
    assert parser.next().text == "a"
    assert parser.next().text == "("
    assert parser.next().text == "b"
    assert parser.peek().kind is Kind.EOF


def test_accept_takes_only_the_text_asked_for():
    parser = cursor("fn ( %x")
    assert parser.accept("(") is None
    assert parser.accept("fn") is not None
    assert parser.at("(")
    assert parser.expect("(").text == "("
    assert parser.expect_kind(Kind.LOCAL, "a parameter").text == "%x"


def test_expect_names_what_it_found_where():
    parser = cursor("a /* c */ ( b")
    parser.next()
    with pytest.raises(SourceError) as error:
        parser.expect(")", "to close the call")
    assert str(error.value).splitlines()[0] == (
        "t.relay:1:11: error: expected ')' to close the call, found '('"
    )


def test_the_end_of_the_input_is_named():
    parser = cursor("a")
    parser.next()
    with pytest.raises(SourceError, match="expected a type, found the end of the input"):
        parser.expect_kind(Kind.IDENT, "a type")


def test_nesting_past_the_limit_is_an_error():
    parser = cursor("(")
    token = parser.peek()
    for _ in range(MAX_NESTING):
        parser.nest(token, "tuple")
    with pytest.raises(SourceError, match=f"tuple nested too deeply \\(more than {MAX_NESTING}"):
        parser.nest(token, "tuple")
