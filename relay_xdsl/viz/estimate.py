"""How large a module's drawing is at least, read from its text without parsing it.

Parsing a module of ten thousand operators takes seconds (its constants are
megabytes of text); refusing to draw it should not. The scan counts, in
relay-dialect MLIR, the lines that start an operator op (``relay.nn.conv2d``,
``relay.op``, ``relay.tuple``, …) and, in Relay text, the calls of registered
operators (``nn.conv2d(``) before the ``#[metadata]`` section, comments and
strings left out. Each of them is a node of the full drawing (``graph.extract`` without
``collapse``), so the count is a lower bound of its nodes; the drawing also
has inputs, outputs and calls the scan does not count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from relay_xdsl.dialects import relay

_MLIR_NAME = re.compile(r"relay\.(\w[\w.]*)")
_MLIR_OP_START = re.compile(r'[ \t]*(?:%[^=\n]*=[ \t]*)?"?')
"""What precedes an op's name on its line: indentation, its results, a generic form's quote."""
_NOT_NODES = frozenset({"constant", "fn", "return", "let"})
"""MLIR ops of the relay dialect the drawing does not show as nodes."""

_RELAY_SKIPPED = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"', re.DOTALL)
"""Comments and strings (attribute values), which may spell operator calls."""
_RELAY_CALL = re.compile(r"(?<![\w.%@])([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\s*\(")
_RELAY_FN = re.compile(r"(?<![\w.%@])fn\s*\(")
_RELAY_HEADER = re.compile(r"\s*(?:#\[[^\]]*\]\s*)?")


@dataclass(frozen=True)
class Estimate:
    nodes: int
    """Nodes the full drawing has at least."""
    groups: int
    """``relay.fn`` ops (Relay ``fn``)."""


def estimate(text: str, format_: str) -> Estimate:
    """The least size of the drawing of `text`, Relay text (``relay``) or MLIR."""
    if format_ == "relay":
        body = text.split("#[metadata]", 1)[0]
        body = _RELAY_SKIPPED.sub(" ", body)
        calls = sum(1 for m in _RELAY_CALL.finditer(body) if m[1] in relay.OPERATORS)
        fns = [match.start() for match in _RELAY_FN.finditer(body)]
        if fns and _RELAY_HEADER.fullmatch(body, 0, fns[0]):
            fns.pop(0)  # the program itself, a function like the seed's, is no group
        return Estimate(calls, len(fns))
    nodes = groups = 0
    # Searching for the names, then checking their lines, skips the constants'
    # hex quickly; a line-anchored pattern would be tried at every character.
    for match in _MLIR_NAME.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if not _MLIR_OP_START.fullmatch(text, line_start, match.start()):
            continue
        name = match[1]
        if name == "fn":
            groups += 1
        elif name not in _NOT_NODES:
            nodes += 1
    return Estimate(nodes, groups)
