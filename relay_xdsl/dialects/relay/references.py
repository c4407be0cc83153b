"""References: Relay's mutable cells ``ref(v)``, ``ref_read(r)`` and ``ref_write(r, v)``.

A reference has type ``!relay.ref<T>``. The ops have effects (a write is
seen by later reads), so passes neither fuse, reorder nor remove them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, TupleType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.closures import compatible
from relay_xdsl.dialects.relay.types import IncompleteType, RefType

UNIT = TupleType(ArrayAttr(()))
"""The empty tuple ``()``: what ``ref_write`` returns."""


def _value_type(reference: Attribute) -> Attribute:
    """What a reference of type `reference` holds (unknown for an untyped one)."""
    return reference.value_type if isinstance(reference, RefType) else IncompleteType()


def _verify_reference(type_: Attribute) -> None:
    if not isinstance(type_, RefType | IncompleteType):
        raise VerifyException(f"expected a reference (!relay.ref<T>), got {type_}")


@irdl_op_definition
class RefOp(IRDLOperation):
    """``ref(%v)``: a new reference cell holding `value`.

    Syntax::

        %r = relay.ref %v : tensor<f32>
    """

    name = "relay.ref"
    value = operand_def()
    result = result_def(RefType)

    def __init__(self, value: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value], result_types=[RefType(value.type)])

    def verify_(self) -> None:
        assert isinstance(self.result.type, RefType)
        if self.result.type.value_type != self.value.type:
            raise VerifyException(
                f"a reference of type {self.result.type} cannot hold a {self.value.type}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> RefOp:
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(operand, parser.parse_type()))
        op.attributes |= attributes
        return op


@irdl_op_definition
class RefReadOp(IRDLOperation):
    """``ref_read(%r)``: the value the reference holds now.

    Syntax::

        %v = relay.ref_read %r : !relay.ref<tensor<f32>>
    """

    name = "relay.ref_read"
    reference = operand_def()
    result = result_def()

    def __init__(self, reference: SSAValue | Operation):
        reference = SSAValue.get(reference)
        super().__init__(operands=[reference], result_types=[_value_type(reference.type)])

    def verify_(self) -> None:
        _verify_reference(self.reference.type)
        if not compatible(_value_type(self.reference.type), self.result.type):
            raise VerifyException(
                f"reading a {self.reference.type} gives a {_value_type(self.reference.type)}, "
                f"not a {self.result.type}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.reference)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.reference.type)

    @classmethod
    def parse(cls, parser: Parser) -> RefReadOp:
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(operand, parser.parse_type()))
        op.attributes |= attributes
        return op


@irdl_op_definition
class RefWriteOp(IRDLOperation):
    """``ref_write(%r, %v)``: stores `value` in the reference; returns ``()``.

    Syntax::

        %u = relay.ref_write %r, %v : !relay.ref<tensor<f32>>, tensor<f32>
    """

    name = "relay.ref_write"
    reference = operand_def()
    value = operand_def()
    result = result_def(TupleType)

    def __init__(self, reference: SSAValue | Operation, value: SSAValue | Operation):
        super().__init__(operands=[reference, value], result_types=[UNIT])

    def verify_(self) -> None:
        _verify_reference(self.reference.type)
        if not compatible(_value_type(self.reference.type), self.value.type):
            raise VerifyException(f"cannot write a {self.value.type} to a {self.reference.type}")
        if self.result.type != UNIT:
            raise VerifyException(f"'relay.ref_write' returns (), not {self.result.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.reference)
        printer.print_string(", ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.reference.type)
        printer.print_string(", ")
        printer.print_attribute(self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> RefWriteOp:
        pos = parser.pos
        reference = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
        resolved = parser.resolve_operands([reference, value], types, pos)
        op = cls(*resolved)
        op.attributes |= attributes
        return op
