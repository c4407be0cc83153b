"""Activations that TOSA spells as a few elementwise operators, in the operand's layout.

The constants are rank-matched tensors of ones' shape, which TOSA's
elementwise operators broadcast.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.normalization import along_axis
from relay_xdsl.conversion.values import Tensor


def _operand(call: RuleCall) -> tuple[Tensor, SSAValue]:
    x = call.tensor(0)
    return x, call.value(x, x.perm)


def _constant(call: RuleCall, x: Tensor, value: float) -> SSAValue:
    return call.emit.scalar(value, x.element_type, x.rank)


@lowering("relax.nn.gelu")
def gelu(call: RuleCall) -> Tensor:
    """``relax.nn.gelu``, the exact GELU: ``0.5 * x * (1 + erf(x / sqrt(2)))``."""
    x, value = _operand(call)
    emit, type_ = call.emit, value.type
    erf = emit.op("erf", [emit.mul(value, _constant(call, x, 1 / math.sqrt(2)), type_)], type_)
    cdf = emit.op("add", [erf, _constant(call, x, 1.0)], type_)
    half = emit.mul(value, _constant(call, x, 0.5), type_)
    return call.result(emit.mul(half, cdf, type_), x.perm)


@lowering("relax.nn.gelu_tanh")
def gelu_tanh(call: RuleCall) -> Tensor:
    """``relax.nn.gelu_tanh``: ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))``."""
    x, value = _operand(call)
    emit, type_ = call.emit, value.type
    cube = emit.mul(emit.mul(value, value, type_), value, type_)
    inner = emit.op("add", [value, emit.mul(cube, _constant(call, x, 0.044715), type_)], type_)
    inner = emit.mul(inner, _constant(call, x, math.sqrt(2 / math.pi)), type_)
    cdf = emit.op("add", [emit.op("tanh", [inner], type_), _constant(call, x, 1.0)], type_)
    half = emit.mul(value, _constant(call, x, 0.5), type_)
    return call.result(emit.mul(half, cdf, type_), x.perm)


@lowering("relax.nn.silu")
def silu(call: RuleCall) -> Tensor:
    """``relax.nn.silu``: ``x * sigmoid(x)``."""
    x, value = _operand(call)
    sigmoid = call.emit.op("sigmoid", [value], value.type)
    return call.result(call.emit.mul(value, sigmoid, value.type), x.perm)


def _negative_scaled(call: RuleCall, x: Tensor, value: SSAValue, scale: SSAValue) -> Tensor:
    """`value` where it is positive, else ``value * scale``."""
    emit, type_ = call.emit, value.type
    assert isinstance(type_, TensorType)
    positive = emit.op(
        "greater",
        [value, _constant(call, x, 0.0)],
        TensorType(IntegerType(1), type_.get_shape()),
    )
    return call.result(emit.select(positive, value, emit.mul(value, scale, type_), type_), x.perm)


@lowering("nn.leaky_relu")
def leaky_relu(call: RuleCall) -> Tensor:
    """``nn.leaky_relu``: ``x`` where ``x > 0``, else ``alpha * x``."""
    x, value = _operand(call)
    return _negative_scaled(call, x, value, _constant(call, x, float(call.call.attr("alpha"))))


@lowering("nn.prelu")
def prelu(call: RuleCall) -> Tensor:
    """``nn.prelu(x, alpha)``: ``x`` where ``x > 0``, else ``alpha * x``, the
    vector `alpha` laid along ``axis``."""
    x, value = _operand(call)
    axis = int(call.call.attr("axis")) % x.rank
    return _negative_scaled(call, x, value, along_axis(call, call.tensor(1), x.rank, axis, x.perm))
