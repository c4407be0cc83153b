"""Every use of xDSL's private names, each behind a small named function.

xDSL's public API has no way to do a few things relay-xdsl needs:

* the parser: the text it reads, a cache that lives as long as that input,
  the span of its current token, and continuing at an offset, so that text
  already understood is skipped without being lexed again
  (dialects/relay/syntax.py) and ops are located in their file
  (tools/diagnostics.py);
* the printer: writing text whose printing it has already accounted for
  (syntax.py), and capping its indentation (`IndentCappedPrinter`);
* the interpreter: its table of implementations, to run ops without adding
  the module to their errors (interpreter/runner.py);
* the pass pipeline: reading and converting option values
  (tools/pass_pipeline.py);
* the three attributes that tools/xdsl_patches.py replaces;
* operations: setting the operands of one just made, and appending it to a
  block, without the generic steps and checks (importers/relay_ops.py,
  importers/relay_expressions.py).

Private names may change in any xDSL release, so they are written against
one version, `XDSL_VERSION`, the one pyproject.toml pins. Importing this
module with another xDSL installed warns, naming both versions
(`XDSLVersionWarning`). A warning rather than an error: pip installs the
pinned version, so another one is there only because someone chose it,
typically to try relay-xdsl on a newer xDSL; an error at import would stop
exactly that trial, while most of these names may well still be there. The
warning says what to expect if one is gone (an ``AttributeError`` or
``ImportError`` from this module). tests/test_layout.py keeps xDSL's
private names out of every other module.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from itertools import repeat
from typing import TYPE_CHECKING, Any, ClassVar

from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.core import SSAValues, Use
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.lexer import Span

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.interpreter import Interpreter
    from xdsl.utils.arg_spec import PipelineLexer

XDSL_VERSION = "0.75.0"
"""The xDSL version this module is written for: pyproject.toml's pin."""


class XDSLVersionWarning(UserWarning):
    """The installed xDSL is not the version relay-xdsl is written for."""


@functools.cache
def installed_xdsl_version() -> str | None:
    """The installed xDSL's version; None when xDSL has no package metadata
    (run from a source tree)."""
    try:
        return version("xdsl")
    except PackageNotFoundError:
        return None


def check_xdsl_version(installed: str | None) -> None:
    """Warn (`XDSLVersionWarning`) unless `installed` is `XDSL_VERSION` or unknown."""
    if installed is not None and installed != XDSL_VERSION:
        warnings.warn(
            f"relay-xdsl is written for xDSL {XDSL_VERSION}, but xDSL {installed} is "
            f"installed; relay-xdsl uses some of xDSL's private names, which may have "
            f"changed (install xdsl=={XDSL_VERSION})",
            XDSLVersionWarning,
            stacklevel=2,
        )


check_xdsl_version(installed_xdsl_version())


# -- the parser ---------------------------------------------------------------------


def parser_input(parser: Parser) -> str:
    """The whole text `parser` reads (``parser.pos`` is an offset into it)."""
    return parser._parser_state.lexer.input.content


def parser_input_cache(parser: Parser, name: str) -> dict[Any, Any]:
    """The dictionary `name` that lives as long as `parser`'s input, shared by
    the parsers of that input; empty at first."""
    return parser._parser_state.__dict__.setdefault(name, {})


def resume_parser_at(parser: Parser, offset: int) -> None:
    """Continue parsing at `offset` of the input, skipping the text before it
    without lexing it."""
    parser._resume_from(offset)


def current_token_span(parser: Parser) -> Span:
    """The span of the token `parser` reads next."""
    return parser._current_token.span


# -- the printer --------------------------------------------------------------------


def write_accounted(printer: Printer, text: str) -> None:
    """Write `text` to `printer`'s stream as it is: text printed earlier
    through `printer`, whose lines and columns it has already counted."""
    printer._write(text)


class IndentCappedPrinter(Printer):
    """xDSL's printer, with indentation capped at `MAX_INDENT_LEVELS`, so that
    text nested deeper stays linear in size."""

    MAX_INDENT_LEVELS: ClassVar[int] = 32

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        indent = self._indent if indent is None else indent
        super()._print_new_line(min(indent, self.MAX_INDENT_LEVELS), print_message)


# -- operations ---------------------------------------------------------------------


def set_first_operands(op: Operation, operands: Sequence[SSAValue]) -> None:
    """Give `op`, made without operands (``__new__``), `operands` and a use of
    each: what ``Operation.operands``'s setter does, less its generic steps
    (a copy of the sequence, dropping the uses of previous operands)."""
    count = len(operands)
    # Most ops have one or two operands, a constant none: spelled out, as a
    # call of the class through `map` costs about twice as much.
    if count == 0:
        op._operands = SSAValues()
        op._operand_uses = ()
        return
    if count == 1:
        uses: tuple[Use, ...] = (Use(op, 0),)
    elif count == 2:
        uses = (Use(op, 0), Use(op, 1))
    else:
        uses = tuple(map(Use, repeat(op, count), range(count)))
    for operand, use in zip(operands, uses):
        # IRWithUses.add_use: the new use heads the operand's list.
        first = operand.first_use
        use._next_use = first
        if first is not None:
            first._prev_use = use
        operand.first_use = use
    op._operands = SSAValues(operands)
    op._operand_uses = uses


def append_new_op(block: Block, op: Operation) -> None:
    """``block.add_op(op)`` for an `op` just made, without regions: what it
    checks (that `op` has no parent and does not contain `block`) holds."""
    last = block._last_op
    op.parent = block
    if last is None:
        block._first_op = op
    else:
        last._next_op = op
        op._prev_op = last
    block._last_op = op


# -- the interpreter ----------------------------------------------------------------


def interpreter_without_notes(
    module: ModuleOp, cannot_run: Callable[[Operation], Exception]
) -> Interpreter:
    """An xDSL interpreter for `module` whose op implementations run without
    xDSL adding a note to their errors; an op without one raises
    ``cannot_run(op)``."""
    from xdsl.interpreter import Interpreter

    return Interpreter(module, _impls=_implementations_without_notes()(cannot_run))


@functools.cache
def _implementations_without_notes() -> type:
    from xdsl.interpreter import OpImplResult, PythonValues
    from xdsl.interpreter import _InterpreterFunctionImpls as Implementations

    class WithoutNotes(Implementations):
        """xDSL's table of op implementations, which runs them as they are."""

        def __init__(self, cannot_run: Callable[[Operation], Exception]):
            super().__init__()
            self.cannot_run = cannot_run

        def run(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> OpImplResult:
            entry = self._impl_dict.get(type(op))
            if entry is None:
                raise self.cannot_run(op)
            functions, implementation = entry
            return implementation(functions, interpreter, op, args)

    return WithoutNotes


# -- pass pipelines -----------------------------------------------------------------


def parse_pass_option_value(lexer: PipelineLexer) -> Any:
    """One value of a pass option (a string, number or word) from `lexer`."""
    from xdsl.utils.arg_spec import _parse_parameter_value_element

    return _parse_parameter_value_element(lexer)


def convert_pass_option(values: tuple, expected: Any) -> Any:
    """Pass option `values` as a pass field of type `expected` holds them, as
    xdsl-opt converts them; ``ValueError`` or ``TypeError`` where they do not fit."""
    from xdsl.utils.arg_spec import _convert_arg_to_type

    return _convert_arg_to_type(values, expected)


# -- what tools/xdsl_patches.py replaces ----------------------------------------------


def string_literal_regex() -> re.Pattern[str]:
    """The regular expression with which xDSL's MLIR lexer matches string literals."""
    from xdsl.utils.mlir_lexer import MLIRLexer

    return MLIRLexer._unescaped_characters_regex


def set_string_literal_regex(regex: re.Pattern[str]) -> None:
    """Make xDSL's MLIR lexer match string literals with `regex`."""
    from xdsl.utils.mlir_lexer import MLIRLexer

    MLIRLexer._unescaped_characters_regex = regex


def func_outputs_printer() -> Callable[..., None]:
    """The function with which ``func.func``'s custom syntax prints its results."""
    from xdsl.dialects.utils import format as func_format

    return func_format._print_func_outputs


def set_func_outputs_printer(printer: Callable[..., None]) -> None:
    """Make ``func.func``'s custom syntax print its results with `printer`."""
    from xdsl.dialects.utils import format as func_format

    func_format._print_func_outputs = printer


def pipeline_lexer_rules() -> list[tuple[Any, Any]]:
    """The rules of xDSL's pass pipeline lexer: (regular expression, token kind)."""
    from xdsl.utils import arg_spec

    return arg_spec._lexer_rules


def set_pipeline_lexer_rules(rules: list[tuple[Any, Any]]) -> None:
    """Make xDSL's pass pipeline lexer use `rules`."""
    from xdsl.utils import arg_spec

    arg_spec._lexer_rules = rules
