"""Element type conversions: ``tosa.cast``, with Relay's rounding and truth;
``reinterpret``, the same bits read as another type.

TOSA rounds floats to the nearest integer where Relay (C's conversion)
truncates toward zero, so floats are truncated first; and a conversion to
``bool`` is ``x != 0`` for every source type. TOSA casts ``i64`` only to and
from ``i32``: other integers go through ``i32`` (exactly, or wrapping as a
direct cast would), floats are converted element by element with ``arith``. TOSA has no bit cast:
``reinterpret`` is ``arith.bitcast`` of each element in a ``linalg.generic``.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, TensorType, i32, i64
from xdsl.ir import Attribute, SSAValue

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
    return call.result(_converted(call, value, element), x.perm)


def _converted(call: RuleCall, value: SSAValue, element: Attribute) -> SSAValue:
    """`value` cast to `element` in the ways TOSA allows (floats already truncated)."""
    emit = call.emit
    type_ = value.type
    assert isinstance(type_, TensorType)
    source = type_.get_element_type()
    if i64 not in (source, element) or i32 in (source, element):
        return emit.cast(value, element)
    if isinstance(source, IntegerType) and isinstance(element, IntegerType):
        return emit.cast(emit.cast(value, i32), element)
    result = TensorType(element, type_.get_shape())
    if isinstance(element, IntegerType):
        return linalg.elementwise(
            emit, [value], result, lambda args: [arith.FPToSIOp(args[0], element)]
        )
    return linalg.elementwise(
        emit,
        [value],
        result,
        lambda args: [arith.SIToFPOp(args[0], element)],  # type: ignore[arg-type]
    )


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
