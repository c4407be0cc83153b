"""Kernels of the pooling operators: windowed, global and adaptive.

They follow TVM v0.19's topi (``pool_impl_nd``, ``adaptive_pool_impl``):

* Padding has 1, d or 2*d entries (all "before" values, then all "after" ones).
* ``ceil_mode`` pads the end of each axis by ``stride - 1`` more, so the last
  partial window counts.
* Max pooling pads with the dtype's lowest value.
* Average pooling divides a window's sum by the number of its elements
  inside the data or, with ``count_include_pad``, inside the data and the
  attribute's padding (never the ceil-mode padding); at least 1.
* Adaptive windows along an axis of n inputs and m outputs run from
  ``floor(i*n/m)`` to ``ceil((i+1)*n/m)``.
* Integer data divides with truncation, as TVM's ``div`` does.
* A blocked layout (``NCHW16c``) pools its primal axes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.interpreter.kernels.layouts import (
    KernelError,
    pad_pairs,
    primal_layout,
    spatial_positions,
    to_layout,
    windows,
)
from relay_xdsl.interpreter.registry import kernel


def _lowest(dtype: np.dtype) -> np.ndarray:
    if np.issubdtype(dtype, np.floating):
        return np.array(np.finfo(dtype).min, dtype)
    if np.issubdtype(dtype, np.integer):
        return np.array(np.iinfo(dtype).min, dtype)
    raise KernelError(f"max pooling of {dtype}")


def _divide(total: np.ndarray, count: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`total` / `count` in `dtype`: truncating for integers."""
    if np.issubdtype(dtype, np.integer):
        quotient = np.trunc(total / count)
        return quotient.astype(dtype)
    return (total / count.astype(dtype)).astype(dtype)


def _in_primal_layout(
    call: Call, data: np.ndarray, compute: Callable[[np.ndarray, str], np.ndarray]
) -> np.ndarray:
    """`compute` on `data` in the primal axes of the call's layout (the
    channels of ``NCHW16c`` merged), its result back in the call's layout."""
    layout = call.attr("layout")
    primal = primal_layout(layout)
    return to_layout(compute(to_layout(data, layout, primal), primal), primal, layout)


def _pool(call: Call, data: np.ndarray, dims: int, kind: str) -> np.ndarray:
    return _in_primal_layout(call, data, lambda x, layout: _pool_in(call, x, layout, dims, kind))


def _pool_in(call: Call, data: np.ndarray, layout: str, dims: int, kind: str) -> np.ndarray:
    axes = spatial_positions(layout, spatial_axes(dims))
    window, strides = call.ints("pool_size"), call.ints("strides")
    dilation = call.ints("dilation")
    # The attribute's padding, and the ceil-mode padding after it.
    pads: list[tuple[int, int]] = [(0, 0)] * data.ndim
    ceil: list[tuple[int, int]] = [(0, 0)] * data.ndim
    for axis, pair, stride in zip(axes, pad_pairs(call.ints("padding"), dims), strides):
        pads[axis] = pair
        ceil[axis] = (0, stride - 1 if call.attr("ceil_mode") else 0)
    out = [
        (data.shape[axis] + sum(pads[axis]) + ceil[axis][1] - (k - 1) * d - 1) // s + 1
        for axis, k, d, s in zip(axes, window, dilation, strides)
    ]
    widths = [(b, a + c) for (b, a), (_, c) in zip(pads, ceil)]
    reduce = tuple(range(data.ndim, data.ndim + dims))
    if kind == "max":
        padded = np.pad(data, widths, constant_values=_lowest(data.dtype))
        return windows(padded, axes, window, strides, dilation, out).max(axis=reduce)
    accumulate = np.int64 if np.issubdtype(data.dtype, np.integer) else data.dtype
    padded = np.pad(data.astype(accumulate, copy=False), widths)
    total = windows(padded, axes, window, strides, dilation, out).sum(axis=reduce)
    # The divisor: the window sums of a mask of the counted positions.
    shape = [data.shape[axis] if axis in axes else 1 for axis in range(data.ndim)]
    include = 1 if call.attr("count_include_pad") else 0
    counted = np.pad(np.ones(shape, np.int64), pads, constant_values=include)
    counted = np.pad(counted, ceil)
    count = windows(counted, axes, window, strides, dilation, out).sum(axis=reduce)
    return _divide(total, np.maximum(count, 1), data.dtype)


@kernel("nn.max_pool1d")
def max_pool1d(call: Call, data: np.ndarray) -> np.ndarray:
    return _pool(call, data, 1, "max")


@kernel("nn.max_pool2d")
def max_pool2d(call: Call, data: np.ndarray) -> np.ndarray:
    return _pool(call, data, 2, "max")


@kernel("nn.max_pool3d")
def max_pool3d(call: Call, data: np.ndarray) -> np.ndarray:
    return _pool(call, data, 3, "max")


@kernel("nn.avg_pool1d")
def avg_pool1d(call: Call, data: np.ndarray) -> np.ndarray:
    return _pool(call, data, 1, "avg")


@kernel("nn.avg_pool2d")
def avg_pool2d(call: Call, data: np.ndarray) -> np.ndarray:
    return _pool(call, data, 2, "avg")


@kernel("nn.avg_pool3d")
def avg_pool3d(call: Call, data: np.ndarray) -> np.ndarray:
    return _pool(call, data, 3, "avg")


def _adaptive(data: np.ndarray, axes: Sequence[int], sizes: Sequence[int], kind: str) -> np.ndarray:
    """Adaptive pooling, one axis at a time (max and sum are separable over a
    product window); the average divides the sum by the window's size."""
    accumulate = np.int64 if np.issubdtype(data.dtype, np.integer) else data.dtype
    values = data if kind == "max" else data.astype(accumulate, copy=False)
    count = np.ones((), np.int64)
    for axis, size in zip(axes, sizes):
        n = values.shape[axis]
        starts = [i * n // size for i in range(size)]
        ends = [-(-(i + 1) * n // size) for i in range(size)]
        parts = []
        for start, end in zip(starts, ends):
            part = np.take(values, range(start, end), axis=axis)
            parts.append(part.max(axis=axis) if kind == "max" else part.sum(axis=axis))
        values = np.stack(parts, axis=axis)
        extents = np.array([e - s for s, e in zip(starts, ends)], np.int64)
        shape = [1] * data.ndim
        shape[axis] = size
        count = count * extents.reshape(shape)
    if kind == "max":
        return values
    return _divide(values, count, data.dtype)


def _output_size(call: Call, data: np.ndarray, axes: Sequence[int]) -> list[int]:
    sizes = call.attr("output_size") or ()
    if len(sizes) not in (0, 1, len(axes)):
        raise KernelError(f"output_size {list(sizes)}")
    result = []
    for i, axis in enumerate(axes):
        size = (sizes[i] if len(sizes) > 1 else sizes[0]) if sizes else None
        result.append(data.shape[axis] if size is None else int(size))
    return result


def _global(call: Call, data: np.ndarray, kind: str) -> np.ndarray:
    def compute(x: np.ndarray, layout: str) -> np.ndarray:
        return _adaptive(x, spatial_positions(layout, "HW"), (1, 1), kind)

    return _in_primal_layout(call, data, compute)


def _adaptive_call(call: Call, data: np.ndarray, kind: str) -> np.ndarray:
    def compute(x: np.ndarray, layout: str) -> np.ndarray:
        axes = spatial_positions(layout, "HW")
        return _adaptive(x, axes, _output_size(call, x, axes), kind)

    return _in_primal_layout(call, data, compute)


@kernel("nn.global_avg_pool2d")
def global_avg_pool2d(call: Call, data: np.ndarray) -> np.ndarray:
    return _global(call, data, "avg")


@kernel("nn.global_max_pool2d")
def global_max_pool2d(call: Call, data: np.ndarray) -> np.ndarray:
    return _global(call, data, "max")


@kernel("nn.adaptive_avg_pool2d")
def adaptive_avg_pool2d(call: Call, data: np.ndarray) -> np.ndarray:
    return _adaptive_call(call, data, "avg")


@kernel("nn.adaptive_max_pool2d")
def adaptive_max_pool2d(call: Call, data: np.ndarray) -> np.ndarray:
    return _adaptive_call(call, data, "max")
