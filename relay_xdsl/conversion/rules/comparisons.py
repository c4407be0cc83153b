"""The comparisons TOSA lacks, from those it has: ``not_equal`` is
``logical_not(equal)``; booleans, which TOSA's ``equal`` does not take, are
compared with ``logical_xor``; ``less`` and ``less_equal`` are ``greater`` and
``greater_equal`` with the operands swapped. Like the other broadcasting
operators they run in the layout of their first operand computed at run time.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned, common_perm
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor, permuted_type


def _compare(call: RuleCall, tosa_name: str, swapped: bool) -> tuple[SSAValue, tuple[int, ...]]:
    tensors = [call.tensor(0), call.tensor(1)]
    rank = call.result_type.get_num_dims()
    perm = common_perm(tensors, rank)
    a, b = (aligned(call.lowering, t, rank, perm) for t in tensors)
    if swapped:
        a, b = b, a
    return call.emit.op(tosa_name, [a, b], permuted_type(call.result_type, perm)), perm


def _booleans(call: RuleCall) -> bool:
    return call.tensor(0).element_type == IntegerType(1)


def _negated(call: RuleCall, value: SSAValue, perm: tuple[int, ...]) -> Tensor:
    return call.result(call.emit.op("logical_not", [value], value.type), perm)


@lowering("equal")
def equal(call: RuleCall) -> Tensor:
    """``a == b``: ``tosa.equal``; booleans ``logical_not(logical_xor(a, b))``."""
    if _booleans(call):
        return _negated(call, *_compare(call, "logical_xor", False))
    return call.result(*_compare(call, "equal", False))


@lowering("not_equal")
def not_equal(call: RuleCall) -> Tensor:
    """``a != b``: ``logical_not(equal(a, b))``; booleans ``logical_xor(a, b)``."""
    if _booleans(call):
        return call.result(*_compare(call, "logical_xor", False))
    return _negated(call, *_compare(call, "equal", False))


@lowering("less")
def less(call: RuleCall) -> Tensor:
    """``a < b``: ``greater(b, a)``."""
    value, perm = _compare(call, "greater", True)
    return call.result(value, perm)


@lowering("less_equal")
def less_equal(call: RuleCall) -> Tensor:
    """``a <= b``: ``greater_equal(b, a)``."""
    value, perm = _compare(call, "greater_equal", True)
    return call.result(value, perm)


def _classified(
    call: RuleCall, integers: bool, test: Callable[[SSAValue, SSAValue], SSAValue]
) -> Tensor:
    """A test of each float element, given the element and its absolute value;
    `integers` for every element of an integer tensor (known when compiling)."""
    x = call.tensor(0)
    if isinstance(x.element_type, IntegerType):
        return Tensor(call.result_type, array=np.full(x.shape, integers))
    value = call.value(x, x.perm)
    magnitude = call.emit.op("abs", [value], value.type)
    return call.result(test(value, magnitude), x.perm)


def _infinity(call: RuleCall) -> SSAValue:
    x = call.tensor(0)
    return call.emit.scalar(math.inf, x.element_type, x.rank)


@lowering("isnan")
def isnan(call: RuleCall) -> Tensor:
    """``x != x``: NaN is the one value unequal to itself."""
    boolean = permuted_type(call.result_type, call.tensor(0).perm)
    emit = call.emit
    return _classified(
        call,
        False,
        lambda x, _: emit.op("logical_not", [emit.op("equal", [x, x], boolean)], boolean),
    )


@lowering("isinf")
def isinf(call: RuleCall) -> Tensor:
    """``|x| == inf``."""
    boolean = permuted_type(call.result_type, call.tensor(0).perm)
    return _classified(
        call, False, lambda _, size: call.emit.op("equal", [size, _infinity(call)], boolean)
    )


@lowering("isfinite")
def isfinite(call: RuleCall) -> Tensor:
    """``|x| < inf``, which NaN is not."""
    boolean = permuted_type(call.result_type, call.tensor(0).perm)
    return _classified(
        call, True, lambda _, size: call.emit.op("greater", [_infinity(call), size], boolean)
    )
