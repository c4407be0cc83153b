"""xdsl_internals: xDSL's private names behind named functions, and the version check."""

from __future__ import annotations

import re
import tomllib
import warnings
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import AddiOp, Arith, ConstantOp
from xdsl.dialects.builtin import Builtin, IntegerAttr, ModuleOp, i32
from xdsl.dialects.func import Func
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.interpreters.func import FuncFunctions
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.arg_spec import PipelineLexer, SpecTokenKind

from relay_xdsl.support.xdsl_internals import (
    XDSL_VERSION,
    IndentCappedPrinter,
    XDSLVersionWarning,
    append_new_op,
    check_xdsl_version,
    convert_pass_option,
    current_token_span,
    func_outputs_printer,
    installed_xdsl_version,
    interpreter_without_notes,
    parse_pass_option_value,
    parser_input,
    parser_input_cache,
    pipeline_lexer_rules,
    resume_parser_at,
    set_first_operands,
    set_func_outputs_printer,
    set_pipeline_lexer_rules,
    set_string_literal_regex,
    string_literal_regex,
    write_accounted,
)

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith):
        ctx.load_dialect(dialect)
    return ctx


# -- the version check ----------------------------------------------------------------


def test_the_version_is_pyprojects_pin_and_installed():
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    assert f"xdsl=={XDSL_VERSION}" in dependencies
    assert installed_xdsl_version() == XDSL_VERSION


def test_another_version_warns_naming_both():
    with pytest.warns(XDSLVersionWarning) as warned:
        check_xdsl_version("0.76.0")
    (warning,) = warned
    assert str(warning.message) == (
        f"relay-xdsl is written for xDSL {XDSL_VERSION}, but xDSL 0.76.0 is installed; "
        "relay-xdsl uses some of xDSL's private names, which may have changed "
        f"(install xdsl=={XDSL_VERSION})"
    )


@pytest.mark.parametrize("installed", [XDSL_VERSION, None], ids=["pinned", "unknown"])
def test_the_pinned_or_an_unknown_version_is_silent(installed: str | None):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_xdsl_version(installed)


# -- the parser ---------------------------------------------------------------------


def test_the_parser_reads_its_input_and_resumes_where_told():
    text = "i32 i64 f32"
    parser = Parser(_context(), text)
    assert parser_input(parser) == text
    assert current_token_span(parser).text == "i32"
    resume_parser_at(parser, text.index("f32"))
    assert current_token_span(parser).start == text.index("f32")
    assert str(parser.parse_type()) == "f32"


def test_a_cache_lives_as_long_as_the_parsers_input():
    parser = Parser(_context(), "i32")
    cache = parser_input_cache(parser, "test")
    assert cache == {}
    cache["key"] = 1
    assert parser_input_cache(parser, "test") is cache
    assert parser_input_cache(parser, "other") == {}
    assert parser_input_cache(Parser(_context(), "i32"), "test") == {}


# -- the printer --------------------------------------------------------------------


def test_accounted_text_is_written_as_it_is():
    printer = Printer(stream=StringIO())
    printer.print_string("a")
    write_accounted(printer, "\n  b")
    assert printer.stream.getvalue() == "a\n  b"


def _nested_module(depth: int) -> ModuleOp:
    module = inner = ModuleOp([])
    for _ in range(depth):
        nested = ModuleOp([])
        inner.body.block.add_op(nested)
        inner = nested
    return module


def test_indentation_stops_growing_at_the_cap():
    stream = StringIO()
    IndentCappedPrinter(stream=stream).print_op(_nested_module(40))
    indents = [len(line) - len(line.lstrip()) for line in stream.getvalue().splitlines()]
    assert max(indents) == 2 * IndentCappedPrinter.MAX_INDENT_LEVELS
    shallow = StringIO()
    IndentCappedPrinter(stream=shallow).print_op(_nested_module(3))
    plain = StringIO()
    Printer(stream=plain).print_op(_nested_module(3))
    assert shallow.getvalue() == plain.getvalue()


# -- the interpreter ----------------------------------------------------------------


@register_impls
class _FailingAdd(InterpreterFunctions):
    @impl(AddiOp)
    def run_addi(self, interpreter: Interpreter, op: AddiOp, args: tuple) -> tuple:
        raise ValueError("no adding today")


_PROGRAM = """
func.func @main(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  func.return %y : i32
}
"""


def test_the_interpreter_runs_ops_and_their_errors_pass_up_without_notes():
    module = Parser(_context(), _PROGRAM).parse_module()
    interpreter = interpreter_without_notes(module, lambda op: LookupError(op.name))
    interpreter.register_implementations(FuncFunctions())
    interpreter.register_implementations(_FailingAdd())
    with pytest.raises(ValueError, match="no adding today") as raised:
        interpreter.call_op("main", (2,))
    assert not getattr(raised.value, "__notes__", None)


def test_an_op_without_an_implementation_raises_the_callers_error():
    module = ModuleOp([ConstantOp(IntegerAttr(1, i32))])
    interpreter = interpreter_without_notes(module, lambda op: LookupError(op.name))
    with pytest.raises(LookupError, match="arith.constant"):
        interpreter.run_op(module.body.block.first_op, ())


# -- pass pipelines -----------------------------------------------------------------


def test_pass_option_values_are_read_and_converted_as_xdsl_opt_does():
    lexer = PipelineLexer('42,"text",word')
    values = [parse_pass_option_value(lexer)]
    while lexer.lex().kind is SpecTokenKind.COMMA:
        values.append(parse_pass_option_value(lexer))
    assert values == [42, "text", "word"]
    assert convert_pass_option((42,), int) == 42
    assert convert_pass_option(("a", "b"), tuple[str, ...]) == ("a", "b")
    with pytest.raises((ValueError, TypeError)):
        convert_pass_option(("a",), int)


# -- what xdsl_patches.py replaces ----------------------------------------------------


@pytest.mark.parametrize(
    ("get", "set_", "replacement"),
    [
        (string_literal_regex, set_string_literal_regex, re.compile('"[^"]*"')),
        (func_outputs_printer, set_func_outputs_printer, lambda *args: None),
        (pipeline_lexer_rules, set_pipeline_lexer_rules, []),
    ],
    ids=["string-literal", "func-outputs", "pipeline-rules"],
)
def test_each_replaceable_attribute_reads_back_what_is_set(get, set_, replacement):
    original = get()
    try:
        set_(replacement)
        assert get() is replacement
    finally:
        set_(original)
    assert get() is original


def test_set_first_operands_makes_the_operands_and_uses_the_setter_makes():
    one = ConstantOp(IntegerAttr(1, i32))
    two = ConstantOp(IntegerAttr(2, i32))
    before = AddiOp(one, one)  # `one` has a use already
    a, b = one.result, two.result
    by_setter = AddiOp.__new__(AddiOp)
    by_setter.operands = (a, b, a)
    made = AddiOp.__new__(AddiOp)
    set_first_operands(made, (a, b, a))
    assert tuple(made.operands) == tuple(by_setter.operands) == (a, b, a)
    assert [(u.operation, u.index) for u in made.operands[0].uses] == [
        (made, 2),
        (made, 0),
        (by_setter, 2),
        (by_setter, 0),
        (before, 1),
        (before, 0),
    ]
    assert [(u.operation, u.index) for u in b.uses] == [(made, 1), (by_setter, 1)]
    made.operands = (b,)  # the generic setter drops the uses set_first_operands made
    assert [u.operation for u in a.uses] == [by_setter, by_setter, before, before]


def test_append_new_op_links_as_add_op_does():
    from xdsl.ir import Block

    by_add_op, appended = Block(), Block()
    for block, add in ((by_add_op, Block.add_op), (appended, append_new_op)):
        made = [ConstantOp(IntegerAttr(value, i32)) for value in (1, 2, 3)]
        for op in made:
            add(block, op)
        ops = list(block.ops)
        assert ops == made
        assert [op.parent for op in ops] == [block] * 3
        assert [op.prev_op for op in ops] == [None, ops[0], ops[1]]
        assert [op.next_op for op in ops] == [ops[1], ops[2], None]
        assert (block.first_op, block.last_op) == (ops[0], ops[2])
