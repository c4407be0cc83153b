"""``power`` with a known exponent as multiplications, else ``tosa.pow``.

TOSA leaves ``pow`` undefined for a negative base, and transformers square
differences (``power(x - mean, 2)`` in a decomposed layer norm), so a known
exponent whose elements are all one small integer or one half is spelt
with ``tosa.mul``, ``tosa.reciprocal`` and ``tosa.rsqrt`` instead. TOSA's
``pow`` takes floats only: integers are raised by squaring, one multiplication
selected by each bit of the exponent.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned, common_perm
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor, permuted_type

_SMALL = 4
"""The largest integer exponent written as multiplications."""


def _known_exponent(call: RuleCall) -> float | None:
    """The exponent when it is known and all its elements are one value."""
    exponent = call.tensor(1).array
    if exponent is None or exponent.size == 0 or not (exponent == exponent.flat[0]).all():
        return None
    return float(exponent.flat[0])


def _integer_power(call: RuleCall, x: SSAValue, n: int, type_: TensorType) -> SSAValue:
    """``x ** n`` for ``1 <= n``, by squaring."""
    result: SSAValue | None = None
    square = x
    while n:
        if n & 1:
            result = square if result is None else call.emit.mul(result, square, type_)
        n >>= 1
        if n:
            square = call.emit.mul(square, square, type_)
    assert result is not None
    return result


def _bitwise_power(call: RuleCall, x: SSAValue, n: SSAValue, type_: TensorType) -> SSAValue:
    """``x ** n`` for integer tensors of `type_` and ``0 <= n`` (a negative
    exponent, whose power is not an integer, is left undefined), wrapping."""
    emit = call.emit
    element = type_.get_element_type()
    assert isinstance(element, IntegerType)
    shape = type_.get_shape()
    one = emit.scalar(1, element, type_.get_num_dims())
    bit_type = TensorType(IntegerType(1), shape)
    zero = emit.splat(0, element, shape)
    x, n = (emit.op("add", [v, zero], type_) for v in (x, n))  # broadcast to the result
    result = emit.splat(1, element, shape)
    for step in range(element.width.data - 1):  # the sign bit is never set
        if step:
            x = emit.mul(x, x, type_)
            n = emit.arithmetic_right_shift(n, one, type_)
        odd = emit.op("equal", [emit.op("bitwise_and", [n, one], type_), one], bit_type)
        result = emit.select(odd, emit.mul(result, x, type_), result, type_)
    return result


@lowering("power")
def power(call: RuleCall) -> Tensor:
    """``power(x, y)``: ``x ** y`` with broadcasting; a known uniform exponent
    ``n`` with ``0 < |n| <= 4`` an integer is ``n`` multiplications (a
    reciprocal after them for a negative one), ``0.5`` is
    ``reciprocal(rsqrt(x))`` and ``-0.5`` is ``rsqrt(x)``; any other is ``tosa.pow``."""
    x = call.tensor(0)
    exponent = _known_exponent(call)
    rank = call.result_type.get_num_dims()
    small = exponent is not None and (
        abs(exponent) == 0.5 or (exponent.is_integer() and 0 < abs(exponent) <= _SMALL)
    )
    if x.rank != rank or not small or exponent is None:
        tensors = [x, call.tensor(1)]
        perm = common_perm(tensors, rank)
        values = [aligned(call.lowering, t, rank, perm) for t in tensors]
        type_ = permuted_type(call.result_type, perm)
        if isinstance(x.element_type, IntegerType):
            return call.result(_bitwise_power(call, values[0], values[1], type_), perm)
        return call.result(call.emit.op("pow", values, type_), perm)
    type_ = permuted_type(call.result_type, x.perm)
    value = call.value(x, x.perm)
    if abs(exponent) == 0.5:
        root = call.emit.op("rsqrt", [value], type_)
        result = root if exponent < 0 else call.emit.op("reciprocal", [root], type_)
        return call.result(result, x.perm)
    result = _integer_power(call, value, int(abs(exponent)), type_)
    if exponent < 0:
        result = call.emit.op("reciprocal", [result], type_)
    return call.result(result, x.perm)
