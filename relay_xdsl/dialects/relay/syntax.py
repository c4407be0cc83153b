"""Syntax shared by the relay ops: Relay types, call operands and signatures."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FunctionType, TensorType, TupleType
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.types import IncompleteType


def _is_relay_type(type_: Attribute) -> bool:
    if isinstance(type_, TensorType | IncompleteType):
        return True
    if isinstance(type_, TupleType):
        return all(_is_relay_type(t) for t in type_.types.data)
    return False


def verify_relay_type(what: str, type_: Attribute) -> None:
    """Raise unless `type_` is a tensor or a (nested) tuple of tensors, any
    of them possibly incomplete (``!relay.incomplete``)."""
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


def print_signature(printer: Printer, args: Sequence[SSAValue], result: Attribute) -> None:
    """`` : (arg types) -> result type``."""
    printer.print_string(" : ")
    printer.print_attribute(FunctionType.from_lists([a.type for a in args], [result]))
