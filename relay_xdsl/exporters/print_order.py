"""The order in which TVM v0.19's Relay printer writes a function body.

TVM's printer (``src/relay/printer/relay_text_printer.cc``) walks the body
from its result: a post-order depth-first search over the dataflow graph
(``ExpandDataflow``), a call's arguments left to right and then its callee,
each node visited once. Visiting a node prints it: it binds each of its
arguments that is not yet bound and not atomic to the next ``%N`` temp (the
literal of a called function after the arguments, as TVM prints the callee
last), then renders the node itself. A function literal's body is printed,
numbering its temps, when the DFS visits the literal, before the call's
arguments. Constants and variables are atomic: they print where they are used.
A ``let`` sequences the walk: TVM prints each bound value (its graph first,
then the ``let`` line) before the rest.

`schedule` turns one block into that sequence of steps, so that the printer
gives the text TVM would print for the same graph whatever order the block's
ops are in (a pass may leave a fused group's ops anywhere). What is not
reachable from the result (an op nothing uses, which TVM's graphs cannot hold)
is walked from where it stands, in block order, like a ``let``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import Enum, auto
from typing import cast

from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.bindings import let_expression
from relay_xdsl.support.depth import walk_ops


class Step(Enum):
    """What the printer does with the op of a step, in the order given."""

    LITERAL = auto()
    """Render the function literal of a ``relay.fn`` (its body's temps take
    their numbers now); the literal is keyed by `literal_key`."""
    VISIT = auto()
    """Render the op's expression: its operands are named by now."""
    BIND = auto()
    """Write the op's binding line (``%N = ...;``) from its rendered expression."""
    BIND_VARIABLE = auto()
    """Write the binding of an op bound on its own line where it stands (`own_binding`)."""
    BIND_LITERAL = auto()
    """Write the binding line of the op's function literal, ``%N = fn ...;``."""
    STATEMENT = auto()
    """Write a ``relay.let`` line (its expression, if any, is rendered)."""
    RESULT = auto()
    """Write the body's result: the rendered expression of the op (inline)
    or, for `None`, a reference to the returned value."""


Schedule = Iterator[tuple[Step, Operation | None]]


def schedule(
    block: Block,
    result: SSAValue,
    own_binding: Callable[[Operation], bool],
    literal_key: Callable[[relay.FnOp], Region],
) -> Schedule:
    """The steps printing `block`, whose terminator returns `result`, in TVM's order.

    `own_binding(op)` says whether `op` is bound on its own line where it
    stands (a Relax variable binding, see bindings.py): such an op is a
    sequencing point like a ``relay.let``. `literal_key(fn)` is the literal a
    ``relay.fn`` calls; ``relay.fn`` ops with one key share one literal.
    """
    walk = _Walk(block, literal_key)
    terminator = block.last_op
    for op in block.ops:
        if op is terminator:
            break
        if isinstance(op, relay.LetOp):
            source = let_expression(op)
            if source is not None:
                yield from walk.visit(source)
            else:
                yield from walk.value(op.value)
            walk.visited.add(id(op))
            walk.bound.add(id(op))
            yield Step.STATEMENT, op
        elif own_binding(op):
            steps = walk.ready(op)
            yield from walk.visit(op) if steps is None else steps
            walk.bound.add(id(op))
            yield Step.BIND_VARIABLE, op
        elif not any(r.uses for r in op.results):
            yield from walk.visit(op)
            walk.bound.add(id(op))
            yield Step.BIND, op
    owner = result.owner
    if (
        isinstance(owner, Operation)
        and owner.parent is block
        and id(owner) not in walk.visited
        and result.has_one_use()
        and type(owner) not in _ATOMIC
        and not own_binding(owner)
    ):
        yield from walk.visit(owner)
        yield Step.RESULT, owner
    else:
        yield from walk.value(result)
        yield Step.RESULT, None


class _Walk:
    """TVM's DFS over one block; remembers what is visited and bound across roots."""

    def __init__(self, block: Block, literal_key: Callable[[relay.FnOp], Region]):
        self.block = block
        self.literal_key = literal_key
        # By id: hashing an op calls Python code, and this is the hot loop.
        self.visited: set[int] = set()
        self.bound: set[int] = set()

    def local(self, value: SSAValue) -> Operation | None:
        owner = value.owner
        # A block argument's owner is a block, whose parent is a region.
        return owner if owner.parent is self.block else None

    def value(self, value: SSAValue) -> Schedule:
        """Visit the op of `value` and bind it, unless it is atomic or bound."""
        owner = self.local(value)
        if owner is None:
            return
        if id(owner) not in self.visited:
            yield from self.visit(owner)
        if self.needs_binding(owner):
            self.bound.add(id(owner))
            yield Step.BIND, owner

    def needs_binding(self, op: Operation) -> bool:
        return id(op) not in self.bound and type(op) not in _ATOMIC

    def inputs(self, op: Operation) -> Sequence[SSAValue]:
        """What `op` reads from this block: its operands, then the values its regions capture."""
        if not op.regions or op.has_trait(IsolatedFromAbove):
            return _operands(op)
        inputs = list(_operands(op))
        seen = set(inputs)
        for inner in walk_ops(op):
            if inner is op:
                continue
            for operand in inner.operands:
                if operand not in seen and self.local(operand) is not None:
                    seen.add(operand)
                    inputs.append(operand)
        return inputs

    def children(self, op: Operation) -> list[Operation | Region]:
        children: list[Operation | Region] = []
        if type(op) is relay.FnOp:
            children.append(self.literal_key(op))
        block = self.block
        for value in self.inputs(op):
            owner = value.owner
            if owner.parent is block:
                children.append(owner)
        return children

    def visit(self, root: Operation) -> Schedule:
        """Post-order DFS from `root` (as ``ExpandDataflow``), with each visit's steps."""
        visited = self.visited
        steps = self.ready(root)
        if steps is not None:
            yield from steps
            return
        stack: list[tuple[Operation | Region, bool]] = [(root, False)]
        while stack:
            node, expanded = stack[-1]
            if id(node) in visited:
                stack.pop()
            elif expanded:
                stack.pop()
                visited.add(id(node))
                yield from self.leaf(node)
            elif type(node) is Region:
                stack[-1] = (node, True)
            else:
                stack[-1] = (node, True)
                stack.extend(
                    (child, False)
                    for child in reversed(self.children(cast(Operation, node)))
                    if id(child) not in visited
                )

    def ready(self, op: Operation) -> list[tuple[Step, Operation | None]] | None:
        """The steps of visiting `op` if every input is visited already or is
        an atom (as in A-normal form, where this is every op), without the
        walk; else None."""
        if op.regions:
            return None
        block, visited, bound = self.block, self.visited, self.bound
        operands = _operands(op)
        steps: list[tuple[Step, Operation | None]] = []
        for value in operands:
            owner = value.owner
            if owner.parent is block and id(owner) not in visited:
                if type(owner) not in _ATOMIC or owner.operands:
                    for _, atom in steps:  # undo: the walk visits them in its turn
                        visited.discard(id(atom))
                    return None
                visited.add(id(owner))  # the DFS's leaf, before its user
                steps.append((Step.VISIT, owner))
        for value in operands:
            owner = value.owner
            if owner.parent is block and id(owner) not in bound and type(owner) not in _ATOMIC:
                bound.add(id(owner))
                steps.append((Step.BIND, owner))
        visited.add(id(op))
        steps.append((Step.VISIT, op))
        return steps

    def leaf(self, node: Operation | Region) -> Schedule:
        if type(node) is Region:
            fn = node.parent_op()
            assert isinstance(fn, relay.FnOp)
            yield Step.LITERAL, fn
            return
        op = cast(Operation, node)
        block, bound = self.block, self.bound
        for value in self.inputs(op):
            owner = value.owner
            if owner.parent is block and id(owner) not in bound and type(owner) not in _ATOMIC:
                bound.add(id(owner))
                yield Step.BIND, owner
        if type(op) is relay.FnOp:
            key = self.literal_key(op)
            if id(key) not in bound:
                bound.add(id(key))
                yield Step.BIND_LITERAL, op
        yield Step.VISIT, op


def _operands(op: Operation) -> Sequence[SSAValue]:
    """`op`'s operands in the order TVM prints them: a call's arguments before its callee."""
    if type(op) is relay.CallOp:
        return (*op.args, op.callee)
    return op.operands


_ATOMIC = (
    relay.ConstantOp,
    relay.GlobalOp,
    relay.ConstructorRefOp,
    relay.OperatorRefOp,
    relay.LetOp,
)
"""Ops printed where they are used (a constant, a global function, a constructor or an
operator as a value) or bound where they stand (a let)."""
