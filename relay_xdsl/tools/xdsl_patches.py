"""Seven changes to xDSL 0.75.0, applied by relay-xdsl's own commands until xDSL has them.

docs/upstream-xdsl.md proposes four of them upstream (string literals, dense
literals, pipeline words, regions): the problem with a reproducer, the change
to xDSL's code, and why it is correct.

* **String literals in exponential time.** ``MLIRLexer`` matches string
  literals with a regular expression in which a run of plain characters can
  be split between an inner ``+`` and an outer ``*`` in exponentially many
  ways, all tried when the literal does not close: a 40-character
  unterminated string hangs the parser. The replacement makes both
  quantifiers possessive, which matches exactly the same literals in
  linear time.
* **Every ``dense<...>`` literal rebuilds a type constraint** (about
  1.5 ms a literal, a third of parsing a module of weights). The attribute
  parser's ``base`` now keeps the constraints it has built; they are
  immutable.
* **Every MLIR token goes through a chain of tests in Python.** A module
  is mostly bare identifiers, ``%`` identifiers and punctuation, about ten
  tokens an op, and ``MLIRLexer.lex`` spent a third of parsing one on them.
  `lex_common_tokens` reads those with one regular expression, whitespace
  and comments included, and hands every other token to xDSL's ``lex``:
  the same tokens at the same spans.
* **Every region copies the parser's table of SSA names**, to restore it
  when the region ends: a module of thousands of ``relay.fn`` regions
  among thousands of values spent a tenth of its parse copying the table.
  `parse_optional_region_in_place` takes the names a region defined out
  of the table instead; they are the last ones added, so the table is
  the same afterwards.
* **Pass option values must be quoted unless they are plain words.** The
  ``-p`` pipeline lexer reads ``composite=ccompiler.conv_add_relu`` or
  ``patterns=my_patterns:TABLE`` as an error at the ``.`` or ``:``;
  ``mlir-opt`` takes such bare words. The replacement lets a word go on
  through ``.`` and ``:`` (`apply_pipeline_words`). It changes only
  pipelines that xDSL rejected, and it is applied separately: in
  ``xdsl-opt`` as soon as the command line names relay (xdsl-opt reads
  ``-p`` before it loads any pass), where the others wait for relay to
  be loaded.
* **A function returning a function does not read back.** ``func.func``'s
  custom syntax prints a single result type bare, so ``-> (A) -> C``
  reads back as a function returning ``A``... and fails. MLIR's grammar (and
  xDSL's own ``print_function_type``) parenthesises a single function-typed
  result: ``-> ((A) -> C)``. Relay's generic functions return closures
  (``@compose``). The same holds for ``functional-type(...)`` in declarative
  assembly formats, which ``func.call`` uses.
* **xdsl-opt's files are not mlir-opt's.** ``-o -`` writes a file named
  ``-``, an input named ``-`` is a missing file, and ``-f`` does not stop
  xdsl-opt from rejecting an input whose extension names no frontend
  (``-f relay model.txt``). `apply_standard_streams` makes ``-`` stdin and
  stdout and lets ``-f`` choose the frontend of any file, as mlir-opt does;
  like the pipeline words, it is applied as xdsl-opt loads the plugin, when
  the command line names relay (xdsl-opt opens its files before it loads
  anything else).

Importing this module changes nothing. `apply` installs the changes; it is
called by the ``relay-xdsl`` command, by the ``upstream-mlir`` frontend, and
in ``xdsl-opt`` when a run loads relay-xdsl's dialect, a relay pass, frontend
or target (tools/xdsl_opt/universe.py). Each change replaces one attribute of xDSL, and
only on the xDSL version it was written for and only while that attribute is
still xDSL's own; otherwise it is skipped and xDSL keeps its code, which
accepts the same input (the lexer stays exponential on unterminated strings,
dense literals stay slower). Applying twice changes nothing more.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from typing import Any

from xdsl.parser import Parser
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from relay_xdsl.support.xdsl_internals import (
    XDSL_VERSION,
    func_outputs_printer,
    installed_xdsl_version,
    pipeline_lexer_rules,
    set_func_outputs_printer,
    set_pipeline_lexer_rules,
    set_string_literal_regex,
    string_literal_regex,
)

XDSL_PIPELINE_WORD = r"[A-Za-z0-9_-]+"
"""The identifier rule of xDSL 0.75.0's pass pipeline lexer (`pipeline_lexer_rules`)."""

XDSL_PIPELINE_DIGIT_WORD = r"[0-9]+[A-Za-z_-]+[A-Za-z0-9_-]*"
"""Its rule for identifiers that start with digits (``2d-slice``)."""

PIPELINE_WORD = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.:-]*")
"""Identifiers that may go on through ``.`` and ``:``, as mlir-opt's option values do."""

PIPELINE_DIGIT_WORD = re.compile(r"[0-9]+[A-Za-z_-]+[A-Za-z0-9_.:-]*")

XDSL_STRING_LITERAL = r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
"""xDSL 0.75.0's `string_literal_regex`."""

LINEAR_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')
"""The same literals, matched without backtracking into a run of characters."""


@functools.lru_cache(maxsize=64)
def _cached_base(irdl: Any) -> Any:
    from xdsl.irdl import attributes

    return attributes.base(irdl)


def cached_base(irdl: Any) -> Any:
    """xDSL's ``base(irdl)``, built once per type expression."""
    try:
        return _cached_base(irdl)
    except TypeError:  # an unhashable type expression
        from xdsl.irdl import attributes

        return attributes.base(irdl)


def print_func_outputs(printer: Any, outputs: Any, res_attrs: Any) -> None:
    """xDSL's `func_outputs_printer`, parenthesising a single function-typed result."""
    from xdsl.dialects.builtin import FunctionType

    if len(outputs) == 1 and res_attrs is None and isinstance(outputs[0], FunctionType):
        printer.print_string(" -> (")
        printer.print_attribute(outputs[0])
        printer.print_string(")")
        return
    _XDSL_PRINT_FUNC_OUTPUTS[0](printer, outputs, res_attrs)


_XDSL_PRINT_FUNC_OUTPUTS: list[Any] = []


def print_functional_type(self: Any, printer: Any, state: Any, op: Any) -> None:
    """xDSL's ``FunctionalTypeDirective.print``, parenthesising a single
    function-typed result."""
    from xdsl.dialects.builtin import FunctionType

    result_types = self.result_typeable_directive.get_types(op)
    if len(result_types) == 1 and isinstance(result_types[0], FunctionType):
        state.print_whitespace(printer)
        with printer.in_parens():
            printer.print_list(
                self.operand_typeable_directive.get_types(op), printer.print_attribute
            )
        printer.print_string(" -> (")
        printer.print_attribute(result_types[0])
        printer.print_string(")")
        return
    _XDSL_PRINT_FUNCTIONAL_TYPE[0](self, printer, state, op)


_XDSL_PRINT_FUNCTIONAL_TYPE: list[Any] = []


COMMON_TOKEN = re.compile(
    r"(?:\s|//[^\n]*)*+"
    r"(?:(?P<bare>[a-zA-Z_][a-zA-Z0-9_$.]*+)"
    r"|(?P<percent>%(?:[0-9]++|[a-zA-Z$._-][a-zA-Z0-9$._-]*+))"
    r"|(?P<arrow>->)"
    r"|(?P<punctuation>[:,()\[\]<>=}]|\{(?!-#)))",
    re.ASCII,
)
"""After whitespace and comments, the tokens a module is mostly made of:
bare identifiers, ``%`` identifiers, ``->`` and single-character
punctuation, as xDSL 0.75.0's ``MLIRLexer.lex`` reads them."""


_COMMON_TOKEN_KINDS: dict[str, MLIRTokenKind] = {
    "bare": MLIRTokenKind.BARE_IDENT,
    "percent": MLIRTokenKind.PERCENT_IDENT,
    "arrow": MLIRTokenKind.ARROW,
    ":": MLIRTokenKind.COLON,
    ",": MLIRTokenKind.COMMA,
    "(": MLIRTokenKind.L_PAREN,
    ")": MLIRTokenKind.R_PAREN,
    "[": MLIRTokenKind.L_SQUARE,
    "]": MLIRTokenKind.R_SQUARE,
    "<": MLIRTokenKind.LESS,
    ">": MLIRTokenKind.GREATER,
    "=": MLIRTokenKind.EQUAL,
    "{": MLIRTokenKind.L_BRACE,
    "}": MLIRTokenKind.R_BRACE,
}


def lex_common_tokens(self: Any) -> Any:
    """xDSL's ``MLIRLexer.lex``, reading `COMMON_TOKEN` with one regular
    expression; every other token, the end of the input, and the tokens of
    lexers derived from ``MLIRLexer`` (the assembly format's, which reads
    identifiers differently), as xDSL does."""
    match = COMMON_TOKEN.match(self.input.content, self.pos) if type(self) is MLIRLexer else None
    if match is None:
        return (_XDSL_LEX[0] if _XDSL_LEX else MLIRLexer.lex)(self)
    group = match.lastgroup
    assert group is not None
    start, end = match.span(group)
    self.pos = end
    kinds = _COMMON_TOKEN_KINDS
    kind = kinds[match.group(group)] if group == "punctuation" else kinds[group]
    # ``Token(kind, Span(start, end, self.input))`` with the fields set
    # directly: a frozen dataclass's constructor sets each through
    # ``object.__setattr__``, two thirds of making a token.
    span = _new(Span)
    fields = span.__dict__
    fields["start"] = start
    fields["end"] = end
    fields["input"] = self.input
    token = _new(Token)
    token.kind = kind
    token.span = span
    return token


_new = object.__new__


_XDSL_LEX: list[Any] = []


class RegionNames(dict[str, Any]):
    """The parser's SSA names by name, as `parse_optional_region_in_place` keeps
    them: ``copy`` gives the table itself, so that a region changes it in place."""

    def copy(self) -> RegionNames:
        return self


def parse_optional_region_in_place(self: Any, arguments: Any = None) -> Any:
    """xDSL's ``Parser.parse_optional_region``, with the region's names taken
    out of the parser's table when it ends instead of the table copied
    when it starts.

    xDSL restores the names defined outside a region from a copy taken as
    the region starts, so parsing a module whose values are defined around
    thousands of regions costs the number of regions times the number of
    names. The names a region defines are new ones (a name defined again
    is an error) and nothing else removes a name, so they are the last
    ones in the table's order, which ``popitem`` takes out: the same table
    afterwards. When the region fails, the table keeps its names, as in
    xDSL, where the parser keeps the region's copy.
    """
    names = self.ssa_values
    if type(names) is not RegionNames:
        names = self.ssa_values = RegionNames(names)
    count = len(names)
    region = _XDSL_PARSE_OPTIONAL_REGION[0](self, arguments)
    for _ in range(len(names) - count):
        names.popitem()
    return region


_XDSL_PARSE_OPTIONAL_REGION: list[Any] = []


def apply() -> frozenset[str]:
    """Install the changes that fit the installed xDSL; the names of those in effect."""
    from xdsl.dialects.utils import format as func_format
    from xdsl.irdl import attributes
    from xdsl.irdl.declarative_assembly_format import FunctionalTypeDirective
    from xdsl.parser import attribute_parser
    from xdsl.utils.mlir_lexer import MLIRLexer

    if installed_xdsl_version() == XDSL_VERSION:
        _replace_own_method(MLIRLexer, "lex", lex_common_tokens, _XDSL_LEX)
        _replace_own_method(
            Parser,
            "parse_optional_region",
            parse_optional_region_in_place,
            _XDSL_PARSE_OPTIONAL_REGION,
        )
        if string_literal_regex().pattern == XDSL_STRING_LITERAL:
            set_string_literal_regex(LINEAR_STRING_LITERAL)
        if attribute_parser.base is attributes.base:
            attribute_parser.base = cached_base
        original = func_outputs_printer()
        if original is not print_func_outputs and original.__module__ == func_format.__name__:
            _XDSL_PRINT_FUNC_OUTPUTS[:] = [original]
            set_func_outputs_printer(print_func_outputs)
        _replace_own_method(
            FunctionalTypeDirective, "print", print_functional_type, _XDSL_PRINT_FUNCTIONAL_TYPE
        )
    return applied()


def _replace_own_method(
    owner: type, name: str, replacement: Callable[..., Any], saved: list[Callable[..., Any]]
) -> None:
    """Make `replacement` ``owner.name``, keeping xDSL's in `saved`, only while
    the method there is still xDSL's own (defined in `owner`'s module)."""
    method = getattr(owner, name)
    if method is not replacement and method.__module__ == owner.__module__:
        saved[:] = [method]
        setattr(owner, name, replacement)


def apply_pipeline_words() -> bool:
    """Let pass pipeline words go on through ``.`` and ``:``; whether that is in effect."""
    rules = pipeline_lexer_rules()
    if (
        installed_xdsl_version() == XDSL_VERSION
        and rules[0][0].pattern == XDSL_PIPELINE_DIGIT_WORD
        and rules[2][0].pattern == XDSL_PIPELINE_WORD
    ):
        # A new list: xDSL's own is left as it was, for anyone holding it.
        set_pipeline_lexer_rules(
            [(PIPELINE_DIGIT_WORD, rules[0][1]), rules[1], (PIPELINE_WORD, rules[2][1]), *rules[3:]]
        )
    return "pipeline-words" in applied()


def _input_stream(self: Any) -> tuple[Any, str]:
    """xDSL's ``CommandLineTool.get_input_stream``, with ``-`` for stdin and the
    frontend ``-f`` names in place of the file's extension."""
    import os

    from xdsl.utils.arg_spec import parse_spec

    frontend = getattr(self.args, "frontend", None)
    name = self.args.input_file
    if name in (None, "-"):
        stream = sys.stdin.buffer
        extension = "mlir"
    else:
        stream = open(name, "rb")  # noqa: SIM115 (xdsl-opt closes it)
        extension = os.path.splitext(name)[1].replace(".", "")
    return stream, parse_spec(frontend).name if frontend else extension


def _input_name(self: Any) -> str:
    """xDSL's ``CommandLineTool.get_input_name``, naming stdin also when it is ``-``."""
    return "stdin" if self.args.input_file in (None, "-") else self.args.input_file


def _output_stream(self: Any) -> Any:
    """xDSL's ``xDSLOptMain.prepare_output``, with ``-`` for stdout."""
    if self.args.output_file in (None, "-"):
        return sys.stdout
    return open(self.args.output_file, "w")


def apply_standard_streams() -> bool:
    """``-`` as stdin and stdout in xdsl-opt, and ``-f`` for a file of any name;
    whether that is in effect."""
    from xdsl.tools.command_line_tool import CommandLineTool
    from xdsl.xdsl_opt_main import xDSLOptMain

    own = (
        CommandLineTool.get_input_stream.__module__ == CommandLineTool.__module__
        and CommandLineTool.get_input_name.__module__ == CommandLineTool.__module__
        and xDSLOptMain.prepare_output.__module__ == xDSLOptMain.__module__
    )
    if installed_xdsl_version() == XDSL_VERSION and own:
        CommandLineTool.get_input_stream = _input_stream  # type: ignore[method-assign]
        CommandLineTool.get_input_name = _input_name  # type: ignore[method-assign]
        xDSLOptMain.prepare_output = _output_stream  # type: ignore[method-assign]
    return "standard-streams" in applied()


def applied() -> frozenset[str]:
    """The names of the changes in effect: ``string-literal``, ``dense-literal-type``,
    ``pipeline-words``, ``function-result``, ``standard-streams``, ``common-tokens``,
    ``region-names``."""
    from xdsl.irdl.declarative_assembly_format import FunctionalTypeDirective
    from xdsl.parser import attribute_parser
    from xdsl.utils.mlir_lexer import MLIRLexer

    names = set()
    # xdsl-opt's driver is not imported where it is not running: then it is unchanged.
    tool = sys.modules.get("xdsl.tools.command_line_tool")
    opt_main = sys.modules.get("xdsl.xdsl_opt_main")
    if (
        tool is not None
        and opt_main is not None
        and tool.CommandLineTool.get_input_stream is _input_stream
        and tool.CommandLineTool.get_input_name is _input_name
        and opt_main.xDSLOptMain.prepare_output is _output_stream
    ):
        names.add("standard-streams")
    if pipeline_lexer_rules()[2][0] is PIPELINE_WORD:
        names.add("pipeline-words")
    if MLIRLexer.lex is lex_common_tokens:
        names.add("common-tokens")
    if Parser.parse_optional_region is parse_optional_region_in_place:
        names.add("region-names")
    if string_literal_regex() is LINEAR_STRING_LITERAL:
        names.add("string-literal")
    if attribute_parser.base is cached_base:
        names.add("dense-literal-type")
    if (
        func_outputs_printer() is print_func_outputs
        and FunctionalTypeDirective.print is print_functional_type
    ):
        names.add("function-result")
    return frozenset(names)
