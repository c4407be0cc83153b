"""Kernels of the reductions: sum, mean, max, min, prod, all, any, argmax,
argmin and variance.

The reduced axes follow TVM v0.19's ``GetReduceAxes``: ``axis`` None or
empty is every axis (``exclude`` or not), a listed axis may be negative,
and ``exclude`` reduces the axes *not* listed. ``keepdims`` keeps the
reduced axes with size 1. Further semantics:

* ``mean`` is ``sum / count``; on integers the division truncates (TVM's
  ``divide``); float16 means and variances are summed in float32, as TVM does;
* ``argmax``/``argmin`` over several axes give the row-major flat index
  into the reduced axes; ties give the first index, or the last with
  ``select_last_index``; the result is int32;
* ``variance(data, mean)`` is ``sum((data - mean)**2) / (count - unbiased)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.kernels.broadcasting import divide
from relay_xdsl.interpreter.kernels.common import axes as normal_axes
from relay_xdsl.interpreter.registry import kernel


def reduced_axes(call: Call, rank: int) -> tuple[int, ...]:
    """The axes the call reduces (``axis`` and ``exclude``, as TVM's ``GetReduceAxes``)."""
    listed = call.optional_ints("axis")
    if not listed:
        return tuple(range(rank))
    chosen = normal_axes(listed, rank)
    if call.attr("exclude"):
        return tuple(a for a in range(rank) if a not in chosen)
    return chosen


def _keep(
    call: Call, result: np.ndarray, shape: tuple[int, ...], axes: tuple[int, ...]
) -> np.ndarray:
    """`result` with the reduced axes kept (size 1) if ``keepdims``."""
    if not call.attr("keepdims"):
        return result
    return np.reshape(result, [1 if i in axes else n for i, n in enumerate(shape)])


def _reduce(call: Call, x: np.ndarray, function: Callable[..., Any]) -> np.ndarray:
    axes = reduced_axes(call, x.ndim)
    return _keep(call, np.asarray(function(x, axis=axes)), x.shape, axes)


@kernel("sum")
def sum(call: Call, x: np.ndarray) -> np.ndarray:
    return _reduce(call, x, lambda a, axis: np.sum(a, axis=axis, dtype=a.dtype))


def _wide(x: np.ndarray) -> np.ndarray:
    """`x`, in float32 if it is float16: TVM sums float16 means and variances in float32."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


@kernel("mean")
def mean(call: Call, x: np.ndarray) -> np.ndarray:
    """``sum / count``: truncated on integers; float16 summed in float32."""
    axes = reduced_axes(call, x.ndim)
    wide = _wide(x)
    total = np.asarray(np.sum(wide, axis=axes, dtype=wide.dtype))
    count = np.asarray(int(np.prod([x.shape[a] for a in axes])), wide.dtype)
    return _keep(call, divide(call, total, count), x.shape, axes)


@kernel("max")
def max(call: Call, x: np.ndarray) -> np.ndarray:
    return _reduce(call, x, np.max)


@kernel("min")
def min(call: Call, x: np.ndarray) -> np.ndarray:
    return _reduce(call, x, np.min)


@kernel("prod")
def prod(call: Call, x: np.ndarray) -> np.ndarray:
    return _reduce(call, x, lambda a, axis: np.prod(a, axis=axis, dtype=a.dtype))


@kernel("all")
def all(call: Call, x: np.ndarray) -> np.ndarray:
    return _reduce(call, x, np.all)


@kernel("any")
def any(call: Call, x: np.ndarray) -> np.ndarray:
    return _reduce(call, x, np.any)


def _arg_reduce(call: Call, x: np.ndarray, function: Callable[..., Any]) -> np.ndarray:
    """The flat index of the extremum over the reduced axes (moved last and merged)."""
    axes = reduced_axes(call, x.ndim)
    kept = [a for a in range(x.ndim) if a not in axes]
    moved = np.transpose(x, kept + list(axes))
    flat = moved.reshape(*moved.shape[: len(kept)], -1)
    if call.attr("select_last_index"):
        index = flat.shape[-1] - 1 - function(flat[..., ::-1], axis=-1)
    else:
        index = function(flat, axis=-1)
    return _keep(call, np.asarray(index, np.int32), x.shape, axes)


@kernel("argmax")
def argmax(call: Call, x: np.ndarray) -> np.ndarray:
    return _arg_reduce(call, x, np.argmax)


@kernel("argmin")
def argmin(call: Call, x: np.ndarray) -> np.ndarray:
    return _arg_reduce(call, x, np.argmin)


@kernel("variance")
def variance(call: Call, x: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """``sum((x - mean)**2) / (count - unbiased)``."""
    axes = reduced_axes(call, x.ndim)
    diff = x - mean
    square = _wide(diff * diff)
    total = np.asarray(np.sum(square, axis=axes, dtype=square.dtype))
    count = int(np.prod([x.shape[a] for a in axes])) - int(bool(call.attr("unbiased")))
    return _keep(call, divide(call, total, np.asarray(count, square.dtype)), x.shape, axes)


@kernel("collapse_sum_like")
def collapse_sum_like(call: Call, x: np.ndarray, like: np.ndarray) -> np.ndarray:
    """Sums `x` over the axes along which `like` broadcasts to it: the leading
    axes `like` lacks, and those where `like` has extent 1."""
    leading = x.ndim - like.ndim
    summed = np.sum(x, axis=tuple(range(leading))) if leading else x
    ones = tuple(i for i, n in enumerate(like.shape) if n == 1 and summed.shape[i] != 1)
    return np.sum(summed, axis=ones, keepdims=True) if ones else summed
