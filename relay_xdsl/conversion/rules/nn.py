"""Convolutions, normalisation and dense products.

``nn.conv2d`` becomes ``tosa.conv2d`` (``groups == 1``),
``tosa.depthwise_conv2d`` (one group per input channel), or, for other
groups, one ``tosa.conv2d`` per group joined by ``tosa.concat`` (with
``prefer_linalg``, one ``linalg.generic`` over all groups instead); the
activation is held in NHWC and the weight is laid out as TOSA wants
(``OHWI``, or ``[KH, KW, C, M]`` for depthwise) when compiling.
``nn.batch_norm`` with known parameters is one multiply and one add by
per-channel constants computed when compiling. Dense products become
``tosa.matmul`` on rank-3 operands.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion import linalg
from relay_xdsl.conversion.layout import aligned
from relay_xdsl.conversion.lowering import SMALL_CONSTANT, RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.windows import exact_window, nhwc_input, nhwc_perm
from relay_xdsl.conversion.tosa import i64_array
from relay_xdsl.conversion.values import Tensor, permuted_type

_KERNEL_TO_OHWI = {
    "OIHW": (0, 2, 3, 1),
    "HWIO": (3, 0, 1, 2),
    "HWOI": (2, 0, 1, 3),
    "OHWI": (0, 1, 2, 3),
}
"""Where each kernel layout's dimensions are in TOSA's ``OHWI``."""


@lowering("nn.conv2d")
def conv2d(call: RuleCall) -> Tensor:
    layout = call.call.attr("data_layout")
    kernel_layout = call.call.attr("kernel_layout")
    out_layout = call.call.attr("out_layout") or layout
    x, w = nhwc_input(call, layout), call.tensor(1)
    if kernel_layout not in _KERNEL_TO_OHWI or out_layout != layout:
        raise call.error(
            f"kernel layout {kernel_layout}, out layout {out_layout} are not supported"
        )
    perm = nhwc_perm(layout)
    ohwi = _KERNEL_TO_OHWI[kernel_layout]
    result_nhwc = permuted_type(call.result_type, perm)
    n, out_h, out_w, out_c = result_nhwc.get_shape()
    in_c = permuted_type(x.type, perm).get_shape()[3]
    weight_ohwi = permuted_type(w.type, ohwi)
    kh, kw = weight_ohwi.get_shape()[1:3]
    groups = int(call.call.attr("groups"))
    strides, dilation = call.call.ints("strides"), call.call.ints("dilation")
    data, pads = exact_window(
        call,
        call.value(x, perm),
        call.call.ints("padding"),
        (kh, kw),
        strides,
        dilation,
        (out_h, out_w),
    )
    emit = call.emit
    element = call.result_type.get_element_type()
    attributes = {
        "acc_type": element,
        "dilation": i64_array(dilation),
        "pad": i64_array(pads),
        "stride": i64_array(strides),
    }
    zero = emit.zero_point(element)

    def convolve(data: SSAValue, weight: SSAValue, channels: int, name: str = "conv2d") -> SSAValue:
        bias = emit.splat(0, element, [channels])
        result = TensorType(element, [n, out_h, out_w, channels])
        return emit.op(name, [data, weight, bias, zero, zero], result, attributes)

    if groups == 1:
        return call.result(convolve(data, _ohwi_weight(call, w, ohwi), out_c), perm)
    if groups == in_c and weight_ohwi.get_shape()[3] == 1:
        multiplier = out_c // in_c
        # [KH, KW, C, M]: the OIHW weight (C*M, 1, KH, KW) seen as (C, M, KH, KW), then permuted
        hwcm = _reshaped_known(call, w, ohwi, (in_c, multiplier, kh, kw))
        weight = call.lowering.materialize(hwcm, (2, 3, 0, 1))
        return call.result(convolve(data, weight, out_c, "depthwise_conv2d"), perm)
    if call.prefer_linalg:
        # [G, KH, KW, C/G, O/G]: the OIHW weight (G*O/G, C/G, KH, KW) seen as (G, O/G, C/G, KH, KW)
        per_group = _reshaped_known(
            call, w, ohwi, (groups, out_c // groups, in_c // groups, kh, kw)
        )
        weight = call.lowering.materialize(per_group, (0, 3, 4, 2, 1))
        padded = emit.pad(data, [0, 0, *pads, 0, 0])
        return call.result(
            linalg.grouped_conv2d(emit, padded, weight, strides, dilation, result_nhwc), perm
        )
    grouped = _grouped(call, data, call.value(w, ohwi), groups, convolve, result_nhwc)
    return call.result(grouped, perm)


def _ohwi_weight(call: RuleCall, w: Tensor, ohwi: tuple[int, ...]) -> SSAValue:
    """The weight in TOSA's OHWI.

    A weight passed as an argument is passed HWIO and transposed to OHWI in
    the IR: the compiled schedule reads HWIO, so the two transposes cancel
    when compiling, where an OHWI argument is transposed on every call."""
    if w.array is not None and call.lowering.weights_as_arguments and w.array.size > SMALL_CONSTANT:
        hwio = (ohwi[1], ohwi[2], ohwi[3], ohwi[0])
        return call.emit.transpose(call.value(w, hwio), (3, 0, 1, 2))
    return call.value(w, ohwi)


def _reshaped_known(
    call: RuleCall, w: Tensor, ohwi: tuple[int, ...], shape: tuple[int, ...]
) -> Tensor:
    """The weight `w` in OIHW order of dimensions, reshaped to `shape`."""
    to_oihw = tuple(ohwi[i] for i in (0, 3, 1, 2))
    type_ = TensorType(w.element_type, shape)
    if w.array is not None:
        return Tensor(type_, array=np.ascontiguousarray(w.array.transpose(to_oihw)).reshape(shape))
    return Tensor(type_, call.emit.reshape(call.value(w, to_oihw), shape))


def _grouped(
    call: RuleCall,
    data: SSAValue,
    weight: SSAValue,
    groups: int,
    convolve: Callable[[SSAValue, SSAValue, int], SSAValue],
    result_nhwc: TensorType,
) -> SSAValue:
    """A grouped convolution as one convolution per group, concatenated on channels."""
    n, h, w, _ = data.type.get_shape()  # type: ignore[attr-defined]
    o, kh, kw, i = weight.type.get_shape()  # type: ignore[attr-defined]
    per_group_out = o // groups
    parts = []
    for g in range(groups):
        part = call.emit.slice(data, [0, 0, 0, g * i], [n, h, w, i])
        kernel = call.emit.slice(weight, [g * per_group_out, 0, 0, 0], [per_group_out, kh, kw, i])
        parts.append(convolve(part, kernel, per_group_out))
    return call.emit.concat(parts, 3, result_nhwc)


@lowering("nn.batch_norm")
def batch_norm(call: RuleCall) -> tuple[Tensor, Tensor, Tensor]:
    """``(x - mean) / sqrt(var + eps) * gamma + beta`` as ``x * scale + shift``, with
    `scale` and `shift` computed when compiling; the mean and variance pass through."""
    x = call.tensor(0)
    arrays = [call.known(i) for i in range(1, 5)]
    if any(a is None for a in arrays):
        raise call.error("parameters computed at run time; run relay-simplify-inference first")
    gamma, beta, mean, var = (a for a in arrays if a is not None)
    axis = int(call.call.attr("axis")) % x.rank
    scale = 1 / np.sqrt(var + float(call.call.attr("epsilon")))
    if call.call.attr("scale"):
        scale = scale * gamma
    shift = -mean * scale
    if call.call.attr("center"):
        shift = shift + beta
    shape = [1] * x.rank
    shape[axis] = x.shape[axis]
    type_ = TensorType(x.element_type, shape)
    scale_t, shift_t = (
        Tensor(type_, array=a.astype(gamma.dtype).reshape(shape)) for a in (scale, shift)
    )
    emit, perm = call.emit, x.perm
    physical = permuted_type(x.type, perm)
    scaled = emit.mul(call.value(x, perm), aligned(call.lowering, scale_t, x.rank, perm), physical)
    out = emit.op("add", [scaled, aligned(call.lowering, shift_t, x.rank, perm)], physical)
    return Tensor(x.type, out, perm), call.tensor(3), call.tensor(4)


@lowering("nn.bias_add")
def bias_add(call: RuleCall) -> Tensor:
    x, bias = call.tensor(0), call.tensor(1)
    axis = int(call.call.attr("axis")) % x.rank
    shape = [1] * x.rank
    shape[axis] = bias.shape[0]
    type_ = TensorType(bias.element_type, shape)
    if bias.array is not None:
        expanded = Tensor(type_, array=bias.array.reshape(shape))
    else:
        expanded = Tensor(type_, call.emit.reshape(call.value(bias), shape))
    perm = x.perm
    out = call.emit.op(
        "add",
        [call.value(x, perm), aligned(call.lowering, expanded, x.rank, perm)],
        permuted_type(call.result_type, perm),
    )
    return call.result(out, perm)


def matmul3(call: RuleCall, a: SSAValue, b: SSAValue) -> SSAValue:
    """``tosa.matmul`` of (B, M, K) and (B, K, N)."""
    batch, m, _ = a.type.get_shape()  # type: ignore[attr-defined]
    n = b.type.get_shape()[2]  # type: ignore[attr-defined]
    element = call.result_type.get_element_type()
    zero = call.emit.zero_point(element)
    return call.emit.op("matmul", [a, b, zero, zero], TensorType(element, [batch, m, n]))


def _as_matrix(
    call: RuleCall, t: Tensor, transpose: bool, batch_shape: tuple[int, ...]
) -> SSAValue:
    """`t` (..., R, C) as a rank-3 (B, R, C) operand, transposed to (B, C, R) if asked."""
    rank = t.rank
    perm = tuple(range(rank - 2)) + ((rank - 1, rank - 2) if transpose else (rank - 2, rank - 1))
    rows, cols = (t.shape[-1], t.shape[-2]) if transpose else (t.shape[-2], t.shape[-1])
    batch = math.prod(batch_shape)
    shape = (batch, rows, cols)
    if t.array is not None:
        array = np.ascontiguousarray(t.array.transpose(perm)).reshape(shape)
        return call.lowering.materialize(Tensor(TensorType(t.element_type, shape), array=array))
    return call.emit.reshape(call.value(t, perm), shape)


def _product(call: RuleCall, a: Tensor, b: Tensor, transpose_a: bool, transpose_b: bool) -> Tensor:
    """``a @ b`` (numpy's matmul; a rank-2 `b` is shared by every row of `a`)."""
    if a.rank < 2 or b.rank < 2:
        raise call.error("products of vectors are not supported")
    if b.rank == 2 and not transpose_a:
        # every batch and row of `a` against one matrix: one (1, rows, K) product
        rows = math.prod(a.shape[:-1])
        k = a.shape[-1]
        left = call.emit.reshape(call.value(a), (1, rows, k))
        right = _as_matrix(call, b, transpose_b, (1,))
    else:
        batch = a.shape[:-2]
        if b.shape[:-2] != batch:
            raise call.error(f"batch shapes {a.shape[:-2]} and {b.shape[:-2]} differ")
        left = _as_matrix(call, a, transpose_a, batch)
        right = _as_matrix(call, b, transpose_b, batch)
    product = matmul3(call, left, right)
    return call.result(call.emit.reshape(product, call.result_type.get_shape()))


@lowering("nn.matmul", "relax.matmul")
def matmul(call: RuleCall) -> Tensor:
    """``relax.matmul`` and ``nn.matmul``: ``a @ b`` (with ``transpose_a``/``transpose_b``)."""
    return _product(
        call,
        call.tensor(0),
        call.tensor(1),
        bool(call.call.attr("transpose_a")),
        bool(call.call.attr("transpose_b")),
    )


@lowering("nn.dense")
def dense(call: RuleCall) -> Tensor:
    """``nn.dense``: ``x @ w.T``."""
    return _product(call, call.tensor(0), call.tensor(1), False, True)


@lowering("nn.batch_matmul")
def batch_matmul(call: RuleCall) -> Tensor:
    """``nn.batch_matmul``: ``x @ y.T`` by default (``transpose_b=True``)."""
    return _product(
        call,
        call.tensor(0),
        call.tensor(1),
        bool(call.call.attr("transpose_a")),
        bool(call.call.attr("transpose_b")),
    )
