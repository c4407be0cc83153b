"""Operators that move data: reshapes, transposes, concatenation, stacking,
layout transforms; and ``shape_of``.

A reshape of a tensor held in another layout transposes it back to
Relay's order first, unless the layout moves only dimensions of size one
(an NHWC ``1×1×1×C`` is already in NCHW's order). A transpose composes
with the operand's layout into one ``tosa.transpose``. ``layout_transform``
is reshapes and transposes (and a ``tosa.pad`` where a block does not
divide its axis); ``shape_of`` is known when compiling.
"""

from __future__ import annotations

import math

import numpy as np

from relay_xdsl.conversion.layout import reshaped
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.tosa import numpy_dtype
from relay_xdsl.conversion.values import Tensor, permuted_type
from relay_xdsl.dialects.relay.layouts import LayoutError, parse_layout


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


@lowering("reshape_like")
def reshape_like(call: RuleCall) -> Tensor:
    """`x` reshaped to the result type (the shape of the second argument, or part of it)."""
    return _reshape(call)


@lowering("vm.reshape_tensor")
def reshape_tensor(call: RuleCall) -> Tensor:
    """`x` reshaped to ``newshape`` (the result type); the shape tensor holds the
    same values and is not read."""
    return _reshape(call)


@lowering("shape_of")
def shape_of(call: RuleCall) -> Tensor:
    """The static shape of `x`, known when compiling."""
    dtype = numpy_dtype(call.result_type.get_element_type())
    return Tensor(call.result_type, array=np.array(call.tensor(0).shape, dtype))


@lowering("vm.shape_of")
def vm_shape_of(call: RuleCall) -> Tensor:
    return shape_of(call)


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
    fields = _tensor_fields(call)
    rank = call.result_type.get_num_dims()
    perm = next((f.perm for f in fields if f.array is None), None)
    perm = perm or tuple(range(rank))
    axis = int(call.call.attr("axis")) % rank
    values = [call.lowering.materialize(f, perm) for f in fields]
    result = call.emit.concat(values, perm.index(axis), permuted_type(call.result_type, perm))
    return call.result(result, perm)


@lowering("stack")
def stack(call: RuleCall) -> Tensor:
    """The fields, each given a dimension of one at ``axis``, concatenated along it."""
    fields = _tensor_fields(call)
    rank = call.result_type.get_num_dims()
    axis = int(call.call.attr("axis")) % rank
    values = []
    for field in fields:
        shape = list(field.shape)
        shape.insert(axis, 1)
        values.append(reshaped(call.lowering, field, shape))
    return call.result(call.emit.concat(values, axis, call.result_type))


def _tensor_fields(call: RuleCall) -> list[Tensor]:
    (fields,) = call.args
    if not isinstance(fields, tuple) or not all(isinstance(f, Tensor) for f in fields):
        raise call.error("the argument is not a tuple of tensors")
    return list(fields)  # type: ignore[arg-type]


@lowering("layout_transform")
def layout_transform(call: RuleCall) -> Tensor:
    """`x` from ``src_layout`` to ``dst_layout``: each primal axis merged with its
    sub-axes (a transpose and a reshape), then split into the blocks of the
    destination (padded with zeros where a block does not divide its axis)."""
    x = call.tensor(0)
    emit = call.emit
    try:
        src = parse_layout(str(call.call.attr("src_layout")))
        dst = parse_layout(str(call.call.attr("dst_layout")))
    except LayoutError as error:
        raise call.error(str(error)) from None
    primal = [letter for letter, block in src if not block]
    if len(src) != x.rank or sorted(primal) != sorted(a for a, b in dst if not b):
        raise call.error("the layouts do not have the same primal axes as the data")
    order: list[int] = []
    merged: list[int] = []
    for letter in primal:
        outer = next(i for i, (a, b) in enumerate(src) if a == letter and not b)
        inner = [i for i, (a, b) in enumerate(src) if a == letter.lower() and b]
        order += [outer, *inner]
        merged.append(math.prod(x.shape[i] for i in (outer, *inner)))
    value = emit.reshape(emit.transpose(call.value(x), order), merged)
    blocks = {a.upper(): b for a, b in dst if b}
    pads: list[int] = []
    split: list[int] = []
    positions: dict[str, int] = {}
    for extent, letter in zip(merged, primal):
        block = blocks.get(letter)
        if block:
            padded = -(-extent // block) * block
            pads += [0, padded - extent]
            positions[letter], positions[letter.lower()] = len(split), len(split) + 1
            split += [padded // block, block]
        else:
            pads += [0, 0]
            positions[letter] = len(split)
            split.append(extent)
    value = emit.reshape(emit.pad(value, pads), split)
    return call.result(emit.transpose(value, [positions[a] for a, _ in dst]))
