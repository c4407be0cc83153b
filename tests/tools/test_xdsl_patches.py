"""relay-xdsl's changes to xDSL 0.75.0: exact, guarded, idempotent.

docs/upstream-xdsl.md proposes them upstream; these tests check the claims
made there (the same literals matched, in linear time; the same constraint)
and how they are applied (only on xDSL 0.75.0, only over xDSL's own code,
once).
"""

from __future__ import annotations

import io
import itertools
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    Builtin,
    ComplexType,
    IndexType,
    IntegerType,
    RankedStructure,
)
from xdsl.dialects.func import Func
from xdsl.dialects.utils import format as func_format
from xdsl.irdl import attributes
from xdsl.irdl.declarative_assembly_format import FunctionalTypeDirective
from xdsl.irdl.declarative_assembly_format_parser import FormatLexer
from xdsl.parser import Parser, attribute_parser
from xdsl.printer import Printer
from xdsl.utils import arg_spec
from xdsl.utils.exceptions import ArgSpecParseError, ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from relay_xdsl.tools import xdsl_patches

XDSL_STRING_LITERAL = re.compile(xdsl_patches.XDSL_STRING_LITERAL)
XDSL_PIPELINE_RULES = [
    (re.compile(xdsl_patches.XDSL_PIPELINE_DIGIT_WORD), kind)
    if rule is xdsl_patches.PIPELINE_DIGIT_WORD
    else (re.compile(xdsl_patches.XDSL_PIPELINE_WORD), kind)
    if rule is xdsl_patches.PIPELINE_WORD
    else (rule, kind)
    for rule, kind in arg_spec._lexer_rules
]
LIT_TESTS = Path(__file__).resolve().parents[1] / "filecheck"
DENSE_LITERAL_TYPE = RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]


@pytest.fixture
def unpatched_xdsl(monkeypatch: pytest.MonkeyPatch):
    """xDSL as it ships, put back as it was after the test."""
    monkeypatch.setattr(MLIRLexer, "_unescaped_characters_regex", XDSL_STRING_LITERAL)
    if MLIRLexer.lex is xdsl_patches.lex_common_tokens:
        monkeypatch.setattr(MLIRLexer, "lex", xdsl_patches._XDSL_LEX[0])
    if Parser.parse_optional_region is xdsl_patches.parse_optional_region_in_place:
        monkeypatch.setattr(
            Parser, "parse_optional_region", xdsl_patches._XDSL_PARSE_OPTIONAL_REGION[0]
        )
    monkeypatch.setattr(attribute_parser, "base", attributes.base)
    monkeypatch.setattr(arg_spec, "_lexer_rules", XDSL_PIPELINE_RULES)
    if func_format._print_func_outputs is xdsl_patches.print_func_outputs:
        monkeypatch.setattr(
            func_format, "_print_func_outputs", xdsl_patches._XDSL_PRINT_FUNC_OUTPUTS[0]
        )
    if FunctionalTypeDirective.print is xdsl_patches.print_functional_type:
        monkeypatch.setattr(
            FunctionalTypeDirective, "print", xdsl_patches._XDSL_PRINT_FUNCTIONAL_TYPE[0]
        )


def test_the_replaced_code_is_xdsls():
    assert xdsl_patches.installed_xdsl_version() == xdsl_patches.XDSL_VERSION
    assert attribute_parser.base in (attributes.base, xdsl_patches.cached_base)


def test_apply_installs_them_once(unpatched_xdsl):
    assert xdsl_patches.applied() == frozenset()
    assert xdsl_patches.apply() == {
        "common-tokens",
        "region-names",
        "string-literal",
        "dense-literal-type",
        "function-result",
    }
    regex, base = MLIRLexer._unescaped_characters_regex, attribute_parser.base
    assert xdsl_patches.apply() == {
        "common-tokens",
        "region-names",
        "string-literal",
        "dense-literal-type",
        "function-result",
    }
    assert (MLIRLexer._unescaped_characters_regex, attribute_parser.base) == (regex, base)


def test_another_xdsl_version_keeps_xdsls_code(unpatched_xdsl, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(xdsl_patches, "installed_xdsl_version", lambda: "0.76.0")
    assert xdsl_patches.apply() == frozenset()
    assert MLIRLexer._unescaped_characters_regex is XDSL_STRING_LITERAL
    assert attribute_parser.base is attributes.base


def test_code_changed_by_someone_else_is_left_alone(
    unpatched_xdsl, monkeypatch: pytest.MonkeyPatch
):
    theirs = re.compile(r'"[^"]*"')
    monkeypatch.setattr(MLIRLexer, "_unescaped_characters_regex", theirs)
    assert xdsl_patches.apply() == {
        "common-tokens",
        "region-names",
        "dense-literal-type",
        "function-result",
    }
    assert MLIRLexer._unescaped_characters_regex is theirs


def test_the_string_regex_matches_what_xdsls_matches():
    """Every string of up to 5 characters over one representative of each
    character class, after an opening quote: the same match, or none."""
    alphabet = ["a", '"', "\\", "n", "t", "0", "F", "g", "\n", "\v", "\f"]
    for length in range(6):
        for chars in itertools.product(alphabet, repeat=length):
            text = '"' + "".join(chars)
            ours = xdsl_patches.LINEAR_STRING_LITERAL.match(text)
            theirs = XDSL_STRING_LITERAL.match(text)
            assert (ours and ours.end()) == (theirs and theirs.end()), text


def test_the_string_regex_is_linear():
    start = time.process_time()
    for text in ('"' + "a" * 100_000, '"' + "ab\\n" * 25_000, '"' + "a" * 50_000 + "\\q"):
        assert xdsl_patches.LINEAR_STRING_LITERAL.match(text) is None
    assert time.process_time() - start < 5  # xDSL's own takes about a day for 40 characters


def test_the_cached_constraint_is_xdsls():
    constraint = xdsl_patches.cached_base(DENSE_LITERAL_TYPE)
    assert constraint == attributes.base(DENSE_LITERAL_TYPE)
    assert xdsl_patches.cached_base(DENSE_LITERAL_TYPE) is constraint


def test_an_unhashable_type_expression_is_not_cached():
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

    with pytest.raises(Exception) as cached:
        xdsl_patches.cached_base(Unhashable())
    with pytest.raises(Exception) as direct:
        attributes.base(Unhashable())  # type: ignore[arg-type]
    assert type(cached.value) is type(direct.value)


def _tokens(text: str, lex: Callable[[MLIRLexer], Any]) -> list[tuple[Any, int, int]] | str:
    """The tokens `lex` reads from `text` up to the end, or the error it raises."""
    lexer = (FormatLexer if lex is FormatLexer.lex else MLIRLexer)(Input(text, "t"))
    tokens = []
    try:
        while (token := lex(lexer)).kind is not MLIRTokenKind.EOF:
            tokens.append((token.kind, token.span.start, token.span.end))
    except ParseError as error:
        return str(error)
    return tokens


def test_common_tokens_are_read_as_xdsl_reads_them():
    """Every text of up to 4 characters that start or end a token, and of up
    to 3 pieces among those and representatives of each kind of token: the
    same tokens at the same spans, or the same error."""
    xdsl_lex = xdsl_patches._XDSL_LEX[0] if xdsl_patches._XDSL_LEX else MLIRLexer.lex
    characters = ["a", "%", "0", "-", ">", "{", "#", "}", ":", "$", ".", "/", " ", "\n"]
    pieces = [*characters, "_", "//", "é", '"', "@", "!", "x1.b", "%x_1", "%0a", "{-#", "<", "("]
    texts = itertools.chain(
        itertools.product(characters, repeat=4),
        *(itertools.product(pieces, repeat=length) for length in range(4)),
    )
    for chosen in texts:
        text = "".join(chosen)
        assert _tokens(text, xdsl_patches.lex_common_tokens) == _tokens(text, xdsl_lex), text


def test_common_tokens_read_every_lit_test_as_xdsl_does():
    xdsl_lex = xdsl_patches._XDSL_LEX[0] if xdsl_patches._XDSL_LEX else MLIRLexer.lex
    for path in sorted(LIT_TESTS.rglob("*.mlir")):
        text = path.read_text()
        assert _tokens(text, xdsl_patches.lex_common_tokens) == _tokens(text, xdsl_lex), path


def test_the_assembly_format_lexer_keeps_its_own_tokens(unpatched_xdsl):
    text = "$lhs `,` $rhs attr-dict `:` type($lhs) ^"
    xdsl_tokens = _tokens(text, FormatLexer.lex)
    assert "common-tokens" in xdsl_patches.apply()
    assert _tokens(text, FormatLexer.lex) == xdsl_tokens
    assert (MLIRTokenKind.BARE_IDENT, 14, 23) in xdsl_tokens  # attr-dict, one identifier


def test_the_common_token_regex_is_linear():
    start = time.process_time()
    for text in (" " * 100_000 + '"', "// a\n" * 20_000 + "@", "a" * 100_000):
        xdsl_patches.COMMON_TOKEN.match(text)
    assert time.process_time() - start < 5


# -- region names -------------------------------------------------------------------

REGION_TEXTS = {
    "nested": (
        "func.func @f(%a: i32) -> i32 {\n"
        "  %b = arith.addi %a, %a : i32\n"
        '  %c = "test.op"(%b) ({\n'
        "  ^bb0(%d: i32):\n"
        '    %e = "test.op"(%d, %b) ({\n'
        '      %f = "test.op"(%e) : (i32) -> i32\n'
        "    }) : (i32, i32) -> i32\n"
        "  }, {\n"
        '    %e = "test.op"(%b) : (i32) -> i32\n'
        "  }) : (i32) -> i32\n"
        "  func.return %c : i32\n"
        "}\n"
        "func.func @g(%a: i32) -> i32 {\n"
        "  func.return %a : i32\n"
        "}"
    ),
    "inner name used outside": (
        'func.func @f(%a: i32) -> i32 {\n  "test.op"() ({\n'
        '    %b = "test.op"(%a) : (i32) -> i32\n'
        "  }) : () -> ()\n  func.return %b : i32\n}"
    ),
    "outer name defined again": (
        'func.func @f(%a: i32) {\n  "test.op"() ({\n'
        '    %a = "test.op"() : () -> i32\n'
        "  }) : () -> ()\n  func.return\n}"
    ),
    "forward reference into a region": (
        'func.func @f() {\n  "test.op"(%x) : (i32) -> ()\n  "test.op"() ({\n'
        '    %x = "test.op"() : () -> i32\n'
        "  }) : () -> ()\n  func.return\n}"
    ),
    "unclosed region": 'func.func @f(%a: i32) {\n  "test.op"() ({\n  %b = arith.addi %a, %a : i32\n',
}


def _parsed_module(text: str) -> str:
    """The generic form of `text` parsed, or the error."""
    from xdsl.dialects.arith import Arith
    from xdsl.dialects.test import Test

    ctx = Context()
    for dialect in (Builtin, Func, Arith, Test):
        ctx.load_dialect(dialect)
    try:
        module = Parser(ctx, text).parse_module()
    except ParseError as error:
        return str(error)
    output = io.StringIO()
    Printer(output, print_generic_format=True).print_op(module)
    return output.getvalue()


@pytest.mark.parametrize("name", list(REGION_TEXTS))
def test_regions_parse_as_xdsl_parses_them(unpatched_xdsl, name: str):
    text = REGION_TEXTS[name]
    xdsl_parsed = _parsed_module(text)
    assert "region-names" in xdsl_patches.apply()
    assert _parsed_module(text) == xdsl_parsed


def test_a_regions_names_are_taken_out_when_it_ends():
    xdsl_patches.apply()
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    parser = Parser(ctx, "{\n  %b = func.call @g() : () -> i32\n}")
    parser.ssa_values["a"] = ()
    table = parser.ssa_values
    assert parser.parse_optional_region() is not None
    assert dict(parser.ssa_values) == {"a": ()}
    assert parser.ssa_values is not table  # made a RegionNames once, then kept
    assert isinstance(parser.ssa_values, xdsl_patches.RegionNames)


# -- pass pipeline words ------------------------------------------------------------


def test_pipeline_words_are_applied_on_their_own(unpatched_xdsl):
    assert xdsl_patches.apply() == {
        "common-tokens",
        "region-names",
        "string-literal",
        "dense-literal-type",
        "function-result",
    }
    assert xdsl_patches.apply_pipeline_words()
    assert xdsl_patches.applied() == {
        "common-tokens",
        "region-names",
        "string-literal",
        "dense-literal-type",
        "function-result",
        "pipeline-words",
    }
    rules = arg_spec._lexer_rules
    assert xdsl_patches.apply_pipeline_words() and arg_spec._lexer_rules is rules


def test_pipeline_words_keep_xdsls_rules_on_another_version(
    unpatched_xdsl, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(xdsl_patches, "installed_xdsl_version", lambda: "0.76.0")
    assert not xdsl_patches.apply_pipeline_words()
    assert arg_spec._lexer_rules is XDSL_PIPELINE_RULES


def _parsed(pipeline: str) -> list[tuple[str, dict]]:
    return [(spec.name, spec.parameters) for spec in arg_spec.parse_pipeline(pipeline)]


PIPELINES = [
    "relay-defuse",
    "relay-defuse{composite=a,b inline-globals=true},canonicalize",
    'relay-defuse{composite="ccompiler.conv_add_relu"}',
    "relay-fuse-ops{fuse-opt-level=-3 max-depth=256}",
    "p{x=1.5 y=2d-slice z=-1,2}",
    "mlir-opt[canonicalize]",
]


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pipelines_xdsl_reads_read_the_same(unpatched_xdsl, pipeline: str):
    before = _parsed(pipeline)
    xdsl_patches.apply_pipeline_words()
    assert _parsed(pipeline) == before


@pytest.mark.parametrize(
    ("pipeline", "parameters"),
    [
        (
            "relay-defuse{composite=ccompiler.conv_add_relu}",
            {"composite": ("ccompiler.conv_add_relu",)},
        ),
        (
            "relay-defuse{composite=ccompiler.conv_add_relu,ccompiler.conv}",
            {"composite": ("ccompiler.conv_add_relu", "ccompiler.conv")},
        ),
        ("relay-merge-composite{patterns=my_patterns:TABLE}", {"patterns": ("my_patterns:TABLE",)}),
        ("p{x=pkg.mod:attr-1 y=3d.v}", {"x": ("pkg.mod:attr-1",), "y": ("3d.v",)}),
    ],
)
def test_bare_words_with_dots_and_colons(unpatched_xdsl, pipeline: str, parameters: dict):
    with pytest.raises(ArgSpecParseError):
        _parsed(pipeline)
    xdsl_patches.apply_pipeline_words()
    ((_, parsed),) = _parsed(pipeline)
    assert parsed == parameters


def test_a_function_returning_a_function_reads_back():
    xdsl_patches.apply()
    text = (
        "func.func @compose(%f: (i32) -> i32) -> ((i32) -> i32) {\n"
        "  func.return %f : (i32) -> i32\n}"
    )
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    module = Parser(ctx, text).parse_module()
    printed = str(module)
    assert "-> ((i32) -> i32) {" in printed
    assert str(Parser(ctx, printed).parse_module()) == printed


def test_a_call_returning_a_function_reads_back():
    xdsl_patches.apply()
    text = (
        "func.func @compose(%f: (i32) -> i32) -> ((i32) -> i32) {\n"
        "  func.return %f : (i32) -> i32\n}\n"
        "func.func @use(%f: (i32) -> i32) -> ((i32) -> i32) {\n"
        "  %g = func.call @compose(%f) : ((i32) -> i32) -> ((i32) -> i32)\n"
        "  func.return %g : (i32) -> i32\n}"
    )
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    module = Parser(ctx, text).parse_module()
    printed = str(module)
    assert ": ((i32) -> i32) -> ((i32) -> i32)" in printed
    assert str(Parser(ctx, printed).parse_module()) == printed


# -- standard streams ---------------------------------------------------------------


@pytest.fixture
def xdsl_opt_streams(monkeypatch: pytest.MonkeyPatch):
    """xdsl-opt's file handling, put back as it was after the test."""
    from xdsl.tools.command_line_tool import CommandLineTool
    from xdsl.xdsl_opt_main import xDSLOptMain

    for owner, name in (
        (CommandLineTool, "get_input_stream"),
        (CommandLineTool, "get_input_name"),
        (xDSLOptMain, "prepare_output"),
    ):
        monkeypatch.setattr(owner, name, owner.__dict__[name])
    return CommandLineTool, xDSLOptMain


def test_standard_streams_are_applied_on_their_own(xdsl_opt_streams, tmp_path):
    import sys
    from types import SimpleNamespace

    tool, opt_main = xdsl_opt_streams
    assert "standard-streams" not in xdsl_patches.applied()
    assert xdsl_patches.apply_standard_streams()
    assert "standard-streams" in xdsl_patches.applied()
    assert xdsl_patches.apply_standard_streams()  # once

    def run(**args: object) -> SimpleNamespace:
        return SimpleNamespace(args=SimpleNamespace(**args))

    stdin = run(input_file="-", frontend="relay", output_file="-")
    assert tool.get_input_stream(stdin) == (sys.stdin.buffer, "relay")
    assert tool.get_input_name(stdin) == "stdin"
    assert opt_main.prepare_output(stdin) is sys.stdout
    model = tmp_path / "model.txt"
    model.write_text("")
    stream, extension = tool.get_input_stream(run(input_file=str(model), frontend="relay{x=1}"))
    stream.close()
    assert extension == "relay"
    stream, extension = tool.get_input_stream(run(input_file=str(model), frontend=None))
    stream.close()
    assert extension == "txt"


def test_standard_streams_keep_xdsls_on_another_version(
    xdsl_opt_streams, monkeypatch: pytest.MonkeyPatch
):
    tool, _ = xdsl_opt_streams
    monkeypatch.setattr(xdsl_patches, "installed_xdsl_version", lambda: "0.76.0")
    own = tool.get_input_stream
    assert not xdsl_patches.apply_standard_streams()
    assert tool.get_input_stream is own
