"""Broadcasting to a shape, filling, and selecting: ``tosa.tile`` and ``tosa.select``.

TOSA's elementwise operators broadcast dimensions of size one themselves,
so a known operand whose elements are all equal enters the IR as a
constant of ones' shape rather than in full (the attention masks of a
transformer are such ``full_like`` tensors).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned, common_perm
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.tosa import numpy_dtype
from relay_xdsl.conversion.values import Tensor, identity, permuted_type


def compact(tensor: Tensor) -> Tensor:
    """`tensor`, or, when its known elements are all equal, one of them in ones' shape."""
    array = tensor.array
    if array is None or array.size <= 1 or not (array == array.flat[0]).all():
        return tensor
    shape = (1,) * tensor.rank
    return Tensor(
        TensorType(tensor.element_type, shape), array=array.reshape(-1)[:1].reshape(shape)
    )


def tiled(call: RuleCall, tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """`tensor` broadcast to `shape` (``tosa.tile`` of it at that rank), in its
    own layout when it already has that rank."""
    rank = len(shape)
    if tensor.shape == shape:
        return tensor
    type_ = TensorType(tensor.element_type, shape)
    if tensor.array is not None:
        return Tensor(type_, array=np.broadcast_to(tensor.array, shape))
    perm = tensor.perm if tensor.rank == rank else identity(rank)
    value = aligned(call.lowering, tensor, rank, perm)
    source = value.type.get_shape()  # type: ignore[attr-defined]
    multiples = [shape[p] // source[i] for i, p in enumerate(perm)]
    return Tensor(type_, call.emit.tile(value, multiples), perm)


@lowering("broadcast_to")
def broadcast_to(call: RuleCall) -> Tensor:
    """``broadcast_to(x)``: `x` repeated along its dimensions of size one (and
    new leading ones) up to the ``shape`` attribute."""
    return tiled(call, call.tensor(0), tuple(call.result_type.get_shape()))


@lowering("broadcast_to_like")
def broadcast_to_like(call: RuleCall) -> Tensor:
    """``broadcast_to_like(x, like)``: `x` broadcast to the shape of `like`."""
    return broadcast_to(call)


def _filled(call: RuleCall, fill: Tensor) -> Tensor:
    """The result type filled with the scalar `fill`."""
    type_ = call.result_type
    shape = tuple(type_.get_shape())
    if fill.array is not None:
        value = np.asarray(fill.array, dtype=numpy_dtype(type_.get_element_type()))
        return Tensor(type_, array=np.broadcast_to(value.reshape(()), shape))
    element = type_.get_element_type()
    scalar = call.emit.cast(call.value(fill), element)
    scalar = call.emit.reshape(scalar, (1,) * len(shape))
    return tiled(call, Tensor(TensorType(element, (1,) * len(shape)), scalar), shape)


@lowering("full")
def full(call: RuleCall) -> Tensor:
    """``full(fill_value)``: a tensor of the ``shape`` attribute filled with the scalar."""
    return _filled(call, call.tensor(0))


@lowering("full_like")
def full_like(call: RuleCall) -> Tensor:
    """``full_like(x, fill_value)``: a tensor of `x`'s type filled with the scalar;
    `x` is not read."""
    return _filled(call, call.tensor(1))


def truth(call: RuleCall, value: SSAValue) -> SSAValue:
    """`value` as booleans: ``value != 0`` (TOSA compares only i32 and floats)."""
    type_ = value.type
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    if isinstance(element, IntegerType):  # TOSA's cast to bool is ``!= 0``
        return call.emit.cast(value, IntegerType(1))
    boolean = TensorType(IntegerType(1), type_.get_shape())
    zero = call.emit.scalar(0, element, type_.get_num_dims())
    return call.emit.op("logical_not", [call.emit.op("equal", [value, zero], boolean)], boolean)


@lowering("where")
def where(call: RuleCall) -> Tensor:
    """``where(condition, x, y)``: `x` where ``condition != 0``, else `y`, all
    three broadcast to the result (``tosa.select`` on equal ranks)."""
    tensors = [compact(call.tensor(i)) for i in range(3)]
    rank = call.result_type.get_num_dims()
    perm = common_perm(tensors, rank)
    condition, x, y = (aligned(call.lowering, t, rank, perm) for t in tensors)
    result = call.emit.select(truth(call, condition), x, y, permuted_type(call.result_type, perm))
    return call.result(result, perm)
