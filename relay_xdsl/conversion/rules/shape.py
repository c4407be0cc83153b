"""Operators that move data: reshapes, transposes, concatenation.

A reshape of a tensor held in another layout transposes it back to
Relay's order first, unless the layout moves only dimensions of size one
(an NHWC ``1×1×1×C`` is already in NCHW's order). A transpose composes
with the operand's layout into one ``tosa.transpose``.
"""

from __future__ import annotations

from relay_xdsl.conversion.layout import reshaped
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor, permuted_type


def _reshape(call: RuleCall) -> Tensor:
    value = reshaped(call.lowering, call.tensor(0), call.result_type.get_shape())
    return call.result(value)


@lowering("reshape")
def reshape(call: RuleCall) -> Tensor:
    return _reshape(call)


@lowering("squeeze")
def squeeze(call: RuleCall) -> Tensor:
    return _reshape(call)


@lowering("expand_dims")
def expand_dims(call: RuleCall) -> Tensor:
    return _reshape(call)


@lowering("nn.batch_flatten")
def batch_flatten(call: RuleCall) -> Tensor:
    return _reshape(call)


@lowering("transpose")
def transpose(call: RuleCall) -> Tensor:
    x = call.tensor(0)
    axes = call.call.optional_ints("axes") or list(reversed(range(x.rank)))
    axes = [a % x.rank for a in axes]
    physical = x.in_layout.get(x.perm) if x.value is not None else None
    if physical is None:
        physical = call.value(x)
        return call.result(call.emit.transpose(physical, axes))
    return call.result(call.emit.transpose(physical, [x.perm.index(a) for a in axes]))


@lowering("concatenate")
def concatenate(call: RuleCall) -> Tensor:
    (fields,) = call.args
    if not isinstance(fields, tuple) or not all(isinstance(f, Tensor) for f in fields):
        raise call.error("the argument is not a tuple of tensors")
    rank = call.result_type.get_num_dims()
    perm = next((f.perm for f in fields if isinstance(f, Tensor) and f.array is None), None)
    perm = perm or tuple(range(rank))
    axis = int(call.call.attr("axis")) % rank
    values = [call.lowering.materialize(f, perm) for f in fields]  # type: ignore[arg-type]
    result = call.emit.concat(values, perm.index(axis), permuted_type(call.result_type, perm))
    return call.result(result, perm)
