"""The token cursor the Relay text parser reads with: the base of its chain.

:class:`RelayBaseParser` holds the tokens of a source and a position in
them, and the helpers every layer of the parser reads them with. The layers
build on it one at a time, each a public class of its own module that
subclasses the one before, as xDSL's parser does:

    RelayBaseParser        relay_base.py         tokens, position, errors
    RelayTypeParser        relay_types.py        types
    RelayAttributeParser   relay_attributes.py   ty=/span= comments, attribute values
    RelayExpressionParser  relay_expressions.py  dataflow expressions
    RelayFunctionParser    relay_functions.py    definitions, literals, calls of functions
    RelayLangParser        relay_lang.py         bindings, if, references
    RelayAdtParser         relay_adts.py         type definitions, constructors, match
    RelayParser            relay_text.py         the module; parse_relay

What names and expressions stand for while they are read is in relay_scope.py.
A binding line that the lexer read whole, as TVM prints most of a graph
(relay_text/binding_lines.py), is built by relay_binding_lines.py through
the same methods, without going through the grammar a token at a time.
"""

from __future__ import annotations

from itertools import compress, count
from operator import itemgetter
from typing import NoReturn

from relay_xdsl.relay_text.lexer import Kind, Token
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import MAX_NESTING

_COMMENT, _PUNCT, _IDENT = Kind.COMMENT, Kind.PUNCT, Kind.IDENT
_STRUCTURAL = frozenset({"{", "}", "def", "type", "extern"})


class RelayBaseParser:
    """A cursor over the tokens of a Relay text."""

    def __init__(self, source: SourceFile, tokens: list[Token]):
        self.source = source
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self._structural: list[int] | None = None

    def structural_tokens(self) -> list[int]:
        """The indices, in order, of the tokens spelled ``{``, ``}``, ``def``,
        ``type`` or ``extern`` (of any kind): the passes that match braces and
        find definitions look at nothing else."""
        if self._structural is None:
            # In C throughout: each token's text, tested, selects its index.
            texts = map(itemgetter(1), self.tokens)  # Token.text
            self._structural = list(compress(count(), map(_STRUCTURAL.__contains__, texts)))
        return self._structural

    def error(self, token: Token, message: str) -> NoReturn:
        raise SourceError(self.source, token.start, message, token.end)

    def nest(self, token: Token, what: str, levels: int = MAX_NESTING) -> None:
        """Enter one level of nesting; the caller leaves it (``self.depth -= 1``)."""
        self.depth += 1
        if self.depth > levels:
            self.error(token, f"{what} nested too deeply (more than {MAX_NESTING} levels)")

    # The parser calls these several times a token: each reads the token
    # list directly and goes through the comment-skipping loop only at a comment.

    def peek(self, offset: int = 0) -> Token:
        """The next non-comment token (comments before it are consumed)."""
        tokens = self.tokens
        token = tokens[self.pos]
        if token.kind is _COMMENT:
            while token.kind is _COMMENT:
                self.pos += 1
                token = tokens[self.pos]
        if not offset:
            return token
        index = self.pos + 1
        while tokens[index].kind is _COMMENT:
            index += 1
        while offset > 1:  # beyond the token after the next, rarely
            offset -= 1
            index += 1
            while tokens[index].kind is _COMMENT:
                index += 1
        return tokens[index]

    def next(self) -> Token:
        token = self.tokens[self.pos]
        if token.kind is _COMMENT:
            token = self.peek()
        self.pos += 1
        return token

    def at(self, text: str) -> bool:
        token = self.tokens[self.pos]
        if token.kind is _COMMENT:
            token = self.peek()
        return token.text == text and (token.kind is _PUNCT or token.kind is _IDENT)

    def accept(self, text: str) -> Token | None:
        token = self.peek()
        if token.text == text and (token.kind is _PUNCT or token.kind is _IDENT):
            self.pos += 1  # `peek` has moved past any comment: `next`
            return token
        return None

    def expect(self, text: str, context: str = "") -> Token:
        token = self.peek()
        if token.text != text or not (token.kind is _PUNCT or token.kind is _IDENT):
            where = f" {context}" if context else ""
            self.error(token, f"expected '{text}'{where}, found {describe(token)}")
        self.pos += 1  # `peek` has moved past any comment: `next`
        return token

    def expect_kind(self, kind: Kind, what: str) -> Token:
        token = self.peek()
        if token.kind is not kind:
            self.error(token, f"expected {what}, found {describe(token)}")
        return self.next()


def describe(token: Token) -> str:
    if token.kind is Kind.EOF:
        return "the end of the input"
    if token.kind is Kind.METADATA:
        return "the #[metadata] section"
    if token.kind is Kind.LINE:
        return f"'{token.text.partition(' ')[0]}'"  # a binding line read whole: its `%N`
    if token.kind is Kind.INTS:
        return "'['"  # the array read whole: where it is not an attribute value
    return f"'{token.text}'"
