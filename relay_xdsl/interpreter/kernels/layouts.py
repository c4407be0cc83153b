"""Helpers the nn, pooling and image kernels share: layouts, padding, result dtypes.

Kernels compute in a canonical layout (``NC<spatial>`` for data,
``OI<spatial>`` for weights) and transpose in and out of the call's layouts,
merging and splitting the sub-axes of blocked layouts (``NCHW4c``,
``OIHW4i4o``) as TVM's ``BijectiveLayout`` does; a primal axis that does not
divide into its blocks is an error, never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np

from relay_xdsl.dialects.relay.layouts import LayoutError, parse_layout
from relay_xdsl.interpreter.errors import InterpreterError


class KernelError(InterpreterError):
    """A call the kernel does not compute (an axis that does not divide into its
    blocks, an unknown mode, a type TVM gives but does not compute)."""


def _axes(layout: str) -> list[tuple[str, int]]:
    try:
        return parse_layout(layout)
    except LayoutError as error:
        raise KernelError(f"layout {layout!r}: {error}") from error


def primal_layout(layout: str) -> str:
    """The primal axes of `layout`, in its order (``NCHW`` for ``NCHW4c``)."""
    return "".join(letter for letter, block in _axes(layout) if not block)


def _unblock(array: np.ndarray, layout: str) -> np.ndarray:
    """`array` in layout `layout` with each sub-axis merged into its primal
    axis (``NCHW4c`` -> ``NCHW``: channel ``c * 4 + i`` from block ``c``, lane ``i``)."""
    axes = _axes(layout)
    if array.ndim != len(axes):
        raise KernelError(f"a rank-{array.ndim} array in layout {layout!r}")
    order: list[int] = []
    shape: list[int] = []
    for position, (letter, block) in enumerate(axes):
        if block:
            continue
        subs = [i for i, (a, b) in enumerate(axes) if b and a == letter.lower()]
        order += [position, *subs]
        shape.append(prod(array.shape[i] for i in [position, *subs]))
    return np.transpose(array, order).reshape(shape)


def _block(array: np.ndarray, layout: str) -> np.ndarray:
    """`array`, in the primal layout of `layout`, split into its sub-axes."""
    axes = _axes(layout)
    primal = [position for position, (_, block) in enumerate(axes) if not block]
    if array.ndim != len(primal):
        raise KernelError(f"a rank-{array.ndim} array in the primal axes of {layout!r}")
    tokens: list[int] = []  # the layout position of each axis of the split array
    shape: list[int] = []
    for extent, position in zip(array.shape, primal):
        letter = axes[position][0]
        subs = [i for i, (a, b) in enumerate(axes) if b and a == letter.lower()]
        inner = prod(axes[i][1] for i in subs)
        if extent % inner:
            raise KernelError(f"an axis of {extent} does not split into blocks of {inner}")
        tokens += [position, *subs]
        shape += [extent // inner, *(axes[i][1] for i in subs)]
    split = array.reshape(shape)
    return np.transpose(split, [tokens.index(i) for i in range(len(axes))])


def permutation(src: str, dst: str) -> list[int]:
    """The axes of a `src`-layout array in the order of layout `dst`, both
    primal layouts of the same letters."""
    if sorted(src) != sorted(dst) or not (src.isalpha() and src.isupper()):
        raise KernelError(f"layout {src!r} does not have the axes of {dst!r}")
    return [src.index(letter) for letter in dst]


def to_layout(array: np.ndarray, src: str, dst: str) -> np.ndarray:
    """`array`, in layout `src`, in layout `dst` (sub-axes such as the ``4c``
    of ``NCHW4c`` are merged into or split from their primal axes)."""
    if src == dst:
        return array
    primal_src, primal_dst = primal_layout(src), primal_layout(dst)
    if primal_src != src:
        array = _unblock(array, src)
    array = np.transpose(array, permutation(primal_src, primal_dst))
    return _block(array, dst) if primal_dst != dst else array


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


def spatial_positions(layout: str, spatial: str) -> list[int]:
    """The positions of the spatial letters in a primal layout."""
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
