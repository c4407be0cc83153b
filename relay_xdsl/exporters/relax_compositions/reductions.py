"""Relax exports of the reductions without a Relax counterpart."""

from __future__ import annotations

from typing import Any

from tvm import topi
from tvm.relax import op as R

from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.exporters.relax_compositions.common import (
    call_of,
    rank,
    result_dtype,
    result_shape,
    scalar,
    static_shape,
)
from relay_xdsl.exporters.relax_compositions.registry import ExportContext, relax_export
from relay_xdsl.interpreter.kernels.reductions import reduced_axes


def _axes(op: RegisteredOperatorOp) -> list[int]:
    """The axes the reduction reduces (``axis`` and ``exclude`` resolved)."""
    return list(reduced_axes(call_of(op), rank(op)))


@relax_export("all", "any", te=True)
def all_or_any(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``all``/``any`` over the reduced axes."""
    compute = topi.all if op.operator_name == "all" else topi.any
    keepdims = bool(call_of(op).attr("keepdims"))
    return ctx.call_te(compute, args[0], _axes(op), keepdims)


@relax_export("argmax", "argmin")
def arg_reduce(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Relax's ``argmax``/``argmin`` (int64) cast to the result's dtype. Over
    several axes, those are moved last and merged first (the index is the
    flat one); for ``select_last_index`` the merged axis is reversed."""
    (data,) = args
    call = call_of(op)
    reduce = R.argmax if op.operator_name == "argmax" else R.argmin
    axes = _axes(op)
    data_rank = rank(op)
    last = bool(call.attr("select_last_index"))
    if not last and (len(axes) == 1 or len(axes) == data_rank):
        axis = axes[0] if len(axes) == 1 else None
        index = ctx.emit(reduce(data, axis, bool(call.attr("keepdims"))))
        return R.astype(index, result_dtype(op))
    shape = static_shape(op.args[0].type, op)
    kept = [a for a in range(data_rank) if a not in axes]
    count = 1
    for a in axes:
        count *= shape[a]
    moved = ctx.emit(R.permute_dims(data, kept + axes))
    flat = ctx.emit(R.reshape(moved, [*(shape[a] for a in kept), count]))
    if last:
        flat = ctx.emit(R.flip(flat, len(kept)))
    index = ctx.emit(R.astype(ctx.emit(reduce(flat, len(kept))), result_dtype(op)))
    if last:
        index = ctx.emit(R.subtract(scalar(count - 1, result_dtype(op)), index))
    return R.reshape(index, result_shape(op))


@relax_export("variance")
def variance(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``sum((data - mean)^2) / (count - unbiased)`` over the reduced axes."""
    data, mean = args
    call = call_of(op)
    axes = _axes(op)
    shape = static_shape(op.args[0].type, op)
    count = 1
    for a in axes:
        count *= shape[a]
    count -= int(bool(call.attr("unbiased")))
    diff = ctx.emit(R.subtract(data, mean))
    total = ctx.emit(R.sum(ctx.emit(R.multiply(diff, diff)), axes, bool(call.attr("keepdims"))))
    return R.divide(total, scalar(count, result_dtype(op)))
