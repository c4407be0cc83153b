"""Relax exports of the shape, gathering and layout operators without a
Relax counterpart."""

from __future__ import annotations

from typing import Any

import numpy as np
from tvm import relax, topi
from tvm.relax import op as R
from xdsl.dialects.builtin import TupleType

from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.exporters.relax_compositions.common import (
    call_of,
    rank,
    result_dtype,
    result_shape,
    static_shape,
    tensor_type,
)
from relay_xdsl.exporters.relax_compositions.registry import ExportContext, relax_export
from relay_xdsl.interpreter.kernels.shape import strided_slices


@relax_export("reshape_like", "vm.reshape_tensor")
def reshape_to_result(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``reshape`` to the result's shape."""
    return R.reshape(args[0], result_shape(op))


@relax_export("broadcast_to_like", "broadcast_to")
def broadcast_to_result(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``broadcast_to`` the result's shape (for ``broadcast_to`` itself: where it
    carries a ``dtype``, which it does not use and Relax's lacks)."""
    return R.broadcast_to(args[0], result_shape(op))


def _slice(data: Any, shape: list[int], slices: list[slice]) -> Any:
    """Relax's ``strided_slice`` of the axes whose slice is not the whole axis."""
    axes, begin, end, strides = [], [], [], []
    for axis, (extent, piece) in enumerate(zip(shape, slices)):
        start, stop, step = piece.indices(extent)
        if (start, stop, step) == (0, extent, 1):
            continue
        axes.append(axis)
        begin.append(start)
        # Python's stop -1 (before the first element) is Relax's -extent-1.
        end.append(stop if stop >= 0 else -extent - 1)
        strides.append(step)
    if not axes:
        return data
    return R.strided_slice(data, axes, begin, end, strides)


@relax_export("strided_slice")
def strided_slice(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Relax's ``strided_slice`` of the bounds canonicalised as TVM's."""
    shape = static_shape(op.args[0].type, op)
    return _slice(args[0], shape, strided_slices(call_of(op), shape))


@relax_export("slice_like")
def slice_like(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Relax's ``strided_slice`` from 0 to the result's extent on each axis."""
    shape = static_shape(op.args[0].type, op)
    return _slice(args[0], shape, [slice(0, n) for n in result_shape(op)])


def _flattening_take(op: RegisteredOperatorOp) -> bool:
    """Whether `op` takes from flattened data (no axis) of more than one axis,
    which Relax's ``take`` refuses."""
    return call_of(op).attr("axis") is None and rank(op) != 1


@relax_export("take", te=True, when=_flattening_take)
def take(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Without an axis: Relax's ``take`` from the data reshaped to one axis.
    With one, topi's ``take``, where ``batch_dims`` is not 0 (Relax's has none);
    otherwise ``take`` exports through its mapping."""
    call = call_of(op)
    if call.attr("axis") is None:
        data, indices = args
        flat = ctx.emit(R.reshape(data, [-1]))
        return R.take(flat, indices, 0, str(call.attr("mode")))
    return ctx.call_te(
        topi.take,
        *args,
        axis=call.attr("axis"),
        batch_dims=call.integer("batch_dims"),
        mode=str(call.attr("mode")),
    )


@relax_export("gather_nd")
def gather_nd(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Relax's ``gather_nd`` of the indices with their first axis moved last
    (Relax indexes with the last axis, Relay with the first)."""
    data, indices = args
    indices_rank = rank(op, 1)
    # Relax indexes with int64 only.
    wide = ctx.emit(R.astype(indices, "int64"))
    moved = ctx.emit(R.permute_dims(wide, [*range(1, indices_rank), 0]))
    return R.gather_nd(data, moved, call_of(op).integer("batch_dims"))


@relax_export("one_hot", te=True)
def one_hot(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``one_hot``, on and off values read from their tensors."""
    call = call_of(op)
    depth, axis, dtype = call.integer("depth"), call.integer("axis"), result_dtype(op)
    return ctx.call_te(
        lambda indices, on, off: topi.one_hot(indices, on(), off(), depth, axis, dtype),
        *args,
        primfunc_name_hint="one_hot",
    )


@relax_export("layout_transform", te=True)
def layout_transform(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``layout_transform``."""
    call = call_of(op)
    return ctx.call_te(
        topi.layout_transform, args[0], str(call.attr("src_layout")), str(call.attr("dst_layout"))
    )


@relax_export("shape_of", "vm.shape_of")
def shape_of(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """A constant of a static shape; else ``shape_to_tensor(shape_of)`` cast."""
    dtype = result_dtype(op)
    data = tensor_type(op.args[0].type, op)
    if all(d >= 0 for d in data.get_shape()):
        return relax.const(np.array(data.get_shape(), dtype=dtype), dtype)
    shape = ctx.emit(R.shape_to_tensor(ctx.emit(R.shape_of(args[0]))))
    return R.astype(shape, dtype)


@relax_export("split")
def split(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Relax's ``split`` at the indices the result's parts give, where the
    attribute's own values are unknown (``meta[runtime.BoxInt][i]`` references);
    otherwise ``split`` exports through its mapping."""
    result = op.result.type
    assert isinstance(result, TupleType)
    axis = call_of(op).integer("axis") % rank(op)
    indices, begin = [], 0
    for part in result.types.data[:-1]:
        begin += static_shape(part, op)[axis]
        indices.append(begin)
    return R.split(args[0], indices, axis)
