"""Rounding to integral values and the sign: ``trunc`` and ``sign`` from TOSA's
``floor``, ``ceil``, ``greater`` and ``select``; ``round`` as ``math.round`` in
a ``linalg.generic`` (TOSA has no rounding of halves away from zero, which
is TVM's ``llvm.round``). Integers are their own rounding.
"""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion import linalg
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.tosa import TosaBuilder
from relay_xdsl.conversion.values import Tensor


def truncated(emit: TosaBuilder, x: SSAValue) -> SSAValue:
    """The float `x` rounded toward zero: ``ceil`` where it is negative, else ``floor``."""
    type_ = x.type
    assert isinstance(type_, TensorType)
    negative = emit.op(
        "greater",
        [emit.scalar(0, type_.get_element_type(), type_.get_num_dims()), x],
        TensorType(IntegerType(1), type_.get_shape()),
    )
    return emit.select(negative, emit.op("ceil", [x], type_), emit.op("floor", [x], type_), type_)


def _operand(call: RuleCall) -> tuple[Tensor, SSAValue]:
    x = call.tensor(0)
    return x, call.value(x, x.perm)


@lowering("trunc")
def trunc(call: RuleCall) -> Tensor:
    """Rounds toward zero."""
    x, value = _operand(call)
    if isinstance(x.element_type, IntegerType):
        return x
    return call.result(truncated(call.emit, value), x.perm)


@lowering("round")
def round(call: RuleCall) -> Tensor:
    """Rounds to the nearest integer, halves away from zero (``round(2.5)`` is 3)."""
    x, value = _operand(call)
    if isinstance(x.element_type, IntegerType):
        return x
    rounded = linalg.elementwise(call.emit, [value], value.type, lambda args: [math.RoundOp(*args)])  # type: ignore[arg-type]
    return call.result(rounded, x.perm)


@lowering("sign")
def sign(call: RuleCall) -> Tensor:
    """-1, 0 or 1; 0 for NaN (neither comparison holds)."""
    x, value = _operand(call)
    emit = call.emit
    wide = emit.widened(value)
    type_ = wide.type
    assert isinstance(type_, TensorType)
    element, rank = type_.get_element_type(), type_.get_num_dims()
    boolean = TensorType(IntegerType(1), type_.get_shape())
    zero = emit.scalar(0, element, rank)
    positive = emit.op("greater", [wide, zero], boolean)
    negative = emit.op("greater", [zero, wide], boolean)
    result = emit.select(negative, emit.scalar(-1, element, rank), zero, type_)
    result = emit.select(positive, emit.scalar(1, element, rank), result, type_)
    return call.result(emit.cast(result, x.element_type), x.perm)
