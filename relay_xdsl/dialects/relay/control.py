"""Control flow: ``relay.if``, Relay's ``if (c) { ... } else { ... }``.

Each branch is a region of one block ending in ``relay.return``; the op's
result is the returned value of the branch taken. The branches see the
enclosing values (regions are not isolated), as Relay's lexical scopes do.
Passes treat the op as a barrier: nothing is fused or matched across it, and
each branch is a body of its own.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.closures import compatible, parse_result_type, print_result_type
from relay_xdsl.dialects.relay.structure import ReturnOp
from relay_xdsl.dialects.relay.types import IncompleteType


@irdl_op_definition
class IfOp(IRDLOperation):
    """``if (%c) { then } else { else }``: the value of the branch `condition` selects.

    The condition is a boolean scalar (``tensor<i1>``), or a value whose type
    is not yet known (``!relay.incomplete``). Each branch returns a value of
    the result type; a branch whose type is not known returns any value.

    Syntax::

        %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
          relay.return %a : tensor<4xf32>
        } else {
          relay.return %b : tensor<4xf32>
        }
    """

    name = "relay.if"
    condition = operand_def()
    result = result_def()
    then_region = region_def("single_block")
    else_region = region_def("single_block")

    def __init__(
        self,
        condition: SSAValue | Operation,
        result_type: Attribute,
        then_region: Region,
        else_region: Region,
    ):
        super().__init__(
            operands=[condition],
            result_types=[result_type],
            regions=[then_region, else_region],
        )

    def verify_(self) -> None:
        condition = self.condition.type
        if not isinstance(condition, IncompleteType) and condition != TensorType(
            IntegerType(1), []
        ):
            raise VerifyException(
                f"the condition of 'relay.if' must be a boolean scalar, got {condition}"
            )
        for what, region in (("then", self.then_region), ("else", self.else_region)):
            terminator = region.block.last_op
            if not isinstance(terminator, ReturnOp):
                raise VerifyException(f"the {what} branch must end with 'relay.return'")
            if not compatible(self.result.type, terminator.value.type):
                raise VerifyException(
                    f"the {what} branch returns {terminator.value.type} but the result "
                    f"type is {self.result.type}"
                )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        printer.print_string(" : ")
        printer.print_attribute(self.condition.type)
        printer.print_string(" -> ")
        print_result_type(printer, self.result.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.then_region)
        printer.print_string(" else ")
        printer.print_region(self.else_region)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        condition_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parse_result_type(parser)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        then_region = parser.parse_region()
        parser.parse_keyword("else")
        else_region = parser.parse_region()
        condition = parser.resolve_operand(operand, condition_type)
        op = cls(condition, result_type, then_region, else_region)
        if attributes is not None:
            op.attributes |= attributes.data
        return op
