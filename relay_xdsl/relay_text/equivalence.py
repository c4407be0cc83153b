"""Equality of Relay texts up to presentation.

Two Relay texts are equivalent when their token streams agree after dropping
whitespace, comments (``/* ty=... */`` included) and the version header,
renumbering ``%N`` temps in order of first appearance, reading a bare
``fn (...) {...}`` program as ``def @main(...) {...}`` (what TVM does when it
puts it in a module), and comparing ``#[metadata]`` sections by the constants
they decode to rather than by their JSON.
"""

from __future__ import annotations

import difflib
import hashlib

from relay_xdsl.relay_text.lexer import Kind, Token, float_literal, int_literal, tokenize
from relay_xdsl.relay_text.metadata import decode_metadata
from relay_xdsl.relay_text.source import SourceFile


def canonical_relay(text: str, name: str = "<input>", *, renumber: bool = True) -> list[str]:
    """The canonical token list of a Relay text; equal lists mean equivalent texts.

    With ``renumber=False`` the ``%N`` temps keep their numbers, so equal
    lists mean texts that differ only in presentation (TVM numbers its temps
    in the order it prints them, so its texts agree on them too).
    """
    tokens = [
        t
        for t in tokenize(SourceFile(text, name))
        if t.kind not in (Kind.COMMENT, Kind.VERSION, Kind.EOF)
    ]
    tokens = _place_literals(_drop_return_types(_drop_let_types(_as_module(tokens))))
    canonical: list[str] = []
    temps: dict[str, str] = {}
    for index, token in enumerate(tokens):
        # Spelling is presentation: `1.0f`, `1f` and `1f32` are one literal.
        if token.kind is Kind.INT:
            value, width = int_literal(token)
            canonical.append(f"{value!r}i{width}")
        elif token.kind is Kind.FLOAT:
            number, width = float_literal(token)
            canonical.append(f"{number!r}f{width}")
        elif token.kind is Kind.GRAPH:
            canonical.append(
                temps.setdefault(token.text, f"%{len(temps)}") if renumber else token.text
            )
        elif token.kind is Kind.METADATA:
            canonical.append("#[metadata]")
            for constant in decode_metadata(token.text):
                digest = hashlib.sha256(constant.data.data).hexdigest()[:16]
                canonical.append(f"{constant.type}:{digest}")
        else:
            canonical.append(token.text)
    return canonical


def _as_module(tokens: list[Token]) -> list[Token]:
    """A bare ``fn`` or expression program as the ``def @main`` TVM makes of it."""
    if not tokens or (tokens[0].kind is Kind.IDENT and tokens[0].text == "def"):
        return tokens

    def word(text: str, kind: Kind = Kind.PUNCT) -> Token:
        return Token(kind, text, 0, 0)

    if tokens[0].kind is Kind.IDENT and tokens[0].text == "fn":
        return [word("def", Kind.IDENT), word("@main", Kind.GLOBAL), *tokens[1:]]
    params: list[Token] = []
    index = 0
    while index < len(tokens) and tokens[index].text == "free_var":
        end = index
        while end < len(tokens) and tokens[end].text != ";":
            end += 1
        if params:
            params.append(word(","))
        params.extend(tokens[index + 1 : end])
        index = end + 1
    body = tokens[index:]
    metadata = [t for t in body if t.kind is Kind.METADATA]
    body = [t for t in body if t.kind is not Kind.METADATA]
    return [
        word("def", Kind.IDENT),
        word("@main", Kind.GLOBAL),
        word("("),
        *params,
        word(")"),
        word("{"),
        *body,
        word("}"),
        *metadata,
    ]


def _drop_let_types(tokens: list[Token]) -> list[Token]:
    """Remove ``: T`` from ``let %x: T =``."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kept.append(token)
        index += 1
        if token.text == "let" and index + 1 < len(tokens) and tokens[index + 1].text == ":":
            kept.append(tokens[index])
            index = _next_outside_brackets(tokens, index + 2, ("=",))
    return kept


def _next_outside_brackets(tokens: list[Token], start: int, stops: tuple[str, ...]) -> int:
    """Index of the first punctuation in `stops` at bracket depth 0 from `start`."""
    depth = 0
    for index in range(start, len(tokens)):
        text = tokens[index].text if tokens[index].kind is Kind.PUNCT else ""
        if depth == 0 and text in stops:
            return index
        depth += (text in ("(", "[")) - (text in (")", "]"))
    return len(tokens)


def _drop_return_types(tokens: list[Token]) -> list[Token]:
    """Remove ``-> type`` between a parameter list and a function body."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.kind is Kind.PUNCT and token.text == "->":
            end = _next_outside_brackets(tokens, index + 1, ("{", "=", ";"))
            if end < len(tokens) and tokens[end].text == "{":
                index = end
                continue
        kept.append(token)
        index += 1
    return kept


def _place_literals(tokens: list[Token]) -> list[Token]:
    """Move each ``%N = fn ...;`` binding right before the statement first using ``%N``."""
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        result.append(token)
        index += 1
        if token.kind is Kind.PUNCT and token.text == "{":
            end = _matching_brace(tokens, index - 1)
            result.extend(_reorder_body(_place_literals(tokens[index:end])))
            index = end
    return result


def _matching_brace(tokens: list[Token], open_index: int) -> int:
    depth = 0
    for index in range(open_index, len(tokens)):
        if tokens[index].kind is Kind.PUNCT:
            if tokens[index].text == "{":
                depth += 1
            elif tokens[index].text == "}":
                depth -= 1
                if depth == 0:
                    return index
    return len(tokens)


def _reorder_body(tokens: list[Token]) -> list[Token]:
    statements: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        statements[-1].append(token)
        if token.kind is Kind.PUNCT:
            if token.text in "([{":
                depth += 1
            elif token.text in ")]}":
                depth -= 1
            elif token.text == ";" and depth == 0:
                statements.append([])
    literals: dict[str, list[Token]] = {}
    for statement in statements:
        if (
            len(statement) > 3
            and statement[0].kind is Kind.GRAPH
            and statement[1].text == "="
            and statement[2].text == "fn"
        ):
            literals[statement[0].text] = statement
    placed: list[Token] = []
    for statement in statements:
        if (
            statement
            and statement[0].kind is Kind.GRAPH
            and literals.get(statement[0].text) is statement
        ):
            continue
        for token in statement:
            literal = literals.pop(token.text, None) if token.kind is Kind.GRAPH else None
            if literal is not None:
                placed.extend(literal)
        placed.extend(statement)
    for literal in literals.values():
        placed.extend(literal)
    return placed


def relay_text_diff(expected: str, actual: str) -> str:
    """A unified diff of the canonical forms; empty when the texts are equivalent."""
    left, right = (
        canonical_relay(expected, "expected"),
        canonical_relay(actual, "actual"),
    )
    if left == right:
        return ""
    return "\n".join(
        difflib.unified_diff(_lines(left), _lines(right), "expected", "actual", lineterm="")
    )


def _lines(tokens: list[str]) -> list[str]:
    """Canonical tokens broken into lines at `;`, `{` and `}` for readable diffs."""
    lines: list[str] = []
    current: list[str] = []
    for token in tokens:
        current.append(token)
        if token in (";", "{", "}"):
            lines.append(" ".join(current))
            current = []
    if current:
        lines.append(" ".join(current))
    return lines
