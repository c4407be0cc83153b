"""The comparisons TOSA lacks, from those it has: ``not_equal`` is
``logical_not(equal)``; ``less`` and ``less_equal`` are ``greater`` and
``greater_equal`` with the operands swapped. Like the other broadcasting
operators they run in the layout of their first operand computed at run time.
"""

from __future__ import annotations

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


@lowering("not_equal")
def not_equal(call: RuleCall) -> Tensor:
    """``a != b``: ``logical_not(equal(a, b))``."""
    equal, perm = _compare(call, "equal", False)
    return call.result(call.emit.op("logical_not", [equal], equal.type), perm)


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
