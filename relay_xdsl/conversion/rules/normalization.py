"""Softmax and layer normalisation along one axis, in the operand's layout.

Each reduces along one axis with ``tosa.reduce_*``, which keeps the axis
with size one, so the reduced value broadcasts back against the operand
without a reshape; the operand stays in whatever layout it is held in.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor, permuted_type


def _shifted(call: RuleCall) -> tuple[Tensor, int, SSAValue]:
    """Argument 0, the physical position of ``axis``, and ``x - reduce_max(x)``
    along it (the shift that keeps ``exp`` from overflowing)."""
    x = call.tensor(0)
    axis = x.perm.index(int(call.call.attr("axis")) % x.rank)
    value = call.value(x, x.perm)
    peak = call.emit.reduce("max", value, axis)
    return x, axis, call.emit.op("sub", [value, peak], value.type)


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


@lowering("nn.layer_norm")
def layer_norm(call: RuleCall) -> Tensor:
    """``nn.layer_norm(x, gamma, beta)`` along ``axis``:
    ``(x - mean) * rsqrt(var + epsilon) * gamma + beta``, the mean and the
    (biased) variance taken along ``axis``; ``scale=False`` leaves out gamma,
    ``center=False`` beta."""
    x = call.tensor(0)
    logical_axis = int(call.call.attr("axis")) % x.rank
    axis = x.perm.index(logical_axis)
    emit, element = call.emit, x.element_type
    value = call.value(x, x.perm)
    physical = permuted_type(x.type, x.perm)
    inverse_count = emit.scalar(1 / x.shape[logical_axis], element, x.rank)
    mean = emit.reduce("sum", value, axis)
    mean = emit.mul(mean, inverse_count, mean.type)
    centered = emit.op("sub", [value, mean], physical)
    variance = emit.reduce("sum", emit.mul(centered, centered, physical), axis)
    variance = emit.mul(variance, inverse_count, variance.type)
    epsilon = emit.scalar(float(call.call.attr("epsilon")), element, x.rank)
    inverse_deviation = emit.op(
        "rsqrt", [emit.op("add", [variance, epsilon], variance.type)], variance.type
    )
    out = emit.mul(centered, inverse_deviation, physical)
    if call.call.attr("scale"):
        gamma = along_axis(call, call.tensor(1), x.rank, logical_axis, x.perm)
        out = emit.mul(out, gamma, physical)
    if call.call.attr("center"):
        beta = along_axis(call, call.tensor(2), x.rank, logical_axis, x.perm)
        out = emit.op("add", [out, beta], physical)
    return call.result(out, x.perm)
