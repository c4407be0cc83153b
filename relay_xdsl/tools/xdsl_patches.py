"""Fixes for xDSL 0.75 bugs that hostile MLIR input triggers, and one slow path.

Applied when relay-xdsl's CLI, its MLIR loading or its ``xdsl-opt`` plugin is
imported. Each fix keeps xDSL's behaviour on valid input; the bug fixes are
pinned by regression tests (tests/test_hostile_input.py).

* **String literals in exponential time.** ``MLIRLexer`` matches string
  literals with ``"(?:[^"\\\\\\n\\v\\f]+|\\\\(?:...))*"``: a run of plain
  characters can be split between the inner ``+`` and the outer ``*`` in
  exponentially many ways, all tried when the literal does not close (an
  unterminated string, a bad escape). A 40-character unterminated string hangs
  the parser. The replacement consumes each run atomically (lookahead plus
  backreference), which matches exactly the same literals in linear time.
* **Every ``dense<...>`` literal rebuilds a type constraint.** The attribute
  parser checks a dense literal's type against
  ``base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])``,
  and ``base`` converts that type expression into a constraint from scratch
  each time: about 1.5 ms a literal, a third of parsing a module of
  weights. Constraints are immutable, so the parser's ``base`` now keeps
  the ones it has built.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from xdsl.irdl import attributes as irdl_attributes
from xdsl.parser import attribute_parser
from xdsl.utils.mlir_lexer import MLIRLexer

_LINEAR_STRING_LITERAL = re.compile(r'"(?:(?=([^"\\\n\v\f]+))\1|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


@functools.lru_cache(maxsize=64)
def _cached_base(irdl: Any) -> Any:
    return irdl_attributes.base(irdl)


def _base(irdl: Any) -> Any:
    try:
        return _cached_base(irdl)
    except TypeError:  # an unhashable type expression
        return irdl_attributes.base(irdl)


def apply() -> None:
    MLIRLexer._unescaped_characters_regex = _LINEAR_STRING_LITERAL
    attribute_parser.base = _base


apply()
