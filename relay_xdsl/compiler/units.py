"""A lowered module split into units, each compiled on its own into one object file.

The conversion makes each fused group a private function that the model's
function calls (``func.call``). `split_units` makes of them

* one unit of the model's function, its calls renamed, with a declaration of
  each group it calls whose arguments are ``bufferization.access = "read"``:
  bufferization then knows, without the group's body, that a call reads its
  operands and writes none of them, and copies nothing before it. A model's
  function that only calls groups (a transformer's, every op in a group) is
  given on buffers instead (`on_buffers`), memrefs where it had tensors, as
  bufferization would have made it: bufferization's analysis takes each
  result of a call of a body it cannot see as an alias of each operand, so
  that every value aliases every earlier one: seconds of analysis for a
  transformer's hundreds of calls (docs/compiler.md has the figures). There,
  a call of a group that only reshapes its argument (`reshapes_only`: attention's
  scores between its batch matmul and its softmax) is a view of the argument
  (``memref.reinterpret_cast``), not a call that copies it into a buffer of its
  own (vit_b_16: 24 copies of 1.8 MB a run). There too each buffer that a call
  returns is freed after its last use (`_free_after_last_use`), so that the next
  result of its size reuses it while it is in cache. Where
  there are groups, the ops of the model's function outside them (gpt2's
  reshapes and transposes of attention's heads after a split, which fusion
  leaves alone) are first made groups of their own (`outline_ops`), each set
  of ops that their values connect one group, so that the function only calls;
* `parts` units of groups, each group public, under a name that its content
  determines (``fused_nn_conv2d_3`` becomes ``fused_nn_conv2d_<digest>``),
  its arguments ``bufferization.writable = false`` as the model's are, so that
  it never writes into what it is given. A group's digest picks its unit, so
  that a group edited, added or removed changes that unit and the model's
  function's (which calls it by name) only, and the others' objects stay in
  the cache.

A unit holds several groups, not one, because each unit costs three processes
(mlir-opt, mlir-translate, clang), each about 30 ms of loading before any work:
one unit per group made resnet18's build take twice the CPU time.

A module that is not functions calling private functions with bodies (a group
that calls another, a global of some other kind) stays whole: one unit.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i1,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.generic import module_text
from relay_xdsl.conversion.tosa import operation_name

DIGEST_LENGTH = 16
"""Hexadecimal digits of a group's digest in its symbol."""
ANONYMOUS = "group"
"""A group's symbol while its digest is taken, so that its old name is no part of it."""


@dataclass(frozen=True)
class Unit:
    """Source compiled on its own into one object file: `text`, generic MLIR (or C, as
    `language` says), defining the functions `defines`, which other units call.

    `calls_only` marks a model's function of calls only, whose own code takes no time
    to run (it passes buffers along and frees them): clang compiles it at -O1
    (build.py, `CALLS_ONLY_FLAGS`), not -O3, which takes a third longer on its
    hundreds of live buffer descriptors. `frees_buffers` marks one that frees its
    buffers itself (`on_buffers`), whose pipeline runs no deallocation pass.
    """

    text: str
    defines: tuple[str, ...]
    language: str = "mlir"
    calls_only: bool = False
    frees_buffers: bool = False


def split_units(module: ModuleOp, function: str, parts: int) -> list[Unit]:
    """`module` as units (see the module docstring): the model's function @`function`
    first, then its groups in at most `parts` units."""
    split = _entry_and_groups(module, function)
    if split is None:
        return [Unit(module_text(module), _defined(module))]
    entry, groups = split
    model = entry.clone()
    if groups:  # else the model's function is the one unit, and stays so
        groups = {**groups, **outline_ops(model, set(groups))}
    renamed: dict[str, FuncOp] = {}
    by_symbol: dict[str, FuncOp] = {}
    buckets: dict[int, list[FuncOp]] = {}
    for name, group in groups.items():
        unit_function = _as_unit_function(group)
        unit_function.sym_name = StringAttr(ANONYMOUS)
        text = module_text(ModuleOp([unit_function])).encode()
        unit_function.detach()
        digest = hashlib.sha256(text).hexdigest()[:DIGEST_LENGTH]
        symbol = f"{re.sub(r'_[0-9]+$', '', name)}_{digest}"
        unit_function.sym_name = StringAttr(symbol)
        if symbol not in by_symbol:  # two groups alike but for their names are one
            by_symbol[symbol] = unit_function
            buckets.setdefault(int(digest, 16) % max(1, parts), []).append(unit_function)
        renamed[name] = by_symbol[symbol]
    for call in model.walk():
        if isinstance(call, CallOp) and call.callee.root_reference.data in renamed:
            call.callee = SymbolRefAttr(renamed[call.callee.root_reference.data].sym_name)
    called = {call.callee.root_reference.data for call in model.walk() if isinstance(call, CallOp)}
    declarations = [_declaration(group) for symbol, group in by_symbol.items() if symbol in called]
    views = {symbol for symbol, group in by_symbol.items() if reshapes_only(group)}
    buffered = on_buffers(model, declarations, views)
    entry_unit = buffered or [*declarations, model]
    frees = buffered is not None and any(
        isinstance(op, memref.DeallocOp) for op in buffered[-1].walk()
    )
    units = [
        Unit(
            module_text(ModuleOp(entry_unit)),
            (function,),
            calls_only=buffered is not None,
            frees_buffers=frees,
        )
    ]
    for _, members in sorted(buckets.items()):
        members.sort(key=lambda group: group.sym_name.data)
        defines = tuple(group.sym_name.data for group in members)
        units.append(Unit(module_text(ModuleOp(members)), defines))
    return units


def _entry_and_groups(module: ModuleOp, function: str) -> tuple[FuncOp, dict[str, FuncOp]] | None:
    """@`function` and the other functions by name, where the module splits: every
    top-level op a function with a body, only @`function` calling others."""
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
    if function not in functions:
        raise CompileError(f"the module has no function @{function}")
    entry = functions.pop(function)
    splits = len(functions) + 1 == len(module.ops) and not any(
        op.is_declaration or any(isinstance(inner, CallOp) for inner in op.walk())
        for op in functions.values()
    )
    return (entry, functions) if splits else None


def _defined(module: ModuleOp) -> tuple[str, ...]:
    return tuple(op.sym_name.data for op in module.ops if isinstance(op, FuncOp))


def _as_unit_function(group: FuncOp) -> FuncOp:
    """A copy of `group`, public, its arguments read-only."""
    copy = group.clone()
    copy.sym_visibility = None
    copy.arg_attrs = with_argument_attribute(copy, "bufferization.writable", IntegerAttr(0, i1))
    return copy


def _declaration(unit_function: FuncOp) -> FuncOp:
    """A private declaration of `unit_function`, its arguments only read."""
    inputs = unit_function.function_type.inputs.data
    outputs = unit_function.function_type.outputs.data
    declaration = FuncOp.external(unit_function.sym_name.data, inputs, outputs)
    declaration.arg_attrs = with_argument_attribute(
        declaration, "bufferization.access", StringAttr("read")
    )
    return declaration


def outline_ops(function: FuncOp, taken: set[str]) -> dict[str, FuncOp]:
    """Each set of `function` 's ops (but calls and its return) that their values connect,
    replaced in `function` by a call of a new private function of these ops: the new
    functions by name (``fused_<ops>_<n>``, as the conversion names its groups; none of
    the names `taken`).

    An op without operands (a constant shape) is copied into each set that uses it and
    connects none. A set whose call would have to come both before one of its outside
    users and after one of its operands' producers stays in place."""
    if len(function.body.blocks) != 1:
        return {}
    ops = list(function.body.block.ops)
    position = {op: index for index, op in enumerate(ops)}
    movable = [
        op
        for op in ops
        if not isinstance(op, CallOp | ReturnOp) and op.operands and _self_contained(op)
    ]
    leader: dict[Operation, Operation] = {op: op for op in movable}

    def root(op: Operation) -> Operation:
        while leader[op] is not op:
            op = leader[op]
        return op

    for op in movable:
        for operand in op.operands:
            producer = operand.owner
            if isinstance(producer, Operation) and producer in leader:
                leader[root(producer)] = root(op)
    sets: dict[Operation, list[Operation]] = {}
    for op in movable:
        sets.setdefault(root(op), []).append(op)
    outlined: dict[str, FuncOp] = {}
    for members in sets.values():
        name = "fused_" + "_".join(_short_name(op) for op in members)[:48]
        name = next(f"{name}_{n}" for n in itertools.count() if f"{name}_{n}" not in taken)
        group = _outlined_group(members, position, name)
        if group is not None:
            outlined[name] = group
            taken.add(name)
    for op in reversed(ops):  # constants that only the sets used
        unused = op.results and not any(result.uses for result in op.results)
        if unused and not op.operands and not isinstance(op, CallOp):
            function.body.block.erase_op(op)
    return outlined


def _outlined_group(
    members: list[Operation], position: dict[Operation, int], name: str
) -> FuncOp | None:
    """`members` (ops of one block, in order, at `position`) as the private function
    @`name`, replaced in their block by its call; None, and nothing changed, where no
    place suits the call."""
    inside = set(members)
    inputs: list[SSAValue] = []
    constants: list[Operation] = []
    for op in members:
        for operand in op.operands:
            producer = operand.owner
            if producer in inside or producer in constants or operand in inputs:
                continue
            if isinstance(producer, Operation) and not producer.operands and not producer.regions:
                constants.append(producer)
                continue
            inputs.append(operand)
    outputs = [
        result
        for op in members
        for result in op.results
        if any(use.operation not in inside for use in result.uses)
    ]
    first, last = position[members[0]], position[members[-1]]
    users = [
        position[use.operation]
        for result in outputs
        for use in result.uses
        if use.operation not in inside
    ]
    producers = [position[value.owner] for value in inputs if isinstance(value.owner, Operation)]
    if all(user > last for user in users):
        anchor = members[-1]
    elif all(producer < first for producer in producers):
        anchor = members[0]
    else:
        return None
    body = Block(arg_types=[value.type for value in inputs])
    values: dict[SSAValue, SSAValue] = dict(zip(inputs, body.args, strict=True))
    for op in [*sorted(constants, key=position.__getitem__), *members]:
        copy = op.clone(values)
        body.add_op(copy)
        values.update(zip(op.results, copy.results, strict=True))
    body.add_op(ReturnOp(*(values[value] for value in outputs)))
    group = FuncOp(
        name,
        ([value.type for value in inputs], [value.type for value in outputs]),
        Region(body),
        "private",
    )
    call = CallOp(name, inputs, [value.type for value in outputs])
    block = anchor.parent_block()
    assert block is not None
    block.insert_op_before(call, anchor)
    for value, result in zip(outputs, call.results, strict=True):
        value.replace_all_uses_with(result)
    for op in reversed(members):
        block.erase_op(op)
    return group


def _self_contained(op: Operation) -> bool:
    """Whether the ops in `op` 's regions use only values defined in `op`."""
    return all(
        op.is_ancestor(value.owner)
        for inner in op.walk()
        if inner is not op
        for value in inner.operands
    )


def _short_name(op: Operation) -> str:
    """`op` 's name without its dialect (``tosa.reshape``: ``reshape``)."""
    return operation_name(op).split(".")[-1]


def reshapes_only(group: FuncOp) -> bool:
    """Whether `group` returns its one argument reshaped (``tosa.reshape`` to a constant
    shape), and does nothing else."""
    if len(group.body.blocks) != 1 or len(group.args) != 1:
        return False
    *ops, last = group.body.block.ops
    reshapes = [op for op in ops if operation_name(op) != "tosa.const_shape"]
    return (
        len(reshapes) == 1
        and operation_name(reshapes[0]) == "tosa.reshape"
        and reshapes[0].operands[0] is group.args[0]
        and isinstance(last, ReturnOp)
        and list(last.operands) == list(reshapes[0].results)
    )


def on_buffers(
    model: FuncOp, declarations: Sequence[FuncOp], views: Collection[str] = ()
) -> list[FuncOp] | None:
    """The `declarations` and `model`, which calls them, with a memref of the same shape
    and element type in place of each tensor, and without the bufferization attributes
    (bufferization has nothing left to do); None unless `model` is one block of calls
    and a return on static tensors.

    A call of a group in `views` (`reshapes_only`) whose result `model` does not return
    is a ``memref.reinterpret_cast`` of its argument to the result's shape, contiguous
    as every buffer here is: a view, where the call copied the argument."""
    functions = [*declarations, model]
    types = [t for f in functions for t in (*f.function_type.inputs, *f.function_type.outputs)]
    ops = list(model.body.ops)
    if len(model.body.blocks) != 1 or not all(isinstance(op, CallOp | ReturnOp) for op in ops):
        return None
    if not all(isinstance(t, TensorType) and t.has_static_shape() for t in types):
        return None
    buffered = [_function_on_buffers(declaration) for declaration in declarations]
    result = _function_on_buffers(model)
    values: dict[SSAValue, SSAValue] = dict(zip(model.args, result.args, strict=True))
    returned = {value for op in ops if isinstance(op, ReturnOp) for value in op.operands}
    owner: dict[SSAValue, SSAValue] = {}  # a view's buffer: the call result it views
    for op in ops:
        operands = [values[operand] for operand in op.operands]
        if isinstance(op, CallOp):
            buffers = [_buffer(t) for t in op.result_types]
            if op.callee.root_reference.data in views and op.results[0] not in returned:
                new: Operation = _view(operands[0], buffers[0])
                owner[new.results[0]] = owner.get(operands[0], operands[0])
            else:
                new = CallOp(op.callee, operands, buffers)
            values.update(zip(op.results, new.results, strict=True))
            result.body.block.add_op(new)
        else:
            result.body.block.add_op(ReturnOp(*operands))
    _free_after_last_use(result, owner)
    called = {
        op.callee.root_reference.data for op in result.body.block.ops if isinstance(op, CallOp)
    }
    buffered = [declaration for declaration in buffered if declaration.sym_name.data in called]
    return [*buffered, result]


def _free_after_last_use(model: FuncOp, owner: dict[SSAValue, SSAValue]) -> None:
    """Free each buffer that a call in `model` returns right after the last use of any
    of the call's results (their views' included: `owner` maps a view to the call
    result it views), unless `model` returns it or a view of it, by a
    ``memref.dealloc``: the build runs no deallocation pass on such a function
    (``pipeline.without_deallocation``), which would free every buffer at the end.
    Freed early, a buffer serves a later result of its size (glibc's ``malloc``) while
    its lines are in cache (docs/compiler.md has the figures).

    A group that returns one tensor twice gives both results one buffer: of a call's
    several results, each is freed only where its pointer is none of those of the
    results returned or freed before it (`_frees`)."""
    block = model.body.block
    calls = [op for op in block.ops if isinstance(op, CallOp)]
    call_of = {result: call for call in calls for result in call.results}
    last: dict[CallOp, Operation] = {call: call for call in calls}
    returned: set[SSAValue] = set()
    for op in block.ops:
        for operand in op.operands:
            buffer = owner.get(operand, operand)
            if buffer not in call_of:
                continue
            if isinstance(op, ReturnOp):
                returned.add(buffer)
            else:
                last[call_of[buffer]] = op
    for call, anchor in last.items():
        for free in _frees(list(call.results), returned):
            block.insert_op_after(free, anchor)
            anchor = free


def _frees(results: list[SSAValue], returned: Collection[SSAValue]) -> list[Operation]:
    """The ops that free `results` (one call's) but those `returned`: each a
    ``memref.dealloc``, under an ``scf.if`` where another result (returned, or freed
    before it) may be the same buffer, its aligned pointer then the same."""
    if len(results) == 1:
        return [] if results[0] in returned else [memref.DeallocOp.get(results[0])]
    pointers = [memref.ExtractAlignedPointerAsIndexOp.get(result) for result in results]
    ops: list[Operation] = [*pointers]
    for index, result in enumerate(results):
        if result in returned:
            continue
        condition: Operation | None = None
        for other, pointer in enumerate(pointers):
            if other != index and (results[other] in returned or other < index):
                differs = arith.CmpiOp(pointers[index], pointer, "ne")
                ops.append(differs)
                condition = differs if condition is None else arith.AndIOp(condition, differs)
                if condition is not differs:
                    ops.append(condition)
        free = memref.DeallocOp.get(result)
        ops.append(free if condition is None else scf.IfOp(condition, [], [free, scf.YieldOp()]))
    return ops


def _view(buffer: SSAValue, shape: MemRefType[Attribute]) -> memref.ReinterpretCastOp:
    """`buffer` (contiguous) as a contiguous memref of type `shape`."""
    sizes = shape.get_shape()
    strides = [math.prod(sizes[index + 1 :]) for index in range(len(sizes))]
    return memref.ReinterpretCastOp(buffer, [], [], [], [0], sizes, strides, shape)


def _function_on_buffers(function: FuncOp) -> FuncOp:
    """`function` 's signature and attributes on memrefs, without bufferization's; a
    definition's body an empty block of its arguments, a declaration's none."""
    inputs = [_buffer(t) for t in function.function_type.inputs]
    outputs = [_buffer(t) for t in function.function_type.outputs]
    region = Region(Block(arg_types=inputs)) if not function.is_declaration else Region()
    result = FuncOp(function.sym_name.data, (inputs, outputs), region, function.sym_visibility)
    result.attributes.update(function.attributes)
    result.res_attrs = function.res_attrs
    kept = [
        {name: value for name, value in attrs.data.items() if not name.startswith("bufferization.")}
        for attrs in (function.arg_attrs.data if function.arg_attrs is not None else ())
    ]
    if any(kept):
        result.arg_attrs = ArrayAttr(DictionaryAttr(attrs) for attrs in kept)
    return result


def _buffer(tensor: Attribute) -> MemRefType[Attribute]:
    """The memref of `tensor` 's shape and element type (a static `TensorType`)."""
    assert isinstance(tensor, TensorType)
    return MemRefType(tensor.get_element_type(), tensor.get_shape())


def with_argument_attribute(
    function: FuncOp, name: str, value: IntegerAttr | StringAttr
) -> ArrayAttr[DictionaryAttr]:
    """`function` 's argument attributes, each with `name` set to `value`."""
    count = len(function.function_type.inputs.data)
    old = (
        function.arg_attrs.data if function.arg_attrs is not None else (DictionaryAttr({}),) * count
    )
    return ArrayAttr(DictionaryAttr({**attrs.data, name: value}) for attrs in old)
