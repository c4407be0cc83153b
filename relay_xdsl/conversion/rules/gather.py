"""Gathering: ``take``, ``gather``, ``gather_nd`` (``tosa.gather``) and
``one_hot`` (``tosa.equal`` and ``tosa.select``).

``take`` is a ``tosa.slice`` where the indices are a known contiguous range,
else a ``tosa.gather``.

``tosa.gather`` reads ``values`` (N, K, C) at i32 ``indices`` (N, W): the
data, in Relay's order, is reshaped so that N is the product of the
dimensions before the axis, K the axis and C the product of those after
it; the indices are flattened to W and repeated for each of the N rows.
Indices known when compiling are bounded as the ``mode`` says (clamped,
wrapped, or negative ones counted from the end) when compiling; indices
known only at run time are cast to i32 and bounded by TOSA operators
(an i64 index tensor needs the i64 cast TOSA's ``int64`` extension has).

``gather`` and ``gather_nd`` read the data flattened, ``(1, elements, 1)``
(``(1, elements, rest)`` for ``gather_nd``'s trailing dimensions), at the
flat position of each element they take: the index times its axis' stride
plus the part of the position that the output's coordinates give, known
when compiling. Negative indices count from the end, as the interpreter's
numpy indexing reads them. ``tosa.gather`` takes neither booleans (they
are gathered as i8) nor i64 (gathered as two i32 halves).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, i8, i32, i64
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.tosa import TosaBuilder
from relay_xdsl.conversion.values import Tensor
from relay_xdsl.interpreter.kernels.common import axis as normal_axis


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
    result = gathered(call.emit, values, index)
    return call.result(call.emit.reshape(result, call.result_type.get_shape()))


def _flat_indices(call: RuleCall, indices: Tensor, extent: int) -> SSAValue:
    """`indices` flattened to (1, count), i32, negative ones counted from `extent`."""
    count = math.prod(indices.shape)
    if indices.array is not None:
        known = bounded(indices.array, extent, "fast").astype(np.int32)
        return call.emit.const(known.reshape(1, count), i32)
    flat = call.emit.reshape(call.emit.cast(call.value(indices), i32), (1, count))
    return _bounded_at_run_time(call, flat, extent, "fast")


def gathered(emit: TosaBuilder, values: SSAValue, indices: SSAValue) -> SSAValue:
    """``tosa.gather`` of `values` (N, K, C) of any element type at i32 `indices`
    (N, W): booleans are gathered as i8, and i64 as its two 32-bit halves."""
    element = values.type.get_element_type()  # type: ignore[attr-defined]
    if element == IntegerType(1):
        return emit.cast(emit.gather(emit.cast(values, i8), indices), element)
    if element != i64:
        return emit.gather(values, indices)
    rank = 3
    shift = emit.scalar(32, i64, rank)
    low = emit.cast(emit.gather(emit.cast(values, i32), indices), i64)  # the casts wrap
    high_half = emit.arithmetic_right_shift(values, shift, values.type)
    high = emit.cast(emit.gather(emit.cast(high_half, i32), indices), i64)
    type_ = low.type
    high = emit.op("logical_left_shift", [high, shift], type_)
    low = emit.op("bitwise_and", [low, emit.scalar(0xFFFFFFFF, i64, rank)], type_)
    return emit.op("bitwise_or", [high, low], type_)


def _gathered(call: RuleCall, data: Tensor, positions: SSAValue, channels: int) -> SSAValue:
    """The rows of `data` (in Relay's order, as (elements / `channels`, `channels`))
    at the flat i32 `positions` (1, count), reshaped to the result type."""
    emit = call.emit
    values = emit.reshape(call.value(data), (1, math.prod(data.shape) // channels, channels))
    return emit.reshape(gathered(emit, values, positions), call.result_type.get_shape())


def _offset(call: RuleCall, index: SSAValue, stride: int, offsets: np.ndarray) -> SSAValue:
    """``index * stride + offsets`` (the i32 `index` and known `offsets` of one shape)."""
    emit = call.emit
    type_ = index.type
    if stride != 1:
        index = emit.mul(index, emit.scalar(stride, i32, 2), type_)
    if not offsets.any():
        return index
    return emit.op("add", [index, emit.const(offsets.astype(np.int32), i32)], type_)


@lowering("gather")
def gather(call: RuleCall) -> Tensor:
    """``gather(data, indices)`` along ``axis``: ``out[i, j, k] = data[i, indices[i, j, k], k]``
    (for ``axis`` 1)."""
    data, indices = call.tensor(0), call.tensor(1)
    axis = normal_axis(int(call.call.attr("axis")), data.rank)
    strides = [math.prod(data.shape[d + 1 :]) for d in range(data.rank)]
    coordinates = np.indices(indices.shape)
    offsets = sum(coordinates[d] * strides[d] for d in range(data.rank) if d != axis)
    offsets = np.asarray(offsets, np.int64).reshape(1, -1)
    index = _flat_indices(call, indices, data.shape[axis])
    positions = _offset(call, index, strides[axis], offsets)
    return call.result(_gathered(call, data, positions, 1))


@lowering("gather_nd")
def gather_nd(call: RuleCall) -> Tensor:
    """``gather_nd(data, indices)``: with ``m`` the first extent of `indices` and ``b``
    the ``batch_dims``, ``out[B, Y, R] = data[B, indices[0, B, Y], ..., indices[m-1, B, Y], R]``."""
    data, indices = call.tensor(0), call.tensor(1)
    batch = int(call.call.attr("batch_dims") or 0)
    count = indices.shape[0]
    lookup = indices.shape[1:]  # (B..., Y...)
    indexed = data.shape[: batch + count]
    channels = math.prod(data.shape[batch + count :])
    strides = [math.prod(indexed[d + 1 :]) for d in range(len(indexed))]
    coordinates = np.indices(lookup)
    offsets = np.asarray(sum(coordinates[b] * strides[b] for b in range(batch)), np.int64)
    offsets = np.broadcast_to(offsets, lookup).reshape(1, -1)
    positions: SSAValue | None = None
    for m in range(count):
        index = _flat_indices(call, _index_row(call, indices, m), indexed[batch + m])
        row = _offset(call, index, strides[batch + m], offsets)
        offsets = np.zeros_like(offsets)
        positions = row if positions is None else call.emit.op("add", [positions, row], row.type)
    assert positions is not None
    return call.result(_gathered(call, data, positions, channels))


def _index_row(call: RuleCall, indices: Tensor, m: int) -> Tensor:
    """``indices[m]``, the coordinates along the `m`-th indexed dimension."""
    type_ = TensorType(indices.element_type, indices.shape[1:])
    if indices.array is not None:
        return Tensor(type_, array=indices.array[m])
    shape = list(indices.shape)
    value = call.emit.slice(call.value(indices), [m] + [0] * (len(shape) - 1), [1] + shape[1:])
    return Tensor(type_, call.emit.reshape(value, shape[1:]))


@lowering("one_hot")
def one_hot(call: RuleCall) -> Tensor:
    """``one_hot(indices, on_value, off_value)``: a new dimension of ``depth`` at
    ``axis`` (-1: last), `on_value` where its position equals the index, else `off_value`."""
    indices = call.tensor(0)
    emit = call.emit
    type_ = call.result_type
    rank = type_.get_num_dims()
    axis = normal_axis(int(call.call.attr("axis")), rank)
    depth = type_.get_shape()[axis]
    shape = list(indices.shape)
    shape.insert(axis, 1)
    index = emit.reshape(emit.cast(call.value(indices), i32), shape)
    levels = np.arange(depth, dtype=np.int32).reshape(
        [depth if d == axis else 1 for d in range(rank)]
    )
    hot = emit.op(
        "equal", [index, emit.const(levels, i32)], TensorType(IntegerType(1), type_.get_shape())
    )
    element = type_.get_element_type()
    on, off = (
        emit.cast(aligned(call.lowering, call.tensor(i), rank, tuple(range(rank))), element)
        for i in (1, 2)
    )
    return call.result(emit.select(hot, on, off, type_))
