"""The relay ops' parsing shortcuts read exactly what xDSL's generic parser reads."""

from __future__ import annotations

import io
import re

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, TensorType, f32
from xdsl.dialects.func import Func
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import structure, syntax
from relay_xdsl.dialects.relay.dialect import Relay
from relay_xdsl.dialects.relay.syntax import (
    parse_call,
    parse_dense_literal,
    parse_relay_type,
    read_bindings,
)
from relay_xdsl.support.memo import clear_memos

T2 = TensorType(f32, [2])


def _context() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    return ctx


LITERALS = [
    'dense<"0x0000803F00000040"> : tensor<2xf32>',
    'dense<"0x0000803F"> : tensor<2xf32>',  # a splat in hex
    'dense<"0x"> : tensor<0xf32>',
    'dense<"0x0000803F"> : tensor<f32>',
    'dense<"0x0000803F00000040"> : tensor<f32>',  # a zero-rank tensor of two values
    'dense<"0x0000803F0000"> : tensor<1xf32>',  # a value and a half
    'dense<"0x0100"> : tensor<2xi8>',
    "dense<1.5> : tensor<f32>",
    "dense<[[1.5, 2.0]]> : tensor<1x2xf32>",
    "dense<[1.5e+00, -2.0]> : tensor<2xf16>",
    "dense<[1.0, 2.0]> : tensor<2xbf16>",
    "dense<[200, -3]> : tensor<2xi8>",
    "dense<[255]> : tensor<1xui8>",
    "dense<[1, 2]> : tensor<2xf32>",  # integers for floats: left to xDSL
    "dense<1.0> : tensor<4xf32>",  # a splat
    "dense<[[1.0], [2.0, 3.0]]> : tensor<2x2xf32>",  # ragged
    "dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<4xf32>",  # another shape
    "dense<[true, false]> : tensor<2xi1>",
    "dense<[[1, 2, 3], [4, 5, 6]]> : tensor<3x2xi32>",
]


@pytest.mark.parametrize("text", LITERALS)
def test_dense_literals_read_as_xdsl_reads_them(text: str):
    def read(parse) -> object:
        parser = Parser(_context(), text + " next")
        try:
            value = parse(parser)
        except (ParseError, ValueError, VerifyException) as error:  # the same error either way
            return type(error)
        return value, parser.pos

    assert read(parse_dense_literal) == read(lambda p: p.parse_attribute())


@pytest.mark.parametrize(
    "text", ["tensor<1x8x?xf32>", "tensor<f64>", "tensor<4xf32, 1 : i32>", "tuple<tensor<2xi64>>"]
)
def test_types_read_as_xdsl_reads_them(text: str):
    ctx = _context()
    fast, generic = Parser(ctx, f"{text} {text} x"), Parser(ctx, f"{text} {text} x")
    assert [parse_relay_type(fast), parse_relay_type(fast)] == [
        generic.parse_type(),
        generic.parse_type(),
    ]
    assert fast.pos == generic.pos


def test_repeated_lines_reuse_what_was_read_and_nothing_else():
    ctx = _context()
    ctx.load_dialect(Relay)
    text = """builtin.module {
  %0 = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = relay.nn.softmax(%0) {axis = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = relay.nn.softmax(%1) {axis = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %3 = relay.nn.softmax(%2) {axis = -1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %4 = relay.nn.softmax(%3) {axis = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32> %5 = relay.nn.relu(%4) : (tensor<2xf32>) -> tensor<2xf32>
  %6 = relay.nn.softmax(%5) {axis = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32>
}
"""
    module = Parser(ctx, text).parse_module()
    ops = list(module.ops)
    assert [op.attributes.get("axis") for op in ops[1:5]] == [
        op.attributes.get("axis") for op in Parser(ctx, text).parse_module().ops
    ][1:5]
    assert [op.name for op in ops] == ["relay.constant"] + ["relay.nn.softmax"] * 4 + [
        "relay.nn.relu",
        "relay.nn.softmax",
    ]
    # Each op owns its attribute dictionary: changing one leaves the others.
    ops[1].attributes["axis"] = ops[3].attributes["axis"]
    assert ops[2].attributes["axis"] != ops[3].attributes["axis"]
    assert str(module) == str(Parser(ctx, text).parse_module()).replace(
        "%1 = relay.nn.softmax(%0) {axis = 0", "%1 = relay.nn.softmax(%0) {axis = -1"
    )


FN_HEADERS = {
    "printed": "(%p = %x : tensor<2xf32>, %q.0 = %0 : tensor<1x2xf32>)",
    "no bindings": "()",
    "a tuple index": "(%p = %x#0 : tensor<2xf32>, %q.0 = %0 : tensor<1x2xf32>)",
    "other spacing": "(%p  = %x : tensor<2xf32>,\n %q.0 = %0 : tensor<1x2xf32>)",
    "not a type": "(%p = %x : tensor<xf32>, %q.0 = %0 : tensor<1x2xf32>)",
    "not a tensor": "(%p = %x : tuple<tensor<2xf32>>, %q.0 = %0 : tensor<1x2xf32>)",
    "a name run on": "(%p = %0x : tensor<2xf32>, %q.0 = %0 : tensor<1x2xf32>)",
    "an undefined value": "(%p = %y : tensor<2xf32>, %q.0 = %0 : tensor<1x2xf32>)",
    "the wrong type": "(%p = %0 : tensor<2xf32>, %q.0 = %x : tensor<1x2xf32>)",
    "a parameter twice": "(%p = %x : tensor<2xf32>, %p = %0 : tensor<1x2xf32>)",
    "an outer name": "(%x = %x : tensor<2xf32>, %q.0 = %0 : tensor<1x2xf32>)",
    "unclosed": "(%p = %x : tensor<2xf32>, %q.0 = %0 : tensor<1x2xf32>",
}


def _generic_or_error(ctx: Context, text: str) -> str:
    """The generic form of the module `text` parsed afresh, or the error."""
    clear_memos()
    try:
        module = Parser(ctx, text).parse_module()
    except ParseError as error:
        return str(error)
    output = io.StringIO()
    Printer(output, print_generic_format=True).print_op(module)
    return output.getvalue()


@pytest.mark.parametrize("name", list(FN_HEADERS))
def test_fn_bindings_read_as_xdsl_reads_them(name: str, monkeypatch: pytest.MonkeyPatch):
    ctx = _context()
    ctx.load_dialect(Relay)
    ctx.load_dialect(Func)
    text = (
        "func.func @f(%x: tensor<2xf32>, %0: tensor<1x2xf32>) -> tensor<2xf32> {\n"
        f"  %r = relay.fn{FN_HEADERS[name]} -> tensor<2xf32> {{\n"
        "    relay.return %p : tensor<2xf32>\n  }\n"
        "  func.return %r : tensor<2xf32>\n}\n"
    )

    fast = _generic_or_error(ctx, text)
    monkeypatch.setattr(structure, "read_bindings", lambda parser: None)
    assert fast == _generic_or_error(ctx, text)


@pytest.mark.parametrize(("name", "count"), [("printed", 2), ("no bindings", 0)])
def test_printed_fn_bindings_are_read_whole(name: str, count: int):
    text = FN_HEADERS[name] + " -> x"
    parser = Parser(_context(), text)
    bindings = read_bindings(parser)
    assert bindings is not None and len(bindings) == count
    assert [(p.name.text, o.span.text, o.index) for p, o, _ in bindings] == [
        ("%p", "%x", 0),
        ("%q.0", "%0", 0),
    ][:count]
    assert parser.pos == text.index("->")


@pytest.mark.parametrize("name", ["a tuple index", "other spacing", "not a type", "not a tensor"])
def test_other_fn_bindings_are_left_to_the_generic_parser(name: str):
    parser = Parser(_context(), FN_HEADERS[name])
    assert read_bindings(parser) is None
    assert parser.pos == 0


CALLS = {
    "printed": "relay.add(%x, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
    "generic": 'relay.op "my.op"(%x, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>',
    "no operands": 'relay.op "my.op"() : () -> tensor<2xf32>',
    "a tuple index": "relay.add(%x#0, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
    "other spacing": "relay.add(%x,%0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
    "a forward reference": "relay.add(%x, %later) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
    "an undefined value": "relay.add(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
    "the wrong type": "relay.add(%x, %0) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>",
    "too few types": "relay.add(%x, %0) : (tensor<2xf32>) -> tensor<2xf32>",
    "too many types": "relay.nn.relu(%x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
    "a name run on": "relay.add(%x, %0a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>",
    "two results": "relay.add(%x, %0) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, i32)",
}


@pytest.mark.parametrize("name", list(CALLS))
def test_calls_read_as_xdsl_reads_them(name: str, monkeypatch: pytest.MonkeyPatch):
    ctx = _context()
    ctx.load_dialect(Relay)
    ctx.load_dialect(Func)
    text = (
        "func.func @f(%x: tensor<2xf32>, %0: tensor<2xf32>) -> tensor<2xf32> {\n"
        f"  %r = {CALLS[name]}\n"
        "  %later = relay.nn.relu(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
        "  func.return %r : tensor<2xf32>\n}\n"
    )

    fast = _generic_or_error(ctx, text)
    # The generic reader of the operands, as before `parse_call` read them whole.
    monkeypatch.setattr(syntax, "_CALL_OPERANDS", re.compile("(?!)"))
    assert fast == _generic_or_error(ctx, text)


def test_printed_operands_of_defined_values_are_taken_directly(monkeypatch: pytest.MonkeyPatch):
    ctx = _context()
    ctx.load_dialect(Relay)
    parser = Parser(ctx, CALLS["printed"].removeprefix("relay.add"))
    x, zero = relay.AddOp.create(result_types=[T2, T2]).results
    parser.ssa_values.update({"x": (x,), "0": (zero,)})
    resolved: list[object] = []
    monkeypatch.setattr(Parser, "resolve_operands", lambda *args: resolved.append(args))
    attributes, args, result_type = parse_call(parser, 0, ())
    assert (attributes, list(args), result_type, resolved) == ({}, [x, zero], T2, [])
