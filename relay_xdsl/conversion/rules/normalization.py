"""Softmax and the normalisations, in the operand's layout.

Each reduces with ``tosa.reduce_*``, which keeps the axis with size one,
so the reduced value broadcasts back against the operand without a
reshape; the operand stays in whatever layout it is held in.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import Float16Type, TensorType, f32
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.tosa import numpy_dtype
from relay_xdsl.conversion.values import Tensor


def _shifted(call: RuleCall) -> tuple[Tensor, int, SSAValue]:
    """Argument 0, the physical position of ``axis``, and ``x - reduce_max(x)``
    along it (the shift that keeps ``exp`` from overflowing)."""
    x = call.tensor(0)
    axis = x.perm.index(int(call.call.attr("axis")) % x.rank)
    value = call.value(x, x.perm)
    return x, axis, call.emit.op("sub", [value, _maximum(call, value, axis)], value.type)


def _maximum(call: RuleCall, value: SSAValue, axis: int) -> SSAValue:
    """``reduce_max`` of `value` along physical `axis`, float16 taken in float32.

    The cast is exact both ways (the maximum is one of the elements). IREE
    raises ``x - reduce_max(x)`` along the innermost axis to its softmax op,
    whose float16 maximum becomes ``llvm.maxnum.f16``, a call of libm's
    ``fmaxf`` that IREE's CPU linker does not resolve.
    """
    type_ = value.type
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    if not isinstance(element, Float16Type):
        return call.emit.reduce("max", value, axis)
    peak = call.emit.reduce("max", call.emit.cast(value, f32), axis)
    return call.emit.cast(peak, element)


@lowering("nn.softmax")
def softmax(call: RuleCall) -> Tensor:
    """``nn.softmax``: ``exp(x - max) * reciprocal(sum(exp(x - max)))`` along ``axis``."""
    x, axis, shifted = _shifted(call)
    exp = call.emit.op("exp", [shifted], shifted.type)
    total = call.emit.reduce("sum", exp, axis)
    scale = call.emit.op("reciprocal", [total], total.type)
    return call.result(call.emit.mul(exp, scale, shifted.type), x.perm)


@lowering("nn.fast_softmax")
def fast_softmax(call: RuleCall) -> Tensor:
    """``nn.fast_softmax``: the softmax with the exact ``exp`` (TVM's approximates it)."""
    return softmax(call)


@lowering("nn.log_softmax")
def log_softmax(call: RuleCall) -> Tensor:
    """``nn.log_softmax``: ``(x - max) - log(sum(exp(x - max)))`` along ``axis``."""
    x, axis, shifted = _shifted(call)
    exp = call.emit.op("exp", [shifted], shifted.type)
    total = call.emit.reduce("sum", exp, axis)
    log = call.emit.op("log", [total], total.type)
    return call.result(call.emit.op("sub", [shifted, log], shifted.type), x.perm)


def along_axis(
    call: RuleCall, vector: Tensor, rank: int, axis: int, perm: tuple[int, ...]
) -> SSAValue:
    """A 1-D `vector` laid along logical `axis` of a rank-`rank` tensor held in
    layout `perm` (ones elsewhere), ready to broadcast against it."""
    shape = [1] * rank
    shape[axis] = vector.shape[0]
    type_ = TensorType(vector.element_type, shape)
    if vector.array is not None:
        expanded = Tensor(type_, array=vector.array.reshape(shape))
    else:
        expanded = Tensor(type_, call.emit.reshape(call.value(vector), shape))
    return aligned(call.lowering, expanded, rank, perm)


def _standardized(call: RuleCall, value: SSAValue, axes: list[int]) -> SSAValue:
    """``(x - mean) * rsqrt(var + epsilon)`` of `value`, the mean and the
    (biased) variance taken over its physical `axes`."""
    emit = call.emit
    type_ = value.type
    assert isinstance(type_, TensorType)
    element, rank = type_.get_element_type(), type_.get_num_dims()
    count = math.prod(type_.get_shape()[a] for a in axes)
    inverse_count = emit.scalar(1 / count, element, rank)

    def mean(of: SSAValue) -> SSAValue:
        for axis in axes:
            of = emit.reduce("sum", of, axis)
        return emit.mul(of, inverse_count, of.type)

    centered = emit.op("sub", [value, mean(value)], type_)
    variance = mean(emit.mul(centered, centered, type_))
    epsilon = emit.scalar(float(call.call.attr("epsilon")), element, rank)
    inverse_deviation = emit.op(
        "rsqrt", [emit.op("add", [variance, epsilon], variance.type)], variance.type
    )
    return emit.mul(centered, inverse_deviation, type_)


def _scaled_and_shifted(call: RuleCall, x: Tensor, out: SSAValue, axis: int) -> Tensor:
    """`out` (`x`'s type, in its layout) times gamma and plus beta (arguments 1
    and 2) laid along logical `axis`, as ``scale`` and ``center`` say."""
    emit = call.emit
    if call.call.attr("scale"):
        gamma = along_axis(call, call.tensor(1), x.rank, axis, x.perm)
        out = emit.mul(out, gamma, out.type)
    if call.call.attr("center"):
        beta = along_axis(call, call.tensor(2), x.rank, axis, x.perm)
        out = emit.op("add", [out, beta], out.type)
    return call.result(out, x.perm)


@lowering("nn.layer_norm")
def layer_norm(call: RuleCall) -> Tensor:
    """``nn.layer_norm(x, gamma, beta)`` along ``axis``:
    ``(x - mean) * rsqrt(var + epsilon) * gamma + beta``, the mean and the
    (biased) variance taken along ``axis``; ``scale=False`` leaves out gamma,
    ``center=False`` beta."""
    x = call.tensor(0)
    axis = int(call.call.attr("axis")) % x.rank
    out = _standardized(call, call.value(x, x.perm), [x.perm.index(axis)])
    return _scaled_and_shifted(call, x, out, axis)


@lowering("nn.instance_norm")
def instance_norm(call: RuleCall) -> Tensor:
    """``nn.instance_norm(x, gamma, beta)``: the layer norm's arithmetic over
    every axis but the batch (0) and ``axis``, gamma and beta along ``axis``."""
    x = call.tensor(0)
    axis = int(call.call.attr("axis")) % x.rank
    reduced = [i for i, p in enumerate(x.perm) if p not in (0, axis)]
    out = _standardized(call, call.value(x, x.perm), reduced)
    return _scaled_and_shifted(call, x, out, axis)


@lowering("nn.group_norm")
def group_norm(call: RuleCall) -> Tensor:
    """``nn.group_norm(x, gamma, beta)``: ``axis`` split into ``num_groups``
    groups of channels, each standardised over its channels and every axis
    after ``axis``; gamma and beta along ``axis``. The channel axis is split
    where the tensor holds it (a reshape, moving no data)."""
    x = call.tensor(0)
    axis = int(call.call.attr("axis")) % x.rank
    groups = int(call.call.attr("num_groups"))
    channels = x.shape[axis]
    if groups <= 0 or channels % groups:
        raise call.error(f"{channels} channels do not split into {groups} groups")
    value = call.value(x, x.perm)
    physical = [x.shape[p] for p in x.perm]
    at = x.perm.index(axis)
    split = physical[:at] + [groups, channels // groups] + physical[at + 1 :]
    reduced = [i + (i > at) for i, p in enumerate(x.perm) if p > axis] + [at + 1]
    out = _standardized(call, call.emit.reshape(value, split), sorted(reduced))
    return _scaled_and_shifted(call, x, call.emit.reshape(out, physical), axis)


@lowering("nn.lrn")
def lrn(call: RuleCall) -> Tensor:
    """``nn.lrn``: ``x * (bias + alpha / size * sum(x^2 over size neighbours)) ^ -beta``,
    the neighbours centred along ``axis`` (zeros past the ends): the squares
    padded by ``size // 2`` on both sides, then `size` slices added."""
    x = call.tensor(0)
    emit = call.emit
    size = int(call.call.attr("size"))
    alpha, beta, bias = (float(call.call.attr(name)) for name in ("alpha", "beta", "bias"))
    at = x.perm.index(int(call.call.attr("axis")) % x.rank)
    value = call.value(x, x.perm)
    type_ = value.type
    assert isinstance(type_, TensorType)
    shape = list(type_.get_shape())
    pads = [0] * (2 * x.rank)
    pads[2 * at] = pads[2 * at + 1] = size // 2
    squares = emit.pad(emit.mul(value, value, type_), pads)
    total: SSAValue | None = None
    for offset in range(size):
        begin = [0] * x.rank
        begin[at] = offset
        part = emit.slice(squares, begin, shape)
        total = part if total is None else emit.op("add", [total, part], type_)
    assert total is not None
    element = x.element_type
    base = emit.op(
        "add",
        [
            emit.mul(total, emit.scalar(alpha / size, element, x.rank), type_),
            emit.scalar(bias, element, x.rank),
        ],
        type_,
    )
    scale = emit.op("pow", [base, emit.scalar(-beta, element, x.rank)], type_)
    return call.result(emit.mul(value, scale, type_), x.perm)


@lowering("nn.l2_normalize")
def l2_normalize(call: RuleCall) -> Tensor:
    """``nn.l2_normalize``: ``x * rsqrt(max(sum(x^2 over axis), eps))``."""
    x = call.tensor(0)
    emit = call.emit
    value = call.value(x, x.perm)
    type_ = value.type
    total = emit.mul(value, value, type_)
    for axis in sorted({a % x.rank for a in call.call.ints("axis")}):
        total = emit.reduce("sum", total, x.perm.index(axis))
    eps = emit.scalar(float(call.call.attr("eps")), x.element_type, x.rank)
    bounded = emit.op("maximum", [total, eps], total.type)
    return call.result(emit.mul(value, emit.op("rsqrt", [bounded], total.type), type_), x.perm)


@lowering("nn.dropout")
def dropout(call: RuleCall) -> tuple[Tensor, Tensor]:
    """``nn.dropout`` at inference: the argument itself, and a mask of ones."""
    x = call.tensor(0)
    return x, Tensor(x.type, array=np.ones(x.shape, dtype=numpy_dtype(x.element_type)))
