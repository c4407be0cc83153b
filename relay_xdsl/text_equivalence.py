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

from relay_xdsl.importers.relay_lexer import Kind, tokenize
from relay_xdsl.metadata import decode_metadata
from relay_xdsl.source import SourceFile


def canonical_relay(text: str, name: str = "<input>") -> list[str]:
    """The canonical token list of a Relay text; equal lists mean equivalent texts."""
    tokens = [t for t in tokenize(SourceFile(text, name)) if t.kind not in (Kind.COMMENT, Kind.VERSION, Kind.EOF)]
    canonical: list[str] = []
    temps: dict[str, str] = {}
    for index, token in enumerate(tokens):
        if token.kind is Kind.GRAPH:
            canonical.append(temps.setdefault(token.text, f"%{len(temps)}"))
        elif token.kind is Kind.METADATA:
            canonical.append("#[metadata]")
            for value in decode_metadata(text[token.value :]):
                digest = hashlib.sha256(value.data.data).hexdigest()[:16]
                canonical.append(f"{value.type}:{digest}")
        elif index == 0 and token.kind is Kind.IDENT and token.text == "fn":
            canonical.extend(["def", "@main"])
        else:
            canonical.append(token.text)
    return canonical


def relay_text_diff(expected: str, actual: str) -> str:
    """A unified diff of the canonical forms; empty when the texts are equivalent."""
    left, right = canonical_relay(expected, "expected"), canonical_relay(actual, "actual")
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
