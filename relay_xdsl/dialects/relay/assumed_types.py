"""Assumed types for constants that type inference leaves unknown.

A Relay text printed without its ``#[metadata]`` section knows a constant
only as ``meta[relay.Constant][i]``, typed by whatever its uses determine.
TVM's relations determine neither of two kinds that its ONNX frontend
writes all through real models, so everything after them stays untyped:

* the weight of a grouped convolution (TVM needs it to tell a depthwise
  one): assumed ``(channels, C / groups, *kernel_size)``, as
  `backward.conv` with ``assume_grouped`` gives it;
* a constant operand of a broadcasting operator (``add``, ``multiply``,
  ...) whose other operand is typed, as ONNX biases and norm scales are
  (broadcasting admits many shapes): assumed per channel, the way ONNX
  exporters write them, ``(C, 1, ..., 1)`` against an ``N×C×...`` operand
  of rank 3 or more and ``(d,)`` against one whose last axis is ``d``
  otherwise, of the other operand's dtype; the call's result then has the
  other operand's type. Where the other operand is untyped too but the
  call's result is typed (the function's declared result), the other
  operand is assumed to have the result's type: a constant does not
  broadcast it up;
* the weight of an ``nn.dense`` without ``units`` (which TVM needs to type
  it), where the data and the result are typed: ``(units, K)`` from the
  result's last axis and the data's.

`assume_constant_types` assumes them a round at a time, solving types on
from each (one solver throughout: a deep chain of layers takes a round per
layer), until no unknown constant is left that a rule can type. Only
values chosen for such constants (``--random-constants``) can rely on the
assumption: real weights come with their own shapes.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, OpResult, SSAValue

from relay_xdsl.dialects.relay import backward
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.structure import ConstantOp
from relay_xdsl.dialects.relay.type_solver import infer_types

_GROUPED_WEIGHTS = {
    f"nn.conv{dims}d": backward.conv(spatial_axes(dims), transposed=False, assume_grouped=True)
    for dims in (1, 2, 3)
}
"""The weight relation of each convolution, typing a grouped one's weight too."""


def assume_constant_types(module: ModuleOp) -> None:
    """Type `module`'s untyped ``meta[relay.Constant][i]`` operands of grouped
    convolutions and broadcasting operators as assumed (see the module
    docstring), inferring the types that follow from them."""
    candidates = [
        op
        for op in module.walk()
        if isinstance(op, RegisteredOperatorOp)
        and len(op.args) == 2
        and any(_untyped_constant(arg, _type) for arg in op.args)
    ]
    if candidates:
        infer_types(module, strict=False, assume=lambda type_of: _assumptions(candidates, type_of))


def _type(value: SSAValue) -> Attribute:
    return value.type


def _assumptions(
    candidates: list[RegisteredOperatorOp], type_of: Callable[[SSAValue], Attribute]
) -> dict[SSAValue, Attribute]:
    """The type assumed for each untyped constant operand of `candidates` that
    a rule can type now, the types known being `type_of`'s."""
    assumed: dict[SSAValue, Attribute] = {}
    for op in candidates:
        unknown = [i for i, arg in enumerate(op.args) if _untyped_constant(arg, type_of)]
        if len(unknown) != 1:
            continue
        position = unknown[0]
        other_value = op.args[1 - position]
        other, result = type_of(other_value), type_of(op.results[0])
        broadcasting = op.OPERATOR.backward is backward.broadcast
        if broadcasting and not isinstance(other, TensorType) and isinstance(result, TensorType):
            assumed.setdefault(other_value, result)
            other = result
        if not isinstance(other, TensorType):
            continue
        type_: Attribute | None = None
        relation = _GROUPED_WEIGHTS.get(op.OPERATOR.name)
        if op.OPERATOR.name == "nn.dense" and position == 1 and isinstance(result, TensorType):
            units, reduced = result.get_shape()[-1], other.get_shape()[-1]
            type_ = TensorType(other.get_element_type(), (units, reduced))
        elif relation is not None and position == 1:
            call = Call(op.OPERATOR.schema, [type_of(a) for a in op.args], op.attributes)
            type_ = relation(call, None)[1]
        elif broadcasting:
            type_ = _per_channel(other)
        if isinstance(type_, TensorType):
            assumed.setdefault(op.args[position], type_)
    return assumed


def _untyped_constant(value: SSAValue, type_of: Callable[[SSAValue], Attribute]) -> bool:
    return (
        isinstance(value, OpResult)
        and isinstance(value.op, ConstantOp)
        and value.op.meta_index is not None
        and not isinstance(type_of(value), TensorType)
    )


def _per_channel(other: TensorType) -> TensorType | None:
    """A per-channel constant against `other`; None against a scalar."""
    shape = tuple(other.get_shape())
    if not shape:
        return None
    if len(shape) >= 3:
        return TensorType(other.get_element_type(), (shape[1],) + (1,) * (len(shape) - 2))
    return TensorType(other.get_element_type(), (shape[-1],))
