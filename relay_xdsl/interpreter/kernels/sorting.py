"""Kernels of the sorting operators: argsort, sort and topk.

TVM v0.19 sorts stably on CPU (``std::stable_sort``), so equal elements
keep their order, ascending or descending. ``topk`` with ``k < 1`` keeps
the whole axis; ``ret_type`` is ``both`` (values, indices), ``values`` or
``indices``; ``is_ascend`` (default false for topk) picks the smallest.
Indices have the ``dtype`` attribute's type (int32 by default).
"""

from __future__ import annotations

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.kernels.common import axis as normal_axis
from relay_xdsl.interpreter.registry import kernel


def stable_argsort(x: np.ndarray, axis: int, ascending: bool) -> np.ndarray:
    """Indices sorting `x` along `axis`, equal elements in their order either way."""
    if ascending:
        return np.argsort(x, axis=axis, kind="stable")
    # Descending and stable: sort the reversed axis ascending, then reverse back.
    flipped = np.flip(x, axis)
    order = np.argsort(flipped, axis=axis, kind="stable")
    return x.shape[axis] - 1 - np.flip(order, axis)


@kernel("argsort")
def argsort(call: Call, x: np.ndarray) -> np.ndarray:
    axis = normal_axis(call.integer("axis"), x.ndim)
    return stable_argsort(x, axis, bool(call.attr("is_ascend")))


@kernel("sort")
def sort(call: Call, x: np.ndarray) -> np.ndarray:
    axis = normal_axis(call.integer("axis"), x.ndim)
    order = stable_argsort(x, axis, bool(call.attr("is_ascend")))
    return np.take_along_axis(x, order, axis)


@kernel("topk")
def topk(call: Call, x: np.ndarray) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """The `k` largest (smallest if ``is_ascend``) elements along ``axis``, in order."""
    axis = normal_axis(call.integer("axis"), x.ndim)
    k = call.integer("k")
    order = stable_argsort(x, axis, bool(call.attr("is_ascend")))
    if k >= 1:
        order = np.take(order, np.arange(min(k, x.shape[axis])), axis=axis)
    values = np.take_along_axis(x, order, axis)
    ret_type = call.attr("ret_type")
    if ret_type == "values":
        return values
    if ret_type == "indices":
        return order
    return values, order
