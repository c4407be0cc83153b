"""Bitwise and logical operators: one TOSA operator each, broadcasting like the
other binary operators.

TOSA's bitwise operators take integers and its logical ones booleans, so a
bitwise operator on booleans is the logical one. ``right_shift`` of signed
integers is arithmetic (``tosa.arithmetic_right_shift`` without rounding).
Shifting by a negative amount or by the width or more is undefined, as in
TVM.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.elementwise import binary, broadcast_operands, unary
from relay_xdsl.conversion.values import Tensor, permuted_type


def _is_bool(call: RuleCall) -> bool:
    element = call.result_type.get_element_type()
    return isinstance(element, IntegerType) and element.width.data == 1


def _bitwise(call: RuleCall, name: str) -> Tensor:
    """``tosa.bitwise_<name>``, or ``tosa.logical_<name>`` on booleans."""
    return binary(call, f"logical_{name}" if _is_bool(call) else f"bitwise_{name}")


@lowering("logical_xor")
def logical_xor(call: RuleCall) -> Tensor:
    return binary(call, "logical_xor")


@lowering("bitwise_and")
def bitwise_and(call: RuleCall) -> Tensor:
    return _bitwise(call, "and")


@lowering("bitwise_or")
def bitwise_or(call: RuleCall) -> Tensor:
    return _bitwise(call, "or")


@lowering("bitwise_xor")
def bitwise_xor(call: RuleCall) -> Tensor:
    return _bitwise(call, "xor")


@lowering("bitwise_not")
def bitwise_not(call: RuleCall) -> Tensor:
    return unary(call, "logical_not" if _is_bool(call) else "bitwise_not")


@lowering("left_shift")
def left_shift(call: RuleCall) -> Tensor:
    return binary(call, "logical_left_shift")


@lowering("right_shift")
def right_shift(call: RuleCall) -> Tensor:
    """Arithmetic: the sign bit fills the vacated bits."""
    (a, b), perm = broadcast_operands(call)
    result = call.emit.arithmetic_right_shift(a, b, permuted_type(call.result_type, perm))
    return call.result(result, perm)
