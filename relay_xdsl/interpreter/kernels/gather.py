"""Kernels of the gathering operators: take, gather, gather_nd and one_hot.

TVM v0.19's semantics (``include/tvm/topi/transform.h``):

* ``take`` along ``axis`` (of the flattened data when ``axis`` is None),
  with ``batch_dims`` leading dimensions shared by data and indices; an
  index out of range is clamped to [0, n-1] in mode ``clip`` (a negative
  index gives element 0), taken modulo n in mode ``wrap``, and in mode
  ``fast`` (unchecked in TVM) negative indices count from the end and an
  index out of range is an error;
* ``gather`` is ``out[i][j][k] = data[i][index[i][j][k]][k]`` along ``axis``;
  the indices may be smaller than the data in the other dimensions;
* ``gather_nd`` indexes with the *first* dimension of the indices:
  ``out[b, y..., rest...] = data[b, idx[0][b, y...], ..., idx[m-1][b, y...], rest...]``
  with ``batch_dims`` leading batch dimensions ``b``;
* ``one_hot(indices, on_value, off_value)`` inserts a ``depth`` axis at
  ``axis`` (-1: last): ``on_value`` where it equals the index, else ``off_value``.
"""

from __future__ import annotations

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.kernels.common import axis as normal_axis
from relay_xdsl.interpreter.kernels.common import result_dtype
from relay_xdsl.interpreter.registry import kernel


def _bounded(indices: np.ndarray, extent: int, mode: str) -> np.ndarray:
    """`indices` made valid for an axis of `extent` as the ``mode`` says."""
    indices = indices.astype(np.int64)
    if mode == "clip":
        return np.clip(indices, 0, extent - 1)
    if mode == "wrap":
        return np.mod(indices, extent)
    if mode == "fast":
        if indices.size and (indices.min() < -extent or indices.max() >= extent):
            raise InterpreterError(f"an index out of range for an axis of {extent}")
        return np.where(indices < 0, indices + extent, indices)
    raise InterpreterError(f"unknown mode '{mode}'")


@kernel("take")
def take(call: Call, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    mode = str(call.attr("mode"))
    axis_attr = call.attr("axis")
    if axis_attr is None:
        flat = data.reshape(-1)
        return flat[_bounded(indices, flat.size, mode)]
    axis = normal_axis(int(axis_attr), data.ndim)
    batch_dims = call.integer("batch_dims")
    if batch_dims < 0:
        batch_dims += indices.ndim
    index = _bounded(indices, data.shape[axis], mode)
    if batch_dims == 0:
        return np.take(data, index, axis=axis)
    # data (B..., pre..., n, post...) and indices (B..., I...) -> (B..., pre..., I..., post...)
    batch = data.shape[:batch_dims]
    pre, post = data.shape[batch_dims:axis], data.shape[axis + 1 :]
    count = int(np.prod(batch))
    blocks = data.reshape(count, int(np.prod(pre)), data.shape[axis], int(np.prod(post)))
    flat_index = index.reshape(count, -1)
    gathered = blocks[
        np.arange(count)[:, None, None],
        np.arange(blocks.shape[1])[None, :, None],
        flat_index[:, None, :],
    ]
    return gathered.reshape(*batch, *pre, *index.shape[batch_dims:], *post)


@kernel("gather")
def gather(call: Call, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    axis = normal_axis(call.integer("axis"), data.ndim)
    window = tuple(slice(None) if i == axis else slice(0, n) for i, n in enumerate(indices.shape))
    return np.take_along_axis(data[window], indices.astype(np.int64), axis)


@kernel("gather_nd")
def gather_nd(call: Call, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    batch_dims = call.integer("batch_dims")
    indices = indices.astype(np.int64)
    count = indices.shape[0]
    lookup_shape = indices.shape[1:]  # (B..., Y...)
    batch_index = tuple(
        np.arange(data.shape[b]).reshape(
            [data.shape[b] if i == b else 1 for i in range(len(lookup_shape))]
        )
        for b in range(batch_dims)
    )
    index = batch_index + tuple(indices[m] for m in range(count))
    return data[index]


@kernel("one_hot")
def one_hot(
    call: Call, indices: np.ndarray, on_value: np.ndarray, off_value: np.ndarray
) -> np.ndarray:
    depth = call.integer("depth")
    axis = normal_axis(call.integer("axis"), indices.ndim + 1)
    positions = np.expand_dims(indices, axis)
    levels = np.arange(depth).reshape([depth if i == axis else 1 for i in range(indices.ndim + 1)])
    dtype = result_dtype(call)
    return np.where(positions == levels, on_value.astype(dtype), off_value.astype(dtype))
