"""Fixes for xDSL 0.75 bugs that hostile MLIR input triggers.

Applied when relay-xdsl's CLI, its MLIR loading or its ``xdsl-opt`` plugin is
imported. Each fix keeps xDSL's behaviour on valid input and is pinned by a
regression test (tests/test_hostile_input.py).

* **String literals in exponential time.** ``MLIRLexer`` matches string
  literals with ``"(?:[^"\\\\\\n\\v\\f]+|\\\\(?:...))*"``: a run of plain
  characters can be split between the inner ``+`` and the outer ``*`` in
  exponentially many ways, all tried when the literal does not close (an
  unterminated string, a bad escape). A 40-character unterminated string hangs
  the parser. The replacement consumes each run atomically (lookahead plus
  backreference), which matches exactly the same literals in linear time.
"""

from __future__ import annotations

import re

from xdsl.utils.mlir_lexer import MLIRLexer

_LINEAR_STRING_LITERAL = re.compile(r'"(?:(?=([^"\\\n\v\f]+))\1|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def apply() -> None:
    MLIRLexer._unescaped_characters_regex = _LINEAR_STRING_LITERAL


apply()
