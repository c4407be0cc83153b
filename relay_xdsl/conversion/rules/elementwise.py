"""Elementwise operators: one TOSA operator each, in the layout of their operand(s).

Unary operators keep their operand's layout. Broadcasting operators bring
their operands to the result's rank and to the layout of the first operand
computed at run time (:mod:`relay_xdsl.conversion.layout`).
"""

from __future__ import annotations

import math

import numpy as np

from relay_xdsl.conversion.layout import aligned, common_perm
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.tosa import numpy_dtype
from relay_xdsl.conversion.values import Tensor, permuted_type


def unary(call: RuleCall, tosa_name: str) -> Tensor:
    x = call.tensor(0)
    value = call.emit.op(
        tosa_name, [call.value(x, x.perm)], permuted_type(call.result_type, x.perm)
    )
    return call.result(value, x.perm)


def _clamp(call: RuleCall, low: float, high: float) -> Tensor:
    x = call.tensor(0)
    return call.result(call.emit.clamp(call.value(x, x.perm), low, high), x.perm)


def broadcast_operands(
    call: RuleCall, tensors: list[Tensor] | None = None
) -> tuple[list, tuple[int, ...]]:
    """The arguments (or `tensors` in their place) at the result's rank in one
    layout, and that layout."""
    if tensors is None:
        tensors = [call.tensor(i) for i in range(len(call.args))]
    rank = call.result_type.get_num_dims()
    perm = common_perm(tensors, rank)
    return [aligned(call.lowering, t, rank, perm) for t in tensors], perm


def binary(call: RuleCall, tosa_name: str) -> Tensor:
    values, perm = broadcast_operands(call)
    result = call.emit.op(tosa_name, values, permuted_type(call.result_type, perm))
    return call.result(result, perm)


@lowering("nn.relu")
def relu(call: RuleCall) -> Tensor:
    return _clamp(call, 0.0, math.inf)


@lowering("clip")
def clip(call: RuleCall) -> Tensor:
    return _clamp(call, float(call.call.attr("a_min")), float(call.call.attr("a_max")))


@lowering("sigmoid")
def sigmoid(call: RuleCall) -> Tensor:
    return unary(call, "sigmoid")


@lowering("exp")
def exp(call: RuleCall) -> Tensor:
    return unary(call, "exp")


@lowering("log")
def log(call: RuleCall) -> Tensor:
    return unary(call, "log")


@lowering("tanh")
def tanh(call: RuleCall) -> Tensor:
    return unary(call, "tanh")


@lowering("erf")
def erf(call: RuleCall) -> Tensor:
    return unary(call, "erf")


@lowering("rsqrt")
def rsqrt(call: RuleCall) -> Tensor:
    return unary(call, "rsqrt")


@lowering("sqrt")
def sqrt(call: RuleCall) -> Tensor:
    """``sqrt(x)`` as ``reciprocal(rsqrt(x))``: TOSA has no square root."""
    x = call.tensor(0)
    type_ = permuted_type(call.result_type, x.perm)
    root = call.emit.op("rsqrt", [call.value(x, x.perm)], type_)
    return call.result(call.emit.op("reciprocal", [root], type_), x.perm)


@lowering("abs")
def abs(call: RuleCall) -> Tensor:
    return unary(call, "abs")


@lowering("floor")
def floor(call: RuleCall) -> Tensor:
    return unary(call, "floor")


@lowering("ceil")
def ceil(call: RuleCall) -> Tensor:
    return unary(call, "ceil")


@lowering("cos")
def cos(call: RuleCall) -> Tensor:
    return unary(call, "cos")


@lowering("sin")
def sin(call: RuleCall) -> Tensor:
    return unary(call, "sin")


@lowering("logical_not")
def logical_not(call: RuleCall) -> Tensor:
    return unary(call, "logical_not")


@lowering("negative")
def negative(call: RuleCall) -> Tensor:
    """``tosa.negate``, whose zero points are zero."""
    x = call.tensor(0)
    zero = call.emit.zero_point(x.element_type)
    value = call.emit.op(
        "negate", [call.value(x, x.perm), zero, zero], permuted_type(call.result_type, x.perm)
    )
    return call.result(value, x.perm)


@lowering("copy")
def copy(call: RuleCall) -> Tensor:
    return call.tensor(0)


@lowering("zeros_like")
def zeros_like(call: RuleCall) -> Tensor:
    return _filled(call, 0)


@lowering("ones_like")
def ones_like(call: RuleCall) -> Tensor:
    return _filled(call, 1)


@lowering("zeros")
def zeros(call: RuleCall) -> Tensor:
    return _filled(call, 0)


@lowering("ones")
def ones(call: RuleCall) -> Tensor:
    return _filled(call, 1)


def _filled(call: RuleCall, value: float) -> Tensor:
    type_ = call.result_type
    array = np.full(type_.get_shape(), value, dtype=numpy_dtype(type_.get_element_type()))
    return Tensor(type_, array=array)


@lowering("add")
def add(call: RuleCall) -> Tensor:
    return binary(call, "add")


@lowering("subtract")
def subtract(call: RuleCall) -> Tensor:
    return binary(call, "sub")


@lowering("maximum")
def maximum(call: RuleCall) -> Tensor:
    return binary(call, "maximum")


@lowering("minimum")
def minimum(call: RuleCall) -> Tensor:
    return binary(call, "minimum")


@lowering("greater")
def greater(call: RuleCall) -> Tensor:
    return binary(call, "greater")


@lowering("greater_equal")
def greater_equal(call: RuleCall) -> Tensor:
    return binary(call, "greater_equal")


@lowering("logical_and")
def logical_and(call: RuleCall) -> Tensor:
    return binary(call, "logical_and")


@lowering("logical_or")
def logical_or(call: RuleCall) -> Tensor:
    return binary(call, "logical_or")


@lowering("multiply")
def multiply(call: RuleCall) -> Tensor:
    (a, b), perm = broadcast_operands(call)
    return call.result(call.emit.mul(a, b, permuted_type(call.result_type, perm)), perm)
