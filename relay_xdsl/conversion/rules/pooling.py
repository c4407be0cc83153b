"""Pools channels-last: ``tosa.max_pool2d`` and ``tosa.avg_pool2d``.

TOSA's average leaves padding out of the count; Relay's
``count_include_pad=True`` pads with explicit zeros first. A 1-D pool is a
2-D one with a unit ``H`` axis; a 3-D pool pools each depth slice, then
along the depth. Global pools are
pools whose window is the whole image, adaptive pools to a size that divides
the input's are pools whose stride is their window (other adaptive pools:
weight matrices and ``tosa.matmul``, or one reduction per window).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, SSAValue

from relay_xdsl.conversion.linalg import integer_max_pool2d
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.nn import matmul3
from relay_xdsl.conversion.rules.slicing import sliced
from relay_xdsl.conversion.rules.windows import (
    exact_window,
    layout_perm,
    spatial_padding,
    window_attributes,
    window_input,
    with_unit_axis,
    with_unit_layout,
    without_unit_axis,
)
from relay_xdsl.conversion.tosa import TosaBuilder, numpy_dtype
from relay_xdsl.conversion.values import Tensor, permuted_type
from relay_xdsl.dialects.relay.layouts import spatial_axes


def pool(
    call: RuleCall,
    x: Tensor,
    layout: str,
    kind: str,
    kernel: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[int],
    count_include_pad: bool,
    result_type: TensorType,
    dilation: Sequence[int] = (),
) -> Tensor:
    """`x` (in `layout`) pooled by `kind` (``max`` or ``avg``) over windows of
    the spatial axes (Relay's `padding`), the result of `result_type` held
    channels-last. A 3-D pool is a 2-D pool of each depth slice, then a pool
    along the depth: maxima, window sums and the counts of what a window
    covers all split that way. TOSA's pools have no dilation: a dilated pool
    combines its window's taps (`_dilated`)."""
    dims = len(kernel)
    perm = layout_perm(call, layout, f"N{spatial_axes(dims)}C")
    result = permuted_type(result_type, perm)
    data = call.value(x, perm)
    if count_include_pad and any(padding):
        pairs = spatial_padding(padding, dims)
        data = call.emit.pad(data, [0, 0, *(p for pair in pairs for p in pair), 0, 0])
        padding = [0] * dims
    if any(d != 1 for d in dilation):
        value = _dilated(call, kind, data, kernel, strides, dilation, padding, result)
        return Tensor(result_type, value, perm)
    if dims == 2:
        return Tensor(
            result_type, _pool2d(call, kind, data, kernel, strides, padding, result), perm
        )
    emit = call.emit
    n, d, h, w, c = data.type.get_shape()  # type: ignore[attr-defined]
    _, out_d, out_h, out_w, _ = result.get_shape()
    (front, back), (top, bottom), (left, right) = spatial_padding(padding, dims)
    element = result.get_element_type()
    planes = _pool2d(
        call,
        kind,
        emit.reshape(data, [n * d, h, w, c]),
        kernel[1:],
        strides[1:],
        [top, left, bottom, right],
        TensorType(element, [n * d, out_h, out_w, c]),
    )
    depth = _pool2d(
        call,
        kind,
        emit.reshape(planes, [n, d, out_h * out_w, c]),
        [kernel[0], 1],
        [strides[0], 1],
        [front, 0, back, 0],
        TensorType(element, [n, out_d, out_h * out_w, c]),
    )
    return Tensor(result_type, emit.reshape(depth, result.get_shape()), perm)


def _pool2d(
    call: RuleCall,
    kind: str,
    data: SSAValue,
    kernel: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[int],
    result: TensorType,
) -> SSAValue:
    """The TOSA pool of NHWC `data` to NHWC `result`.

    TOSA pads less than a window: the last outputs of a ``ceil_mode`` pool
    whose windows lie wholly past the data are what an empty window gives
    (the lowest value for a maximum, zero for an average), padded on after."""
    shape = list(data.type.get_shape())  # type: ignore[attr-defined]
    out = list(result.get_shape()[1:3])
    empty = [0, 0]
    for axis, (before, _) in enumerate(spatial_padding(padding, 2)):
        while out[axis] > 1 and (out[axis] - 1) * strides[axis] - before >= shape[1 + axis]:
            out[axis] -= 1
            empty[axis] += 1
    data, pads = exact_window(call, data, padding, kernel, strides, (1, 1), out)
    attributes = window_attributes(pads, kernel, strides)
    element = result.get_element_type()
    computed = TensorType(element, [shape[0], *out, shape[3]])
    if kind == "max" and isinstance(element, IntegerType) and element.width.data != 8:
        fill = _lowest(element)
        top, bottom, left, right = pads
        padded = call.emit.pad(data, [0, 0, top, bottom, left, right, 0, 0], fill)
        value = integer_max_pool2d(call.emit, padded, kernel, strides, int(fill), computed)
    elif kind == "max":
        value = _max_pool2d(call, data, pads, kernel, strides, computed)
        fill = _lowest(element)
    else:
        zero = call.emit.zero_point(element)
        attributes["acc_type"] = element
        value = call.emit.op("avg_pool2d", [data, zero, zero], computed, attributes)
        fill = 0.0
    return call.emit.pad(value, [0, 0, 0, empty[0], 0, empty[1], 0, 0], fill)


def _max_pool2d(
    call: RuleCall,
    data: SSAValue,
    pads: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    result: TensorType,
) -> SSAValue:
    """``tosa.max_pool2d`` of NHWC `data` (TOSA's `pads`: top, bottom, left,
    right) to `result`, a maximum that propagates NaN, as the interpreter's
    (numpy's) does.

    A padded pool pools the outputs whose windows lie inside the data from
    the data itself, unpadded, and only the bands of outputs along the
    edges from padded slices of the data, a few rows or columns each.
    Padded whole (a fill of the padded tensor and a copy of the data into
    it, each a pass over it), resnet's stem pool spent about two thirds of
    its time padding; padded by one generic writing each element once
    (linalg.py's ``zero_padded``), it ran slower still. The parts are
    inserted into one result (`_assembled`), each copied into it once,
    where the inside, concatenated with the side bands and that with the
    top band, was copied twice (resnet50's stem pool on its own, one
    thread, minimums of 300 alternating calls: 0.328 to 0.299 ms)."""
    emit = call.emit
    _, h, w, _ = data.type.get_shape()  # type: ignore[attr-defined]
    n, out_h, out_w, c = result.get_shape()
    top, left = pads[0], pads[2]
    rows = _inside(top, h, kernel[0], strides[0], out_h)
    columns = _inside(left, w, kernel[1], strides[1], out_w)
    if not any(pads) or rows is None or columns is None:
        attributes = window_attributes(list(pads), kernel, strides)
        return emit.op("max_pool2d", [data], result, attributes)

    def band(first_row: int, last_row: int, first_column: int, last_column: int) -> SSAValue:
        """The outputs of rows and columns [first, last), pooled from the
        data they read, padded where their windows pass its edges."""
        begin, size, band_pads = [0, 0, 0, 0], [n, 0, 0, c], []
        for axis, (first, last, before, k, s, extent) in enumerate(
            [
                (first_row, last_row, top, kernel[0], strides[0], h),
                (first_column, last_column, left, kernel[1], strides[1], w),
            ],
            start=1,
        ):
            start, end = first * s - before, (last - 1) * s - before + k
            begin[axis], size[axis] = max(start, 0), min(end, extent) - max(start, 0)
            band_pads += [max(-start, 0), max(end - extent, 0)]
        part = TensorType(
            result.get_element_type(), [n, last_row - first_row, last_column - first_column, c]
        )
        attributes = window_attributes(band_pads, kernel, strides)
        return emit.op("max_pool2d", [emit.slice(data, begin, size)], part, attributes)

    (inner_top, inner_bottom), (inner_left, inner_right) = rows, columns
    # the inside first, the largest part, then the edge bands
    parts = [
        (inner_top, inner_bottom, inner_left, inner_right),
        (inner_top, inner_bottom, 0, inner_left),
        (inner_top, inner_bottom, inner_right, out_w),
        (0, inner_top, 0, out_w),
        (inner_bottom, out_h, 0, out_w),
    ]
    return _assembled(
        emit, [part for part in parts if part[1] > part[0] and part[3] > part[2]], band, result
    )


def _assembled(
    emit: TosaBuilder,
    parts: Sequence[tuple[int, int, int, int]],
    part: Callable[[int, int, int, int], SSAValue],
    result: TensorType,
) -> SSAValue:
    """The NHWC `result` of `parts`, rows and columns ``(first_row, last_row,
    first_column, last_column)`` that together cover it once, each computed
    by `part` and inserted (``tensor.insert_slice``) into the result, which is
    made (``tensor.empty``) first: one insert per part, where nested
    ``tosa.concat`` s copy the parts of an inner one again."""
    n, _, _, c = result.get_shape()
    empty = tensor.EmptyOp([], result)
    emit.block.add_op(empty)
    assembled: SSAValue = empty.tensor
    for first_row, last_row, first_column, last_column in parts:
        value = part(first_row, last_row, first_column, last_column)
        insert = tensor.InsertSliceOp.from_static_parameters(
            value,
            assembled,
            [0, first_row, first_column, 0],
            [n, last_row - first_row, last_column - first_column, c],
        )
        emit.block.add_op(insert)
        assembled = insert.result
    return assembled


def _inside(before: int, extent: int, kernel: int, stride: int, out: int) -> tuple[int, int] | None:
    """The outputs [first, last) along an axis whose windows (`kernel` wide,
    `stride` apart, the first starting `before` elements before the data)
    lie wholly inside the `extent` elements of data; None if there are none."""
    first = -(-before // stride)
    last = min(out, (extent + before - kernel) // stride + 1)
    return (first, last) if last > first else None


def _lowest(element: Attribute) -> float:
    """The lowest value of `element`s: what a maximum pads with."""
    dtype = numpy_dtype(element)
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return float(info.min)


def _dilated(
    call: RuleCall,
    kind: str,
    data: SSAValue,
    kernel: Sequence[int],
    strides: Sequence[int],
    dilation: Sequence[int],
    padding: Sequence[int],
    result: TensorType,
) -> SSAValue:
    """A dilated pool of channels-last `data`: the maximum, or the sum times the
    reciprocal of the count of data positions (known when compiling), of its
    taps, each tap a strided slice of the padded data."""
    emit = call.emit
    shape = list(data.type.get_shape())  # type: ignore[attr-defined]
    out = result.get_shape()[1:-1]
    sizes, pads = list(shape), []
    for axis, ((before, _), k, s, d, o) in enumerate(
        zip(spatial_padding(padding, len(kernel)), kernel, strides, dilation, out), start=1
    ):
        after = (o - 1) * s + (k - 1) * d + 1 - shape[axis] - before
        sizes[axis] += min(after, 0)
        pads.append((before, max(after, 0)))
    element = result.get_element_type()
    dtype = numpy_dtype(element)
    fill = _lowest(element) if kind == "max" else 0.0
    cut = emit.slice(data, [0] * len(shape), sizes)
    padded = emit.pad(cut, [0, 0, *(p for pair in pads for p in pair), 0, 0], fill)
    whole = Tensor(padded.type, padded)  # type: ignore[arg-type]
    total: SSAValue | None = None
    counted = np.pad(np.ones(sizes[1:-1]), pads)
    count = np.zeros(out)
    for taps in itertools.product(*(range(k) for k in kernel)):
        window = {
            axis: slice(t * d, t * d + (o - 1) * s + 1, s)
            for axis, (t, d, o, s) in enumerate(zip(taps, dilation, out, strides), start=1)
        }
        tap = sliced(call, whole, window)
        count += counted[tuple(window[axis] for axis in range(1, len(shape) - 1))]
        if total is None:
            total = tap
        else:
            total = emit.op("maximum" if kind == "max" else "add", [total, tap], result)
    assert total is not None
    if kind == "max":
        return total
    reciprocal = (1 / np.maximum(count, 1)).astype(dtype).reshape([1, *out, 1])
    return emit.mul(total, emit.const(reciprocal, element), result)


def _windowed(call: RuleCall, kind: str) -> Tensor:
    """A pool of the call's attributes (``nn.max_pool2d``, ``nn.avg_pool3d``, ...)."""
    layout = _layout(call)
    dilation = call.call.ints("dilation")
    kernel, strides = call.call.ints("pool_size"), call.call.ints("strides")
    padding = call.call.ints("padding")
    count_include_pad = bool(call.call.attr("count_include_pad"))
    x = call.tensor(0)
    if len(kernel) != 1:
        return pool(
            call,
            x,
            layout,
            kind,
            kernel,
            strides,
            padding,
            count_include_pad,
            call.result_type,
            dilation,
        )
    # one dimension: two, with a unit H axis
    if "W" not in layout:
        raise call.error(f"layout {layout} is not supported")
    axis = layout.index("W")
    ((before, after),) = spatial_padding(padding, 1)
    shape = list(call.result_type.get_shape())
    shape.insert(axis, 1)
    pooled = pool(
        call,
        with_unit_axis(call, x, axis),
        with_unit_layout(layout),
        kind,
        [1, *kernel],
        [1, *strides],
        [0, before, 0, after],
        count_include_pad,
        TensorType(call.result_type.get_element_type(), shape),
        [1, *dilation],
    )
    return without_unit_axis(call, pooled, axis)


@lowering("nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d")
def max_pool(call: RuleCall) -> Tensor:
    return _windowed(call, "max")


@lowering("nn.avg_pool1d", "nn.avg_pool2d", "nn.avg_pool3d")
def avg_pool(call: RuleCall) -> Tensor:
    return _windowed(call, "avg")


def _layout(call: RuleCall) -> str:
    """The call's layout; its out layout must be the same."""
    layout = call.call.attr("layout")
    if (call.call.attr("out_layout") or layout) != layout:
        raise call.error("an out_layout other than the layout is not supported")
    return layout


def _global(call: RuleCall, kind: str) -> Tensor:
    layout = _layout(call)
    x, perm = window_input(call, layout, "HW")
    h, w = permuted_type(x.type, perm).get_shape()[1:3]
    return pool(call, x, layout, kind, [h, w], [1, 1], [0], False, call.result_type)


@lowering("nn.global_avg_pool2d")
def global_avg_pool2d(call: RuleCall) -> Tensor:
    return _global(call, "avg")


@lowering("nn.global_max_pool2d")
def global_max_pool2d(call: RuleCall) -> Tensor:
    return _global(call, "max")


def _adaptive(call: RuleCall, kind: str) -> Tensor:
    """An adaptive pool. Output row ``i`` of ``out`` pools input rows
    ``floor(i * in / out)`` to ``ceil((i + 1) * in / out)`` (TVM's windows).
    Where the output size divides the input's, those are the windows of a
    pool whose stride is its window; otherwise windows differ in size and
    overlap: an average is two products with per-window weight matrices
    (rows, then columns), a maximum one reduction per window row and column."""
    layout = _layout(call)
    x, perm = window_input(call, layout, "HW")
    h, w = permuted_type(x.type, perm).get_shape()[1:3]
    result = permuted_type(call.result_type, perm)
    out_h, out_w = result.get_shape()[1:3]
    if h % out_h == 0 and w % out_w == 0:
        window = [h // out_h, w // out_w]
        return pool(call, x, layout, kind, window, window, [0], False, call.result_type)
    data = call.value(x, perm)
    if kind == "avg":
        return call.result(_adaptive_average(call, data, result), perm)
    return call.result(_adaptive_maximum(call, data, result), perm)


def _adaptive_windows(size: int, out: int) -> list[tuple[int, int]]:
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def _adaptive_average(call: RuleCall, data: SSAValue, result: TensorType) -> SSAValue:
    """``rows @ x @ cols.T`` per image and channel, as two ``tosa.matmul``s on
    reshapes of NHWC that move no data."""
    n, h, w, c = data.type.get_shape()  # type: ignore[attr-defined]
    out_h, out_w = result.get_shape()[1:3]
    element = result.get_element_type()
    dtype = numpy_dtype(element)
    emit = call.emit

    def weights(size: int, out: int, batch: int) -> SSAValue:
        matrix = np.zeros((out, size), dtype=dtype)
        for i, (start, end) in enumerate(_adaptive_windows(size, out)):
            matrix[i, start:end] = 1 / (end - start)
        return emit.const(
            np.ascontiguousarray(np.broadcast_to(matrix, (batch, out, size))), element
        )

    rows = matmul3(call, weights(h, out_h, n), emit.reshape(data, [n, h, w * c]))
    columns = matmul3(call, weights(w, out_w, n * out_h), emit.reshape(rows, [n * out_h, w, c]))
    return emit.reshape(columns, result.get_shape())


def _adaptive_maximum(call: RuleCall, data: SSAValue, result: TensorType) -> SSAValue:
    """One ``tosa.reduce_max`` per window of rows, concatenated; then of columns."""
    shape = list(data.type.get_shape())  # type: ignore[attr-defined]
    emit = call.emit
    for axis in (1, 2):
        parts = []
        for start, end in _adaptive_windows(shape[axis], result.get_shape()[axis]):
            begin, size = [0] * 4, list(shape)
            begin[axis], size[axis] = start, end - start
            parts.append(emit.reduce("max", emit.slice(data, begin, size), axis))
        shape[axis] = len(parts)
        data = emit.concat(parts, axis, TensorType(result.get_element_type(), shape))
    return data


@lowering("nn.adaptive_avg_pool2d")
def adaptive_avg_pool2d(call: RuleCall) -> Tensor:
    return _adaptive(call, "avg")


@lowering("nn.adaptive_max_pool2d")
def adaptive_max_pool2d(call: RuleCall) -> Tensor:
    return _adaptive(call, "max")
