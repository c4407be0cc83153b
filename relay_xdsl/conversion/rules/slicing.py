"""Slices: ``strided_slice``, ``relax.strided_slice``, ``slice_like`` and ``split``,
in the operand's layout.

Every slice becomes one ``tosa.slice`` of the operand as it is held (the
bounds permuted to its layout), after a ``tosa.reverse`` for each axis
with a negative stride. A stride ``s > 1`` on an axis then keeps every
``s``-th element: the axis of ``n * s`` elements (padded at the end where
the data is shorter) is reshaped to ``(n, s)`` and the first column kept.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor
from relay_xdsl.interpreter.kernels.common import axis as normal_axis
from relay_xdsl.interpreter.kernels.shape import slice_of

_UNBOUNDED = 2**63 - 1
"""The end of a slice that runs to the end of its axis (TVM's int64 maximum)."""


def sliced(call: RuleCall, x: Tensor, slices: Mapping[int, slice]) -> SSAValue:
    """`x`, held in its layout, cut as `slices` (logical axis to a Python slice
    in canonical bounds) say; the other axes whole."""
    emit = call.emit
    value = call.value(x, x.perm)
    physical = [x.shape[p] for p in x.perm]
    begin, size = [0] * x.rank, list(physical)
    strided: list[tuple[int, int, int]] = []
    for i, p in enumerate(x.perm):
        if p not in slices:
            continue
        steps = range(*slices[p].indices(physical[i]))
        count, step, first = len(steps), steps.step, steps.start
        if count == 0:
            raise call.error(f"an empty slice of axis {p} is not supported")
        if step < 0:
            value = emit.reverse(value, i)
            first, step = physical[i] - 1 - first, -step
        begin[i], size[i] = first, count
        if step > 1:
            size[i] = min(count * step, physical[i] - first)
            strided.append((i, count, step))
    value = emit.slice(value, begin, size)
    for i, count, step in strided:
        value = _every(call, value, i, count, step)
    return value


def _every(call: RuleCall, value: SSAValue, axis: int, count: int, step: int) -> SSAValue:
    """Every `step`-th element of `value` along `axis`, `count` of them from the
    first; worked on a rank-3 view (before, axis, after), where ``tosa.pad``'s
    padding fits TOSA's rank limit."""
    emit = call.emit
    shape = list(value.type.get_shape())  # type: ignore[attr-defined]
    before, after = math.prod(shape[:axis]), math.prod(shape[axis + 1 :])
    value = emit.reshape(value, [before, shape[axis], after])
    value = emit.pad(value, [0, 0, 0, count * step - shape[axis], 0, 0])
    value = emit.reshape(value, [before, count, step, after])
    value = emit.slice(value, [0, 0, 0, 0], [before, count, 1, after])
    return emit.reshape(value, shape[:axis] + [count] + shape[axis + 1 :])


@lowering("strided_slice")
def strided_slice(call: RuleCall) -> Tensor:
    """``strided_slice(x)``: ``x[begin:end:strides]`` on the listed ``axes`` (all
    when None), bounds canonical as TVM's; ``slice_mode="size"`` reads ``end`` as
    sizes (a negative size: to the end) with stride one."""
    x = call.tensor(0)
    begin, end = call.call.ints("begin"), call.call.ints("end")
    strides = call.call.optional_ints("strides") or []
    size_mode = call.call.attr("slice_mode") == "size"
    listed = call.call.optional_ints("axes")
    axes = [normal_axis(a, x.rank) for a in listed] if listed else list(range(x.rank))
    slices = {}
    for i, axis in enumerate(axes):
        stride = 1 if size_mode or i >= len(strides) else strides[i]
        start = begin[i] if i < len(begin) else (0 if stride > 0 else _UNBOUNDED)
        if i >= len(end):
            stop = 0 if stride < 0 else _UNBOUNDED
        elif size_mode:
            stop = _UNBOUNDED if end[i] < 0 else start + end[i]
        else:
            stop = end[i]
        slices[axis] = slice_of(start, stop, stride, x.shape[axis])
    return call.result(sliced(call, x, slices), x.perm)


@lowering("relax.strided_slice")
def relax_strided_slice(call: RuleCall) -> Tensor:
    """``relax.strided_slice(x)``: ``x[begin:end:strides]`` on the listed ``axes``
    only, bounds clamped to each axis."""
    x = call.tensor(0)
    axes = call.call.ints("axes")
    begin, end = call.call.ints("begin"), call.call.ints("end")
    strides = call.call.optional_ints("strides") or [1] * len(axes)
    slices = {}
    for axis, start, stop, stride in zip(axes, begin, end, strides):
        axis = normal_axis(axis, x.rank)
        slices[axis] = slice_of(start, stop, stride, x.shape[axis])
    return call.result(sliced(call, x, slices), x.perm)


@lowering("slice_like")
def slice_like(call: RuleCall) -> Tensor:
    """The beginning of `x` along each axis that the result (the second
    argument's extents on ``axes``, all by default) shortens."""
    x = call.tensor(0)
    shape = call.result_type.get_shape()
    slices = {a: slice(0, n, 1) for a, (n, m) in enumerate(zip(shape, x.shape)) if n != m}
    return call.result(sliced(call, x, slices), x.perm)


@lowering("split")
def split(call: RuleCall) -> tuple[Tensor, ...]:
    """``split(x)`` along ``axis`` into equal sections (an integer) or at the
    given indices (a list): a tuple of slices."""
    x = call.tensor(0)
    axis = normal_axis(int(call.call.attr("axis")), x.rank)
    types = call.op.result.type
    assert isinstance(types, TupleType)
    pieces = []
    start = 0
    for type_ in types.types.data:
        assert isinstance(type_, TensorType)
        stop = start + type_.get_shape()[axis]
        value = sliced(call, x, {axis: slice(start, stop, 1)})
        pieces.append(Tensor(type_, value, x.perm))
        start = stop
    return tuple(pieces)


@lowering("relax.slice_scatter")
def slice_scatter(call: RuleCall) -> Tensor:
    """``relax.slice_scatter(x, src)``: `x` with ``x[start:end:step]`` along
    ``axis`` replaced by `src`, as the concatenation along that axis of the
    runs of elements each takes from `x` or from `src`."""
    x, src = call.tensor(0), call.tensor(1)
    axis = normal_axis(int(call.call.attr("axis")), x.rank)
    extent = x.shape[axis]
    bounds = slice(call.call.attr("start"), call.call.attr("end"), call.call.attr("step"))
    written = {position: k for k, position in enumerate(range(extent)[bounds])}
    # runs of (source, first index, count): consecutive elements of one source
    runs: list[tuple[int, int, int]] = []
    for i in range(extent):
        source, index = (1, written[i]) if i in written else (0, i)
        if runs and runs[-1][0] == source and runs[-1][1] + runs[-1][2] == index:
            runs[-1] = (source, runs[-1][1], runs[-1][2] + 1)
        else:
            runs.append((source, index, 1))
    values = (call.value(x), call.value(src))
    parts = []
    for source, first, count in runs:
        value = values[source]
        begin = [0] * x.rank
        size = list(value.type.get_shape())  # type: ignore[attr-defined]
        begin[axis], size[axis] = first, count
        parts.append(call.emit.slice(value, begin, size))
    if len(parts) == 1:
        return call.result(parts[0])
    return call.result(call.emit.concat(parts, axis, call.result_type))
