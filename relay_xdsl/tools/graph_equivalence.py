"""Are two relay-dialect modules the same dataflow graph? (``relay-xdsl compare``)

Relay text can spell one graph many ways: nested calls
(``negative(negative(%x))``) or a temp per call (``%0 = negative(%x);
negative(%0)``), ``let`` bindings or none, independent calls in either order,
any variable names. Imported, they become the same ops and operands, apart
from ``relay.let`` variables, SSA names and the order of independent ops.

`graph_lines` writes a module in a form that keeps only the graph: each
function (by name) and each nested ``relay.fn`` body is listed from its
returned values down, operands before their users, left to right; values
are numbered in that order and parameters by position; a ``relay.let``
stands for the value it binds. Ops that nothing returned depends on follow,
in their order. Two modules are the same graph exactly when their lines are
equal: the same operators with the same attributes, types, constants and
function attributes, wired the same way.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, OpResult, SSAValue

from relay_xdsl.dialects.relay.bindings import LetOp, resolve_lets
from relay_xdsl.support.depth import walk_ops


def graph_lines(module: ModuleOp) -> list[str]:
    """`module` as lines that are equal for modules with the same dataflow graph."""
    lines: list[str] = []
    top = list(module.ops)
    functions = sorted((op for op in top if isinstance(op, FuncOp)), key=lambda f: f.sym_name.data)
    others = [op for op in top if not isinstance(op, FuncOp)]
    for op in [*functions, *others]:
        lines.extend(_GraphWriter().op_lines(op, ""))
    return lines


def graph_diff(expected: ModuleOp, actual: ModuleOp, names: tuple[str, str]) -> str:
    """A unified diff of the graphs of two modules; empty if they are the same graph."""
    return "".join(
        line + "\n"
        for line in difflib.unified_diff(
            graph_lines(expected), graph_lines(actual), *names, lineterm=""
        )
    )


class _GraphWriter:
    def __init__(self) -> None:
        self.labels: dict[SSAValue, str] = {}
        self.count = 0

    def op_lines(self, op: Operation, indent: str) -> list[str]:
        """`op` with its regions, once its operands have labels."""
        for result in op.results:
            suffix = f"#{result.index}" if len(op.results) > 1 else ""
            self.labels[result] = f"%{self.count}{suffix}"
        results = f"%{self.count} = " if op.results else ""
        self.count += 1 if op.results else 0
        operands = ", ".join(self.label(v) for v in op.operands)
        attributes = {**op.properties, **op.attributes}
        shown = ", ".join(f"{k} = {attributes[k]}" for k in sorted(attributes))
        types = ", ".join(str(r.type) for r in op.results)
        lines = [f"{indent}{results}{op.name}({operands}) {{{shown}}} : {types}"]
        for region in op.regions:
            for index, block in enumerate(region.blocks):
                lines.append(f"{indent}  ^{index}({self._arguments(block)}):")
                lines.extend(self.block_lines(block, indent + "    "))
        return lines

    def _arguments(self, block: Block) -> str:
        parts = []
        for argument in block.args:
            label = f"%arg{self.count}"
            self.count += 1
            self.labels[argument] = label
            parts.append(f"{label}: {argument.type}")
        return ", ".join(parts)

    def label(self, value: SSAValue) -> str:
        return self.labels.get(resolve_lets(value), "<outside>")

    def block_lines(self, block: Block, indent: str) -> list[str]:
        lines: list[str] = []
        emitted: set[Operation] = set()
        ops = [op for op in block.ops if not isinstance(op, LetOp)]
        for op in [*ops[-1:], *ops]:  # the terminator's graph first
            for needed in self._operands_first(op, block, emitted):
                lines.extend(self.op_lines(needed, indent))
        return lines

    def _operands_first(
        self, root: Operation, block: Block, emitted: set[Operation]
    ) -> Iterator[Operation]:
        """`root` and the ops of `block` it depends on, each after its operands."""
        if root in emitted:
            return
        stack: list[tuple[Operation, int]] = [(root, 0)]
        emitted.add(root)
        while stack:
            op, index = stack.pop()
            values = [*op.operands, *_captured(op)]
            if index < len(values):
                stack.append((op, index + 1))
                value = resolve_lets(values[index])
                if isinstance(value, OpResult):
                    owner = value.owner
                    if owner.parent is block and owner not in emitted:
                        emitted.add(owner)
                        stack.append((owner, 0))
                continue
            yield op


def _captured(op: Operation) -> list[SSAValue]:
    """Values of enclosing blocks that `op`'s regions use (none for relay.fn bodies)."""
    if not op.regions:
        return []
    inside = set(walk_ops(op))
    return [
        operand
        for nested in inside
        if nested is not op
        for operand in nested.operands
        if isinstance(operand, OpResult) and operand.owner not in inside
    ]
