"""Syntax shared by the relay ops: Relay types, call operands and signatures."""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar, cast

from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerType,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span

from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, RefType, TypeVarType
from relay_xdsl.support.prebuilt import prebuilt, prebuilt_data
from relay_xdsl.support.xdsl_internals import (
    parser_input,
    parser_input_cache,
    resume_parser_at,
    write_accounted,
)


def _is_relay_type(type_: Attribute) -> bool:
    if isinstance(type_, TensorType | IncompleteType | TypeVarType | AdtType):
        return True
    if isinstance(type_, TupleType):
        return all(_is_relay_type(t) for t in type_.types.data)
    if isinstance(type_, RefType):
        return _is_relay_type(type_.value_type)
    if isinstance(type_, FunctionType):
        return all(_is_relay_type(t) for t in (*type_.inputs.data, *type_.outputs.data))
    return False


def verify_relay_type(what: str, type_: Attribute) -> None:
    """Raise unless `type_` is a Relay type: a tensor, or a tuple, function or
    reference of Relay types, a type parameter, an ADT, or a type inference
    has not determined (``!relay.incomplete``). The message names the
    common case."""
    if not _is_relay_type(type_):
        raise VerifyException(f"{what} must be a tensor or a tuple of tensors, got {type_}")


def parse_extra_attributes(parser: Parser, reserved: tuple[str, ...]) -> dict[str, Attribute]:
    """An optional attribute dictionary that may not restate the inline fields."""
    pos = parser.pos
    attributes = parser.parse_optional_attr_dict()
    for name in reserved:
        if name in attributes:
            parser.raise_error(
                f"'{name}' is given inline and may not be repeated in the attribute dictionary",
                pos,
                parser.pos,
            )
    return attributes


def parse_call_operands(parser: Parser) -> list[UnresolvedOperand]:
    """``(%a, %b, ...)``."""
    return parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )


def parse_signature(
    parser: Parser, operands: Sequence[UnresolvedOperand], pos: int
) -> tuple[Sequence[SSAValue], Attribute]:
    """Parse ``: (arg types) -> result type`` and resolve the operands."""
    parser.parse_punctuation(":")
    signature = parser.parse_function_type()
    if len(signature.outputs.data) != 1:
        parser.raise_error("expected exactly one result type", pos, parser.pos)
    args = parser.resolve_operands(operands, signature.inputs.data, pos)
    return args, signature.outputs.data[0]


def parse_call(
    parser: Parser, pos: int, reserved: tuple[str, ...]
) -> tuple[dict[str, Attribute], Sequence[SSAValue], Attribute]:
    """An operator call's ``(%a, %b, ...) {attributes} : (arg types) -> result type``
    (see `parse_extra_attributes`), with the operands resolved.

    Operands spelled as the printer spells them, plain names after ``, ``,
    are read with one regular expression and, when each names a value
    defined before with the type the signature gives it, taken from the
    parser's table directly; any other operands (a forward reference, a
    wrong type, a tuple index, other spacing) are read and resolved by
    the generic parser, with its errors."""
    content = parser_input(parser)
    match = _CALL_OPERANDS.match(content, parser.pos)
    if match is None:
        operands = parse_call_operands(parser)
        spans = None
    else:
        spans = [m.span() for m in _EACH_NAME.finditer(content, match.start() + 1, match.end() - 1)]
        resume_parser_at(parser, match.end())

    def parse() -> tuple[dict[str, Attribute], FunctionType]:
        attributes = parse_extra_attributes(parser, reserved)
        parser.parse_punctuation(":")
        signature = parser.parse_function_type()
        if len(signature.outputs.data) != 1:
            parser.raise_error("expected exactly one result type", pos, parser.pos)
        return attributes, signature

    attributes, signature = reuse_line_tail(parser, parse)
    types = signature.inputs.data
    args: Sequence[SSAValue] | None = (
        None if spans is None else _defined_values(parser, content, spans, types)
    )
    if args is None:
        if spans is not None:
            source = parser.lexer.input
            operands = [UnresolvedOperand(Span(start, end, source), 0) for start, end in spans]
        args = parser.resolve_operands(operands, types, pos)
    return dict(attributes), args, signature.outputs.data[0]


_VALUE_NAME = r"%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
"""A value's name, as xDSL's lexer reads a ``%`` identifier."""
_EACH_NAME = re.compile(_VALUE_NAME)
_CALL_OPERANDS = re.compile(rf"\((?:{_VALUE_NAME}(?:, {_VALUE_NAME})*)?\)")


def _defined_values(
    parser: Parser, content: str, spans: list[tuple[int, int]], types: Sequence[Attribute]
) -> list[SSAValue] | None:
    """The values the names at `spans` of `content` stand for, as
    ``parser.resolve_operands`` resolves them, when each is defined and
    of its type in `types`; None otherwise (that method then decides)."""
    if len(spans) != len(types):
        return None
    defined = parser.ssa_values
    values: list[SSAValue] = []
    for (start, end), type_ in zip(spans, types):
        found = defined.get(content[start + 1 : end])
        if not found:
            return None
        value = found[0]
        if value.type is not type_ and value.type != type_:
            return None
        values.append(value)
    return values


_Parsed = TypeVar("_Parsed")


def reuse_line_tail(
    parser: Parser, parse: Callable[[], _Parsed], before_region: bool = False
) -> _Parsed:
    """`parse()`, or what it gave before on the same text.

    A graph repeats the same attributes and signatures on thousands of lines,
    and lexing them is most of the time spent parsing it. When `parse`
    consumes exactly the rest of the current line (up to the ``{`` that ends
    it, with `before_region`), its result is kept for the rest of this input,
    keyed by that text, and the next line ending in the same text skips to
    its end instead. A result is shared: it must be immutable (attributes
    are; copy a dictionary). Text that `parse` does not end there is parsed
    every time.
    """
    content = parser_input(parser)
    start = parser.pos
    end = content.find("\n", start)
    if end < 0:
        return parse()
    if before_region:
        end = content.rfind("{", start, end)
        if end < 0:
            return parse()
    cache: dict[tuple[str, bool], object] = parser_input_cache(parser, "relay_line_tails")
    key = (content[start:end], before_region)
    if key in cache:
        resume_parser_at(parser, end)
        return cache[key]  # type: ignore[return-value]
    result = parse()
    if parser.pos == end if before_region else content[end : parser.pos].isspace():
        cache[key] = result
    return result


_TENSOR_TYPE = re.compile(r"tensor<[0-9x?]*[a-z]+[0-9]*>")
"""A ranked tensor type without encoding: its text alone decides the type."""


def parse_relay_type(parser: Parser) -> Attribute:
    """``parser.parse_type()``, reusing the types of this input that are
    spelled the same (see `reuse_line_tail`)."""
    match = _TENSOR_TYPE.match(parser_input(parser), parser.pos)
    type_ = _tensor_type(parser, match.group()) if match is not None else None
    if match is None or type_ is None:  # not a tensor type, or a wrong one: the parser says where
        return parser.parse_type()
    resume_parser_at(parser, match.end())
    return type_


def _tensor_type(parser: Parser, text: str) -> Attribute | None:
    """The type `text` (matched by ``_TENSOR_TYPE``) spells, parsed once an
    input; None where it is no type (``tensor<xf32>``)."""
    cache: dict[str, Attribute] = parser_input_cache(parser, "relay_tensor_types")
    type_ = cache.get(text)
    if type_ is None:
        try:
            type_ = cache[text] = Parser(parser.ctx, text).parse_type()
        except ParseError:
            return None
    return type_


_BINDING = rf"({_VALUE_NAME}) = ({_VALUE_NAME}) : ({_TENSOR_TYPE.pattern})"
_BINDINGS = re.compile(rf"\((?:{_BINDING}(?:, {_BINDING})*)?\)")
"""``relay.fn``'s ``(%param = %arg : tensor<...>, ...)`` as it is printed."""
_EACH_BINDING = re.compile(_BINDING)


def read_bindings(
    parser: Parser,
) -> list[tuple[Parser.UnresolvedArgument, UnresolvedOperand, Attribute]] | None:
    """``relay.fn``'s parenthesised bindings, each a parameter, the operand it
    binds and their tensor type, read as the generic parser reads them when
    they are spelled as the printer spells them (one space around ``=``
    and after ``:`` and ``,``, no tuple indices); None, having read nothing,
    for any other spelling, which the generic parser then reads.

    A graph's fused functions are thousands of such headers, about
    eighteen tokens each."""
    content = parser_input(parser)
    match = _BINDINGS.match(content, parser.pos)
    if match is None:
        return None
    source = parser.lexer.input
    bindings = []
    for binding in _EACH_BINDING.finditer(content, match.start() + 1, match.end() - 1):
        type_ = _tensor_type(parser, binding.group(3))
        if type_ is None:
            return None
        param = Parser.UnresolvedArgument(Span(*binding.span(1), source))
        operand = UnresolvedOperand(Span(*binding.span(2), source), 0)
        bindings.append((param, operand, type_))
    resume_parser_at(parser, match.end())
    return bindings


_DENSE_LITERAL = re.compile(
    r'dense<(?:"0x(?P<hex>[0-9A-Fa-f]*)"|(?P<list>[-+0-9.eE\[\], ]*))>'
    r" : (?P<type>tensor<[0-9x]*[a-z]+[0-9]*>)"
)
"""``dense<...> : tensor<...>`` with hex data or a list of plain numbers."""


def parse_dense_literal(parser: Parser) -> Attribute:
    """``parser.parse_attribute()`` for a dense literal, reading the two
    spellings of tensor data xDSL and MLIR print, hex and lists of numbers,
    without the generic lexer; anything else is left to the generic parser.

    A module's weights are most of its text. The result is the attribute the
    generic parser builds: the same bytes, checked against the type's shape.
    """
    match = _DENSE_LITERAL.match(parser_input(parser), parser.pos)
    if match is not None:
        type_ = _tensor_type(parser, match.group("type"))
        value = _dense_value(type_, match.group("hex"), match.group("list")) if type_ else None
        if value is not None:
            resume_parser_at(parser, match.end())
            return value
    return parser.parse_attribute()


def _dense_value(type_: Attribute, hex_data: str | None, literal: str | None) -> Attribute | None:
    """The dense attribute of `type_` and data, or None where the generic
    parser must decide (a splat, a shape mismatch, an error to report)."""
    if not isinstance(type_, TensorType) or not isinstance(
        element := type_.element_type, AnyFloat | IntegerType
    ):
        return None
    count = math.prod(type_.get_shape())
    if hex_data is not None:
        data = bytes.fromhex(hex_data) if len(hex_data) % 2 == 0 else b""
        if not data:
            return None
        if len(data) // element.compile_time_size != count:
            # Built for the constructor's own objection (a zero-rank tensor of
            # several values); any other mismatch is the generic parser's to report.
            DenseIntOrFPElementsAttr(type_, BytesAttr(data))
            return None
        return _dense(type_, data)
    try:
        nested = json.loads(literal or "")
    except ValueError:
        return None
    flat: list[int | float] = []
    if _shape_of(nested, flat) != list(type_.get_shape()) or len(flat) != count:
        return None
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1 or not all(
            type(v) is int and -(1 << (width - 1)) <= v < (1 << width) for v in flat
        ):
            return None
        ints = cast(list[int], flat)
        return DenseIntOrFPElementsAttr.from_list(TensorType(element, type_.shape), ints)
    if not all(type(v) is float for v in flat):
        return None
    return _dense(type_, element.pack(cast(list[float], flat)))


def _dense(type_: TensorType[Any], data: bytes) -> Attribute:
    """``DenseIntOrFPElementsAttr(type_, BytesAttr(data))`` without its
    verifier: `type_` is a tensor of floats or integers and `data` holds
    exactly its elements, which is all the verifier checks."""
    return prebuilt(DenseIntOrFPElementsAttr, type_, prebuilt_data(BytesAttr, data))


def _shape_of(nested: object, flat: list[int | float]) -> list[int] | None:
    """The shape of a nested list of numbers, appending them to `flat`; None
    for a ragged list."""
    if not isinstance(nested, list):
        if type(nested) in (int, float):
            flat.append(nested)  # type: ignore[arg-type]
            return []
        return None
    shapes = [_shape_of(item, flat) for item in nested]
    if not shapes or any(s is None or s != shapes[0] for s in shapes):
        return None if shapes else [0]
    return [len(nested), *shapes[0]]  # type: ignore[misc]


def print_attributes_and_signature(
    printer: Printer, attributes: dict[str, Attribute], args: Sequence[SSAValue], result: Attribute
) -> None:
    """`` {attributes} : (arg types) -> result type``, the text
    `parse_call` reads after the operands."""
    arg_types = tuple(a.type for a in args)

    def print_text() -> None:
        printer.print_op_attributes(attributes)
        print_signature(printer, args, result)

    reuse_printed(printer, (tuple(attributes.items()), arg_types, result), print_text)


def reuse_printed(printer: Printer, key: Hashable, print_text: Callable[[], None]) -> None:
    """`print_text()`, or the text it printed before for the same `key`.

    The printing side of `reuse_line_tail`: a graph's ops repeat the same
    attributes and types, and printing them piece by piece is most of the
    time spent printing it. `key` must determine the text (the attributes
    and types printed); text that spans lines is printed every time.
    """
    cache: dict[Hashable, str] = printer.__dict__.setdefault("relay_printed", {})
    text = cache.get(key)
    if text is not None:
        printer.print_string(text)
        return
    text = _printed(printer, print_text)
    if "\n" not in text:
        cache[key] = text


def print_type(printer: Printer, type_: Attribute) -> None:
    """``printer.print_attribute(type_)``, spelled once per type object: the
    types of a graph's values are a few shared objects (`reuse_printed`)."""
    # By identity, each entry keeping its type alive: hashing a type walks it.
    cache: dict[int, tuple[Attribute, str]] = printer.__dict__.setdefault("relay_type_texts", {})
    entry = cache.get(id(type_))
    if entry is not None:
        printer.print_string(entry[1])
        return
    text = _printed(printer, lambda: printer.print_attribute(type_))
    if "\n" not in text:
        cache[id(type_)] = (type_, text)


def _printed(printer: Printer, print_text: Callable[[], None]) -> str:
    """The text `print_text()` prints through `printer`, written to its stream."""
    stream = printer.stream
    buffer = io.StringIO()
    printer.stream = buffer
    try:
        print_text()
    finally:
        printer.stream = stream
    text = buffer.getvalue()
    write_accounted(printer, text)
    return text


def print_signature(printer: Printer, args: Sequence[SSAValue], result: Attribute) -> None:
    """`` : (arg types) -> result type``."""
    printer.print_string(" : ")
    printer.print_attribute(FunctionType.from_lists([a.type for a in args], [result]))
