"""``take``: a ``tosa.slice`` where the indices are a known contiguous range,
else ``tosa.gather``.

``tosa.gather`` reads ``values`` (N, K, C) at i32 ``indices`` (N, W): the
data, in Relay's order, is reshaped so that N is the product of the
dimensions before the axis, K the axis and C the product of those after
it; the indices are flattened to W and repeated for each of the N rows.
Indices known when compiling are bounded as the ``mode`` says (clamped,
wrapped, or negative ones counted from the end) when compiling; indices
known only at run time are cast to i32 and bounded by TOSA operators
(an i64 index tensor needs the i64 cast TOSA's ``int64`` extension has).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, i32
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor


def bounded(indices: np.ndarray, extent: int, mode: str) -> np.ndarray:
    """Known `indices` made valid for an axis of `extent`, as `mode` says."""
    indices = indices.astype(np.int64)
    if mode == "clip":
        return np.clip(indices, 0, extent - 1)
    if mode == "wrap":
        return np.mod(indices, extent)
    return np.where(indices < 0, indices + extent, indices)


def _bounded_at_run_time(call: RuleCall, indices: SSAValue, extent: int, mode: str) -> SSAValue:
    """The i32 `indices` made valid for an axis of `extent` by TOSA operators."""
    emit = call.emit
    type_ = indices.type
    assert isinstance(type_, TensorType)
    rank = type_.get_num_dims()
    if mode == "clip":
        low = emit.op("maximum", [indices, emit.scalar(0, i32, rank)], type_)
        return emit.op("minimum", [low, emit.scalar(extent - 1, i32, rank)], type_)
    extent_value = emit.scalar(extent, i32, rank)
    if mode == "wrap":  # the remainder of truncating division, then made non-negative
        quotient = emit.op("intdiv", [indices, extent_value], type_)
        indices = emit.op("sub", [indices, emit.mul(quotient, extent_value, type_)], type_)
    negative = emit.op(
        "greater",
        [emit.scalar(0, i32, rank), indices],
        TensorType(IntegerType(1), type_.get_shape()),
    )
    shifted = emit.op("add", [indices, extent_value], type_)
    return emit.select(negative, shifted, indices, type_)


def _contiguous_start(indices: np.ndarray) -> int | None:
    """The first index, when the flattened `indices` count up by one from it."""
    flat = indices.reshape(-1)
    if flat.size == 0 or not (flat == np.arange(flat[0], flat[0] + flat.size)).all():
        return None
    return int(flat[0])


def _sliced(call: RuleCall, data: Tensor, axis: int, start: int, count: int) -> Tensor:
    """`data` restricted to `count` elements from `start` along `axis`, in its layout,
    as a tensor of the result's rank (the axis dropped for a scalar index)."""
    indices = call.tensor(1)
    physical_axis = data.perm.index(axis)
    shape = list(data.type.get_shape())
    physical = [shape[p] for p in data.perm]
    begin = [0] * data.rank
    begin[physical_axis], physical[physical_axis] = start, count
    value = call.emit.slice(call.value(data, data.perm), begin, physical)
    if indices.rank == 1:
        return call.result(value, data.perm)
    if indices.rank == 0:
        kept = [p for p in data.perm if p != axis]
        perm = tuple(p - (p > axis) for p in kept)
        return call.result(call.emit.reshape(value, [shape[p] for p in kept]), perm)
    if data.is_identity:
        return call.result(call.emit.reshape(value, call.result_type.get_shape()))
    shape[axis] = count
    sliced = Tensor(TensorType(data.element_type, shape), value, data.perm)
    return call.result(call.emit.reshape(call.value(sliced), call.result_type.get_shape()))


@lowering("take")
def take(call: RuleCall) -> Tensor:
    """``take(data, indices)`` along ``axis`` (of the flattened data when it is None):
    ``out[pre..., idx..., post...] = data[pre..., indices[idx...], post...]``, out
    of range indices bounded as ``mode`` says (``clip``, ``wrap``, or ``fast``)."""
    data, indices = call.tensor(0), call.tensor(1)
    if int(call.call.attr("batch_dims") or 0) != 0:
        raise call.error("batch_dims other than 0 are not supported")
    mode = str(call.call.attr("mode"))
    axis_attr = call.call.attr("axis")
    if axis_attr is None:
        flat = TensorType(data.element_type, [math.prod(data.shape)])
        data = Tensor(flat, call.emit.reshape(call.value(data), flat.get_shape()))
        axis = 0
    else:
        axis = int(axis_attr) % data.rank
    extent = data.shape[axis]
    known = indices.array
    if known is not None:
        known = bounded(known, extent, mode)
        start = _contiguous_start(known)
        if start is not None and start + known.size <= extent:
            return _sliced(call, data, axis, start, known.size)
    before, after = math.prod(data.shape[:axis]), math.prod(data.shape[axis + 1 :])
    count = math.prod(indices.shape)
    values = call.emit.reshape(call.value(data), (before, extent, after))
    if known is not None:
        rows = np.tile(known.reshape(1, count).astype(np.int32), (before, 1))
        index = call.emit.const(rows, i32)
    else:
        flat_index = call.emit.reshape(call.emit.cast(call.value(indices), i32), (1, count))
        index = call.emit.tile(_bounded_at_run_time(call, flat_index, extent, mode), (before, 1))
    gathered = call.emit.gather(values, index)
    return call.result(call.emit.reshape(gathered, call.result_type.get_shape()))
