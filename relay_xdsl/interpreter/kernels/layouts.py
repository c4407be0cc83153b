"""Helpers the nn, pooling and image kernels share: layouts, padding, result dtypes.

Kernels compute in a canonical layout (``NC<spatial>`` for data,
``OI<spatial>`` for weights) and transpose in and out of the call's layouts.
Only layouts of primal axes (``NHWC``, ``HWIO``) are transposed; a blocked
layout (``NCHW4c``) is an error naming it, never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.dialects.relay.inference import Call


class KernelError(NotImplementedError):
    """A call the kernel does not compute (a blocked layout, an unknown mode)."""


def permutation(src: str, dst: str) -> list[int]:
    """The axes of a `src`-layout array in the order of layout `dst` (same letters)."""
    if not (src.isalpha() and src.isupper() and dst.isalpha() and dst.isupper()):
        raise KernelError(f"layout {src!r} or {dst!r} is blocked; only primal layouts are computed")
    if sorted(src) != sorted(dst):
        raise KernelError(f"layout {src!r} does not have the axes of {dst!r}")
    return [src.index(letter) for letter in dst]


def to_layout(array: np.ndarray, src: str, dst: str) -> np.ndarray:
    """`array`, in layout `src`, transposed to layout `dst`."""
    if src == dst:
        return array
    return np.transpose(array, permutation(src, dst))


def pad_pairs(padding: Sequence[int], ndim: int) -> list[tuple[int, int]]:
    """(before, after) per spatial axis from TVM's 1, ndim or 2*ndim padding entries
    (``get_pad_tuple``: 2*ndim entries are all "before" values, then all "after" values)."""
    padding = [int(p) for p in padding]
    if len(padding) == 1:
        return [(padding[0], padding[0])] * ndim
    if len(padding) == ndim:
        return [(p, p) for p in padding]
    if len(padding) == 2 * ndim:
        return [(padding[i], padding[i + ndim]) for i in range(ndim)]
    raise KernelError(f"padding {padding} has neither 1, {ndim} nor {2 * ndim} entries")


def numpy_dtype(element: Attribute) -> np.dtype:
    """The numpy dtype of an element type."""
    name = dtypes.dtype_name(element)
    try:
        return np.dtype(name)
    except TypeError as error:
        raise KernelError(f"no numpy dtype for {name}") from error


def result_dtype(call: Call, index: int = 0) -> np.dtype:
    """The numpy dtype of the call's result (of field `index` of a tuple result)."""
    type_ = call.result_type
    if isinstance(type_, TupleType):
        type_ = type_.types.data[index]
    if not isinstance(type_, TensorType):
        raise KernelError(f"the call's result type {type_} is not a tensor")
    return numpy_dtype(type_.get_element_type())


def spatial_positions(layout: str, spatial: str) -> list[int]:
    """The positions of the spatial letters in a primal layout."""
    permutation(layout, layout)  # rejects blocked layouts
    try:
        return [layout.index(letter) for letter in spatial]
    except ValueError as error:
        raise KernelError(f"layout {layout!r} lacks an axis of {spatial!r}") from error


def windows(
    padded: np.ndarray,
    axes: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    dilation: Sequence[int],
    out: Sequence[int],
) -> np.ndarray:
    """A view of the windows of `padded` along `axes`: the window axes are
    appended at the end, the `axes` become the output positions (`out` of them)."""
    dilated = [(k - 1) * d + 1 for k, d in zip(window, dilation)]
    view = np.lib.stride_tricks.sliding_window_view(padded, dilated, axis=tuple(axes))
    index: list[slice] = [slice(None)] * padded.ndim
    for axis, stride, size in zip(axes, strides, out):
        index[axis] = slice(0, (size - 1) * stride + 1, stride)
    index += [slice(None, None, d) for d in dilation]
    return view[tuple(index)]
