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

from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
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


Steps = list[tuple[Step, Operation | None]]

_VISIT, _BIND = Step.VISIT, Step.BIND
"""The steps of the walk's inner loops (naming an enum member is a Python call)."""


def schedule(
    block: Block,
    result: SSAValue,
    own_binding: Callable[[Operation], bool] | None,
    literal_key: Callable[[relay.FnOp], Region],
) -> Steps:
    """The steps printing `block`, whose terminator returns `result`, in TVM's order.

    `own_binding(op)` says whether `op` is bound on its own line where it
    stands (a Relax variable binding, see bindings.py): such an op is a
    sequencing point like a ``relay.let``; `None` where no op is. `literal_key(fn)` is the literal a
    ``relay.fn`` calls; ``relay.fn`` ops with one key share one literal.
    """
    walk = _Walk(block, literal_key)
    steps = walk.steps
    terminator = block.last_op
    for op in block.ops:
        if op is terminator:
            break
        if type(op) is relay.LetOp:
            source = let_expression(op)
            if source is not None:
                walk.visit(source)
            else:
                walk.value(op.value)
            walk.visited.add(id(op))
            walk.bound.add(id(op))
            steps.append((Step.STATEMENT, op))
        elif own_binding is not None and own_binding(op):
            walk.visit(op)
            walk.bound.add(id(op))
            steps.append((Step.BIND_VARIABLE, op))
        elif _unused(op):
            walk.visit(op)
            walk.bound.add(id(op))
            steps.append((Step.BIND, op))
    owner = result.owner
    if (
        isinstance(owner, Operation)
        and owner.parent is block
        and id(owner) not in walk.visited
        and result.has_one_use()
        and type(owner) not in _ATOMIC
        and not (own_binding is not None and own_binding(owner))
    ):
        walk.visit(owner)
        steps.append((Step.RESULT, owner))
    else:
        walk.value(result)
        steps.append((Step.RESULT, None))
    return steps


class _Walk:
    """TVM's DFS over one block; remembers what is visited and bound across
    roots, and appends the steps of each visit to `steps`."""

    def __init__(self, block: Block, literal_key: Callable[[relay.FnOp], Region]):
        self.block = block
        self.literal_key = literal_key
        # By id: hashing an op calls Python code, and this is the hot loop.
        self.visited: set[int] = set()
        self.bound: set[int] = set()
        self.steps: Steps = []
        # Each op's `local_inputs`, by id; the block's ops outlive the walk.
        self.input_ops: dict[int, list[Operation]] = {}

    def value(self, value: SSAValue) -> None:
        """Visit the op of `value` and bind it, unless it is atomic or bound."""
        owner = value.owner
        # A block argument's owner is a block, whose parent is a region.
        if owner.parent is not self.block:
            return
        if id(owner) not in self.visited:
            self.visit(owner)
        if id(owner) not in self.bound and type(owner) not in _ATOMIC:
            self.bound.add(id(owner))
            self.steps.append((Step.BIND, owner))

    def local_inputs(self, op: Operation) -> list[Operation]:
        """The ops of this block whose values `op` reads, in TVM's order (its
        operands, then the values its regions capture), repeats included."""
        inputs = self.input_ops.get(id(op))
        if inputs is None:
            block = self.block
            # An op's operands, read directly where they are all it reads.
            values = self.inputs(op) if op.regions or type(op) is relay.CallOp else op.operands
            # A block argument is not an op of the block; a result's op is read
            # as a field (its `owner` is a property, a Python call).
            inputs = self.input_ops[id(op)] = [
                owner
                for value in values
                if type(value) is OpResult and (owner := value.op).parent is block
            ]
        return inputs

    def inputs(self, op: Operation) -> Sequence[SSAValue]:
        """What `op` reads: its operands, then the values its regions capture."""
        if not op.regions or op.has_trait(IsolatedFromAbove):
            return _operands(op)
        inputs = list(_operands(op))
        seen = set(inputs)
        block = self.block
        for inner in walk_ops(op):
            if inner is op:
                continue
            for operand in inner.operands:
                if operand not in seen and operand.owner.parent is block:
                    seen.add(operand)
                    inputs.append(operand)
        return inputs

    def visit(self, root: Operation) -> None:
        """Post-order DFS from `root` (as ``ExpandDataflow``), with each visit's steps."""
        if self.ready(root):
            return
        visited, bound, steps = self.visited, self.bound, self.steps
        # Each op on the path from the root, with its inputs and the children it
        # has yet to visit.
        stack = [self.frame(root)]
        while stack:
            op, inputs, pending = stack[-1]
            for child in pending:
                if id(child) in visited:
                    continue
                if type(child) is Region:
                    visited.add(id(child))
                    fn = child.parent_op()
                    assert isinstance(fn, relay.FnOp)
                    steps.append((Step.LITERAL, fn))
                    continue
                child_op: Operation = child  # type: ignore[assignment]
                if type(child_op) in _ATOMIC and not child_op.operands:
                    visited.add(id(child_op))  # a leaf with nothing to bind
                    steps.append((_VISIT, child_op))
                else:
                    stack.append(self.frame(child_op))
                    break
            else:
                # Every child is visited: bind the inputs, and the literal, then render.
                stack.pop()
                visited.add(id(op))
                for owner in inputs:
                    if id(owner) not in bound and type(owner) not in _ATOMIC:
                        bound.add(id(owner))
                        steps.append((_BIND, owner))
                if type(op) is relay.FnOp:
                    key = self.literal_key(op)
                    if id(key) not in bound:
                        bound.add(id(key))
                        steps.append((Step.BIND_LITERAL, op))
                steps.append((_VISIT, op))

    def frame(
        self, op: Operation
    ) -> tuple[Operation, list[Operation], Iterator[Operation | Region]]:
        """`op`, its `local_inputs`, and what the DFS visits before it, in order:
        a ``relay.fn``'s literal (the callee, printed last, is visited first),
        then its inputs."""
        inputs = self.local_inputs(op)
        if type(op) is relay.FnOp:
            return op, inputs, iter([self.literal_key(op), *inputs])
        return op, inputs, iter(inputs)

    def ready(self, op: Operation) -> bool:
        """Append the steps of visiting `op` if every input is visited already
        or is an atom (as in A-normal form, where this is every op), without
        the walk, and say whether it did."""
        if op.regions:
            return False
        visited, bound = self.visited, self.bound
        inputs = self.local_inputs(op)
        atoms: list[Operation] = []
        for owner in inputs:
            if id(owner) not in visited:
                if type(owner) not in _ATOMIC or owner.operands:
                    for atom in atoms:  # undo: the walk visits them in its turn
                        visited.discard(id(atom))
                    return False
                visited.add(id(owner))  # the DFS's leaf, before its user
                atoms.append(owner)
        steps = self.steps
        steps.extend((_VISIT, atom) for atom in atoms)
        for owner in inputs:
            if id(owner) not in bound and type(owner) not in _ATOMIC:
                bound.add(id(owner))
                steps.append((_BIND, owner))
        visited.add(id(op))
        steps.append((_VISIT, op))
        return True


def _unused(op: Operation) -> bool:
    """Whether nothing uses a result of `op`."""
    for result in op.results:
        if result.first_use is not None:
            return False
    return True


def _operands(op: Operation) -> Sequence[SSAValue]:
    """`op`'s operands in the order TVM prints them: a call's arguments before its callee."""
    if type(op) is relay.CallOp:
        return (*op.args, op.callee)
    return op.operands


_ATOMIC: frozenset[type[Operation]] = frozenset(
    {
        relay.ConstantOp,
        relay.GlobalOp,
        relay.ConstructorRefOp,
        relay.OperatorRefOp,
        relay.LetOp,
    }
)
"""Ops printed where they are used (a constant, a global function, a constructor or an
operator as a value) or bound where they stand (a let); by exact class, looked up by hash."""
