"""Element type conversions: ``tosa.cast``, with Relay's rounding and truth;
``reinterpret``, the same bits read as another type.

TOSA rounds floats to the nearest integer where Relay (C's conversion)
truncates toward zero, so floats are truncated first; and a conversion to
``bool`` is ``x != 0`` for every source type. TOSA has no bit cast:
``reinterpret`` is ``arith.bitcast`` of each element in a ``linalg.generic``.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute

from relay_xdsl.conversion import linalg
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.broadcast import truth
from relay_xdsl.conversion.rules.rounding import truncated
from relay_xdsl.conversion.values import Tensor, permuted_type


def _is_bool(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.width.data == 1


def _cast(call: RuleCall, x: Tensor, element: Attribute) -> Tensor:
    if x.element_type == element:
        return x
    emit = call.emit
    value = call.value(x, x.perm)
    if _is_bool(element):
        return call.result(truth(call, value), x.perm)
    if not isinstance(x.element_type, IntegerType) and isinstance(element, IntegerType):
        value = truncated(emit, value)
    if _is_bool(x.element_type) and not isinstance(element, IntegerType):
        value = emit.cast(value, IntegerType(8))  # TOSA casts bool to integers only
    return call.result(emit.cast(value, element), x.perm)


@lowering("cast")
def cast(call: RuleCall) -> Tensor:
    """``cast(x)`` to the ``dtype`` attribute: floats to integers truncate toward
    zero, anything to ``bool`` is ``x != 0``."""
    return _cast(call, call.tensor(0), call.result_type.get_element_type())


@lowering("cast_like")
def cast_like(call: RuleCall) -> Tensor:
    """``cast_like(x, like)``: ``cast`` to the element type of `like`."""
    return _cast(call, call.tensor(0), call.result_type.get_element_type())


@lowering("reinterpret")
def reinterpret(call: RuleCall) -> Tensor:
    """The bits of each element read as the ``dtype`` attribute (of the same width)."""
    x = call.tensor(0)
    element = call.result_type.get_element_type()
    type_ = permuted_type(call.result_type, x.perm)
    value = linalg.elementwise(
        call.emit, [call.value(x, x.perm)], type_, lambda args: [arith.BitcastOp(args[0], element)]
    )
    return call.result(value, x.perm)
