"""Pools in NHWC: ``tosa.max_pool2d`` and ``tosa.avg_pool2d``.

TOSA's average leaves padding out of the count; Relay's
``count_include_pad=True`` pads with explicit zeros first. Global pools are
pools whose window is the whole image, adaptive pools to a size that divides
the input's are pools whose stride is their window (other adaptive pools:
weight matrices and ``tosa.matmul``, or one reduction per window).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.nn import matmul3
from relay_xdsl.conversion.rules.windows import (
    exact_window,
    nhwc_input,
    nhwc_perm,
    window_attributes,
)
from relay_xdsl.conversion.tosa import numpy_dtype
from relay_xdsl.conversion.values import Tensor, permuted_type


def _pool(
    call: RuleCall,
    kind: str,
    kernel: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[int],
    count_include_pad: bool = False,
) -> Tensor:
    layout = call.call.attr("layout")
    x = nhwc_input(call, layout)
    perm = nhwc_perm(layout)
    if (call.call.attr("out_layout") or layout) != layout:
        raise call.error("an out_layout other than the layout is not supported")
    dilation = call.call.optional_ints("dilation") or [1, 1]
    if any(d != 1 for d in dilation):
        raise call.error("dilated pools are not supported")
    result = permuted_type(call.result_type, perm)
    out_hw = result.get_shape()[1:3]
    data = call.value(x, perm)
    if count_include_pad and any(padding):
        top, left, bottom, right = _four(padding)
        data = call.emit.pad(data, [0, 0, top, bottom, left, right, 0, 0])
        padding = [0, 0, 0, 0]
    data, pads = exact_window(call, data, padding, kernel, strides, (1, 1), out_hw)
    return call.result(_emit_pool(call, kind, data, pads, kernel, strides, result), perm)


def _emit_pool(
    call: RuleCall,
    kind: str,
    data: SSAValue,
    pads: list[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    result: TensorType,
) -> SSAValue:
    attributes = window_attributes(pads, kernel, strides)
    if kind == "max":
        return call.emit.op("max_pool2d", [data], result, attributes)
    element = result.get_element_type()
    zero = call.emit.zero_point(element)
    attributes["acc_type"] = element
    return call.emit.op("avg_pool2d", [data, zero, zero], result, attributes)


def _four(padding: Sequence[int]) -> list[int]:
    if len(padding) == 1:
        return list(padding) * 4
    if len(padding) == 2:
        return [padding[0], padding[1], padding[0], padding[1]]
    return list(padding)


@lowering("nn.max_pool2d")
def max_pool2d(call: RuleCall) -> Tensor:
    return _pool(
        call,
        "max",
        call.call.ints("pool_size"),
        call.call.ints("strides"),
        call.call.ints("padding"),
    )


@lowering("nn.avg_pool2d")
def avg_pool2d(call: RuleCall) -> Tensor:
    return _pool(
        call,
        "avg",
        call.call.ints("pool_size"),
        call.call.ints("strides"),
        call.call.ints("padding"),
        bool(call.call.attr("count_include_pad")),
    )


def _global(call: RuleCall, kind: str) -> Tensor:
    layout = call.call.attr("layout")
    x = nhwc_input(call, layout)
    h, w = permuted_type(x.type, nhwc_perm(layout)).get_shape()[1:3]
    return _pool(call, kind, [h, w], [1, 1], [0, 0, 0, 0])


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
    layout = call.call.attr("layout")
    x = nhwc_input(call, layout)
    perm = nhwc_perm(layout)
    h, w = permuted_type(x.type, perm).get_shape()[1:3]
    result = permuted_type(call.result_type, perm)
    out_h, out_w = result.get_shape()[1:3]
    if h % out_h == 0 and w % out_w == 0:
        window = [h // out_h, w // out_w]
        return _pool(call, kind, window, window, [0, 0, 0, 0])
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
