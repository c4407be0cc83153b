"""A group's result padded where the group writes it, not copied by the groups that pad it.

A convolution pads its input with zeros: a depthwise one by linalg.py's
``zero_padded``, another by its ``tosa.conv2d`` 's ``pad``, which upstream
lowers to a ``tensor.pad`` (a fill, then a copy). Either is a pass that reads
the whole input, from memory where it is larger than the caches, and writes it
again, padded, before the convolution reads it. Where a lowered function's
group (a ``func.call`` of a private function) makes a tensor that only groups
padding it alike read, each so, and the padded tensor has at least
`PADDED_RESULT_ROWS` rows, `pad_where_made` has the making group return it
padded instead:

* the making group starts with the padded tensor's zero borders (a
  ``linalg.fill`` of each strip, inserted into a ``tensor.empty``) and ends with
  its result inserted inside them, which bufferization writes in place
  (``eliminate-empty-tensors``: the buffer of the group's last op becomes the
  inside of the padded one);
* the padding groups take the padded tensor and read it where it lies (a
  convolution's ``pad`` becomes zeros).

Inside one group too, a ``tosa.transpose`` whose result only a convolution
reads, padding it so (a CNN's NCHW image made NHWC for its stem), is inserted
inside the zero borders, which the convolution reads where they lie
(`_transposes_padded_where_made`).

The bits computed are the same; one pass over the tensor goes. A smaller
tensor stays padded by its reader, by blocks that stay in cache
(relay_xdsl/compiler/schedule.py, ``DEPTHWISE_CHANNEL_BLOCK_ROWS``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.conversion.linalg import zero_padding, zeros
from relay_xdsl.conversion.tosa import TosaBuilder, i64_array, operation_name

IN_PLACE = "relay_xdsl.in_place"
"""The attribute of the inserts that build a padded result (and of those of
Winograd's transformed windows, winograd.py). The schedule makes the inserts of
other functions copies, and leaves those of a function holding one inserts,
which bufferization writes in place."""
PADDED_RESULT_ROWS = 57
"""The fewest padded rows (NHWC's second axis) of a tensor padded where it is
made: mobilenet_v2's depthwise convolutions from 112 and 56 pixels. Their
inputs (1.2 to 4.8 MB) come from memory, and the copy that padded them took a
quarter of their time (from 112 pixels at stride 2, one thread: 0.43 to 0.31
ms a call). Those from 28 pixels and fewer are padded by blocks of 32 channels
that stay in L1 while the convolution reads them."""


def pad_where_made(function: func.FuncOp, groups: list[func.FuncOp]) -> None:
    """Have the groups that `function` calls return padded the results that
    only padding groups read (see the module docstring). `groups` are the
    private functions it calls; a group called more than once is copied for
    the call whose types change, and the copy appended to `groups`."""
    calls = [op for op in function.walk() if isinstance(op, func.CallOp)]
    own = _OwnGroups(groups, Counter(call.callee.root_reference.data for call in calls))
    for call in calls:
        maker = own.by_name.get(call.callee.root_reference.data)
        if maker is None or _inserts(maker):
            continue
        for result in call.results:
            readers = _padding_readers(result, own.by_name)
            if readers is None:
                continue
            padded_type, pads = readers[0][2]
            _return_padded(own.of(call), result.index, padded_type, pads)
            for reader_call, argument, _ in readers:
                reader = own.of(reader_call)
                padder = _padder(reader.body.block.args[argument])
                assert padder is not None
                padder.read(
                    Rewriter.replace_value_with_new_type(
                        reader.body.block.args[argument], padded_type
                    )
                )
                _retype(reader)
            Rewriter.replace_value_with_new_type(result, padded_type)
    for group in groups:
        _transposes_padded_where_made(group)


class _OwnGroups:
    """The groups by name, and for a call, a group it alone calls."""

    def __init__(self, groups: list[func.FuncOp], calls: Counter[str]):
        self.groups, self.calls = groups, calls
        self.by_name = {group.sym_name.data: group for group in groups}

    def of(self, call: func.CallOp) -> func.FuncOp:
        """The group `call` calls, copied first if others call it too."""
        name = call.callee.root_reference.data
        if self.calls[name] == 1:
            return self.by_name[name]
        copy = self.by_name[name].clone()
        base, number = re.sub(r"_[0-9]+$", "", name), len(self.groups)
        while f"{base}_{number}" in self.by_name:
            number += 1
        copy.sym_name = StringAttr(f"{base}_{number}")
        self.groups.append(copy)
        self.by_name[copy.sym_name.data] = copy
        self.calls[name] -= 1
        self.calls[copy.sym_name.data] = 1
        call.callee = SymbolRefAttr(copy.sym_name)
        return copy


def _padding_readers(
    result: SSAValue, by_name: dict[str, func.FuncOp]
) -> list[tuple[func.CallOp, int, tuple[TensorType, list[int]]]] | None:
    """The calls that read `result`, the argument each passes it as, and the
    padded type and the pads, where each call's group pads it alike, to at least
    `PADDED_RESULT_ROWS` rows, and nothing else reads it; else None."""
    readers: list[tuple[func.CallOp, int, tuple[TensorType, list[int]]]] = []
    for use in result.uses:
        reader = use.operation
        if not isinstance(reader, func.CallOp) or reader.callee.root_reference.data not in by_name:
            return None
        padder = _padder(by_name[reader.callee.root_reference.data].body.block.args[use.index])
        if padder is None:
            return None
        padding = (padder.padded, padder.pads)
        if readers and padding != readers[0][2]:
            return None
        readers.append((reader, use.index, padding))
    if not readers:
        return None
    shape = readers[0][2][0].get_shape()
    return readers if len(shape) == 4 and shape[1] >= PADDED_RESULT_ROWS else None


def _inserts(group: func.FuncOp) -> bool:
    """Whether `group` inserts a tensor into another (``tensor.insert_slice``, or
    ``tosa.concat``, which upstream lowers to inserts): the schedule would leave
    those inserts in a group that builds a padded result."""
    return any(operation_name(op) in ("tensor.insert_slice", "tosa.concat") for op in group.walk())


@dataclass(frozen=True)
class _Padder:
    """The op of a group that pads the group's argument: `zero_padded` 's, or a
    ``tosa.conv2d`` by its ``pad``; the padded type and the pads."""

    op: Operation
    padded: TensorType
    pads: list[int]

    def read(self, padded: SSAValue) -> None:
        """Have the group read `padded`, the argument padded already."""
        if isinstance(self.op, GenericOp):  # zero_padded's: it goes
            self.op.results[0].replace_all_uses_with(padded)
            _erase_with_empty_output(self.op)
            return
        self.op.operands = (padded, *self.op.operands[1:])
        self.op.attributes["pad"] = i64_array([0, 0, 0, 0])


def _padder(argument: SSAValue) -> _Padder | None:
    """What alone reads `argument`, where it pads it (`_Padder`)."""
    uses = list(argument.uses)
    if len(uses) != 1:
        return None
    reader = uses[0].operation
    pad = reader.attributes.get("pad")
    if operation_name(reader) == "tosa.conv2d" and uses[0].index == 0:
        if not isinstance(pad, DenseArrayBase) or not any(pad.get_values()):
            return None
        top, bottom, left, right = pad.get_values()
        data = argument.type
        assert isinstance(data, TensorType)
        n, h, w, c = data.get_shape()
        padded = TensorType(data.get_element_type(), [n, h + top + bottom, w + left + right, c])
        return _Padder(reader, padded, [0, 0, top, bottom, left, right, 0, 0])
    padder = reader.parent_op()
    found = zero_padding(padder) if padder is not None else None
    if padder is None or found is None or found[0] is not argument:
        return None
    assert isinstance(padder.results[0].type, TensorType)
    return _Padder(padder, padder.results[0].type, found[1])


def _return_padded(maker: func.FuncOp, index: int, padded: TensorType, pads: list[int]) -> None:
    """`maker` 's result `index` returned inside the zero borders of `padded`."""
    ret = maker.body.block.last_op
    assert isinstance(ret, func.ReturnOp)
    inside = _inside_zero_borders(ret.arguments[index], padded, pads, ret)
    ret.operands = (*ret.operands[:index], inside, *ret.operands[index + 1 :])
    _retype(maker)


def _inside_zero_borders(
    value: SSAValue, padded: TensorType, pads: list[int], anchor: Operation
) -> SSAValue:
    """`value` inserted, before `anchor`, inside the zero borders of `padded`, which
    its block starts with, so that bufferization may write `value` inside them."""
    block = anchor.parent_block()
    assert block is not None and isinstance(value.type, TensorType)
    borders = Block()
    outside = _zero_borders(TosaBuilder(borders), padded, pads)
    first = block.first_op
    assert first is not None
    for op in list(borders.ops):
        op.detach()
        block.insert_op_before(op, first)
    inside = tensor.InsertSliceOp.from_static_parameters(
        value, outside, pads[::2], value.type.get_shape()
    )
    inside.attributes[IN_PLACE] = UnitAttr()
    block.insert_op_before(inside, anchor)
    return inside.result


def _transposes_padded_where_made(group: func.FuncOp) -> None:
    """In `group`, each ``tosa.transpose`` (a CNN's NCHW input made NHWC) whose
    result only a convolution reads, padding it to at least `PADDED_RESULT_ROWS`
    rows, written inside the zero borders of the padded tensor, which the
    convolution then reads where it lies: the pass of the pad goes."""
    if _inserts(group):
        return
    for op in list(group.body.block.ops):
        padder = _padder(op.results[0]) if operation_name(op) == "tosa.transpose" else None
        if padder is None or padder.padded.get_shape()[1] < PADDED_RESULT_ROWS:
            continue
        padder.read(_inside_zero_borders(op.results[0], padder.padded, padder.pads, padder.op))


def _zero_borders(emit: TosaBuilder, padded: TensorType, pads: list[int]) -> SSAValue:
    """A tensor of `padded` 's type whose borders, by `pads`, are zeros, and whose
    inside is left to be written: for each padded axis, the strips before and after
    the inside, across the inside of the axes before it and all of those after."""
    whole = padded.get_shape()
    inside = [size - pads[2 * axis] - pads[2 * axis + 1] for axis, size in enumerate(whole)]
    empty = tensor.EmptyOp([], padded)
    emit.block.add_op(empty)
    result: SSAValue = empty.tensor
    for axis in range(len(whole)):
        before, after = pads[2 * axis], pads[2 * axis + 1]
        for offset, size in ((0, before), (before + inside[axis], after)):
            if not size:
                continue
            offsets = [pads[2 * a] if a < axis else 0 for a in range(len(whole))]
            sizes = [inside[a] if a < axis else whole[a] for a in range(len(whole))]
            offsets[axis], sizes[axis] = offset, size
            strip = zeros(emit, TensorType(padded.get_element_type(), sizes))
            insert = tensor.InsertSliceOp.from_static_parameters(strip, result, offsets, sizes)
            insert.attributes[IN_PLACE] = UnitAttr()
            emit.block.add_op(insert)
            result = insert.result
    return result


def _erase_with_empty_output(op: Operation) -> None:
    """Erase `op`, and the ``tensor.empty`` it wrote into where nothing else uses it."""
    outputs = [operand.owner for operand in op.operands]
    block = op.parent_block()
    assert block is not None
    block.erase_op(op)
    for output in outputs:
        if isinstance(output, tensor.EmptyOp) and not output.tensor.uses:
            block.erase_op(output)


def _retype(function: func.FuncOp) -> None:
    """`function` 's type, from its block's arguments and its return's operands."""
    block = function.body.block
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)
    function.function_type = FunctionType.from_lists(
        [arg.type for arg in block.args], [value.type for value in ret.arguments]
    )
