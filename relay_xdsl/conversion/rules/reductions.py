"""Reductions: one ``tosa.reduce_*`` per reduced axis, in the operand's layout.

TOSA keeps each reduced axis with size one; without ``keepdims`` a reshape
drops them, which moves no data. ``mean`` multiplies the sum by the
reciprocal of the count.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor


def reduced_axes(call: RuleCall, rank: int) -> list[int]:
    """The logical axes the call reduces (``axis``, ``exclude``; all by default)."""
    axes = call.call.optional_ints("axis")
    chosen = set(range(rank)) if axes is None else {a % rank for a in axes}
    if call.call.attr("exclude"):
        chosen = set(range(rank)) - chosen
    return sorted(chosen)


def _reduce(call: RuleCall, kind: str) -> Tensor:
    x = call.tensor(0)
    axes = reduced_axes(call, x.rank)
    value = call.value(x, x.perm)
    for axis in axes:
        value = call.emit.reduce(kind, value, x.perm.index(axis))
    if kind == "sum" and call.name == "mean":
        count = math.prod(x.shape[a] for a in axes)
        scale = call.emit.scalar(1 / count, x.element_type, x.rank)
        value = call.emit.mul(value, scale, value.type)
    if call.call.attr("keepdims"):
        return call.result(value, x.perm)
    kept = [p for p in x.perm if p not in axes]
    renumber = {p: i for i, p in enumerate(sorted(kept))}
    perm = tuple(renumber[p] for p in kept)
    shape = [x.shape[p] for p in kept]
    value = call.emit.reshape(value, shape)
    assert isinstance(value.type, TensorType)
    return call.result(value, perm)


@lowering("sum")
def sum(call: RuleCall) -> Tensor:
    return _reduce(call, "sum")


@lowering("mean")
def mean(call: RuleCall) -> Tensor:
    return _reduce(call, "sum")


@lowering("max")
def max(call: RuleCall) -> Tensor:
    return _reduce(call, "max")


@lowering("min")
def min(call: RuleCall) -> Tensor:
    return _reduce(call, "min")


@lowering("prod")
def prod(call: RuleCall) -> Tensor:
    return _reduce(call, "product")
