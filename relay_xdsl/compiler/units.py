"""A lowered module split into units, each compiled on its own into one object file.

The conversion makes each fused group a private function that the model's
function calls (``func.call``). `split_units` makes of them

* one unit of the model's function, its calls renamed, with a declaration of
  each group it calls whose arguments are ``bufferization.access = "read"``:
  bufferization then knows, without the group's body, that a call reads its
  operands and writes none of them, and copies nothing before it;
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
import re
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i1,
)
from xdsl.dialects.func import CallOp, FuncOp

from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.generic import module_text

DIGEST_LENGTH = 16
"""Hexadecimal digits of a group's digest in its symbol."""
ANONYMOUS = "group"
"""A group's symbol while its digest is taken, so that its old name is no part of it."""


@dataclass(frozen=True)
class Unit:
    """Source compiled on its own into one object file: `text`, generic MLIR (or C, as
    `language` says), defining the functions `defines`, which other units call."""

    text: str
    defines: tuple[str, ...]
    language: str = "mlir"


def split_units(module: ModuleOp, function: str, parts: int) -> list[Unit]:
    """`module` as units (see the module docstring): the model's function @`function`
    first, then its groups in at most `parts` units."""
    split = _entry_and_groups(module, function)
    if split is None:
        return [Unit(module_text(module), _defined(module))]
    entry, groups = split
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
    model = entry.clone()
    for call in model.walk():
        if isinstance(call, CallOp) and call.callee.root_reference.data in renamed:
            call.callee = SymbolRefAttr(renamed[call.callee.root_reference.data].sym_name)
    called = {call.callee.root_reference.data for call in model.walk() if isinstance(call, CallOp)}
    declarations = [_declaration(group) for symbol, group in by_symbol.items() if symbol in called]
    units = [Unit(module_text(ModuleOp([*declarations, model])), (function,))]
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


def with_argument_attribute(
    function: FuncOp, name: str, value: IntegerAttr | StringAttr
) -> ArrayAttr[DictionaryAttr]:
    """`function` 's argument attributes, each with `name` set to `value`."""
    count = len(function.function_type.inputs.data)
    old = (
        function.arg_attrs.data if function.arg_attrs is not None else (DictionaryAttr({}),) * count
    )
    return ArrayAttr(DictionaryAttr({**attrs.data, name: value}) for attrs in old)
