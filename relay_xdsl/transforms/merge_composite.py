"""relay-merge-composite: outline pattern matches into composite functions, TVM's ``MergeComposite``.

For each entry ``(name, pattern[, check])`` of a pattern table, first entry
first, and in each function, every match of `pattern` becomes a ``relay.fn``
called in place, with the Relay attributes ``PartitionedFromPattern`` then
``Composite = name``. The semantics are TVM v0.19's ``PartitionPattern``
(``src/relay/ir/dataflow_matcher.cc``):

* **Where matches are tried.** Candidate roots are visited in reverse
  post-order of the dataflow graph (outputs first, arguments left to right,
  the body of a called ``relay.fn`` before its arguments), so a match grows
  from the latest operation backwards and an optional tail (``relu``) is
  taken whenever present. Bodies of earlier composites
  (``PartitionedFromPattern``) are not searched; other ``relay.fn`` bodies
  are. Operations not reaching the function result (dead code, which Relay
  cannot express) are visited after the rest.
* **Which matches are kept.** An operation already in a match is never the
  root of another, and a match may not share an operation with an earlier
  one (constants excepted). A value computed inside a match other than its
  root may not be used outside the match: TVM only allows that when the
  match root post-dominates the outside use, and then computes those inner
  operations twice (see ``allow-shared-inner``). Since only the root
  leaves a match, outlining can never create a cycle.
* **Parameters.** Leaves of the pattern (``wildcard()``, ``is_var()``, the
  arguments of ``is_op(...)(None)``) become parameters, in the pattern's own
  post-order (not the program's), each distinct value once. A constant
  matched by ``is_constant()`` stays inside the composite; a constant
  matched by ``wildcard()`` becomes an argument. Parameters are named
  ``FunctionVar_<g>_<i>``: ``i`` counts the parameters of one match, ``g``
  counts the matches of one pattern in one function in visiting order
  (so the last match in program order is usually ``g = 0``), and a match
  that is then rejected still uses up its ``g``.
* **PartitionedFromPattern** lists the matched operators in post-order,
  each followed by ``_`` (``Tuple_``, ``TupleGetItem<i>_`` for tuples),
  e.g. ``nn.conv2d_add_nn.relu_``.
* **check.** A table entry's ``check(root_op)`` runs on the unmodified
  function once every match of the pattern is known; a match it refuses
  keeps its operations (they are not outlined, nor matched again by the
  same pattern).
* **Placement.** The ``relay.fn`` takes the root's place; the matched
  operations move into it in their original order. Nothing else moves, so
  ``relay-defuse`` gives back the input with each match's operations made
  contiguous just before its root: the same operations, values, names and
  SSA graph, and the same order whenever matches were contiguous. (Matches
  interleaved with unrelated operations, e.g. ``relay.constant`` between
  ``conv2d`` and ``add``, cannot be restored to the interleaved order since
  a call's arguments precede it.) The call takes over the root's uses, a
  ``relay.let`` binding it included, and its (cosmetic) name. A constant that ``is_constant()`` embeds but that is also used
  elsewhere is copied into the composite, since a ``relay.fn`` body cannot
  see outside values; after ``relay-defuse`` that copy remains.

Global functions with ``Compiler``, a nonzero ``Extern`` or a nonzero
``SkipOptimization`` attribute are left alone, as in TVM.

Options:

* ``table=NAME`` uses the built-in pattern table ``NAME`` (default
  ``conv2d-add-relu``); see ``relay_xdsl.transforms.patterns.BUILTIN_PATTERN_TABLES``.
  A table none of whose patterns match is a warning.
* ``patterns="module:attr"`` uses the table ``attr`` (a list of
  ``(name, pattern[, check])``, or a function returning one) of the
  Python module ``module``, importable or in the current directory:
  ``-p 'relay-merge-composite{patterns=my_patterns:TABLE}'``. Each of its
  patterns that matches nothing is a warning.
* ``allow-shared-inner=true`` follows TVM all the way: a match whose inner
  values are also used outside is outlined when its root post-dominates
  those uses, and the inner operations stay outside as well, duplicated
  into the composite. ``relay-defuse`` then no longer restores the input.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.transforms.dataflow import optimizable, post_dfs_order, post_dominators
from relay_xdsl.transforms.diagnostics import warn
from relay_xdsl.transforms.patterns import (
    CallPattern,
    Check,
    ConstantPattern,
    DFPattern,
    PatternMatcher,
    PatternTable,
    PatternTableError,
    TuplePattern,
    builtin_pattern_table,
    load_pattern_table,
    pattern_nodes,
)

DEFAULT_TABLE = "conv2d-add-relu"


# ---------------------------------------------------------------------------
# The dataflow order TVM visits
# ---------------------------------------------------------------------------


def _is_composite(op: Operation) -> bool:
    return isinstance(op, relay.FnOp) and "PartitionedFromPattern" in op.attributes


def block_post_dfs_order(block: Block, *, into_composites: bool = False) -> list[Operation]:
    """The operations of `block` in TVM's post-DFS order of its dataflow graph.

    Operands are visited left to right; a ``relay.fn``'s body comes before
    its arguments (TVM visits a call's callee first). Bodies of composites
    are skipped unless `into_composites`. Operations that do not reach the
    terminator are visited first, from each unused operation in block order.
    """
    terminator = block.last_op
    starts = [
        op
        for op in block.ops
        if op is not terminator and all(not result.uses for result in op.results)
    ]
    if terminator is not None:
        starts.append(terminator)

    def enter(op: Operation) -> list[Operation]:
        if isinstance(op, relay.FnOp) and (into_composites or not _is_composite(op)):
            return block_post_dfs_order(op.body.block, into_composites=into_composites)
        return []

    order = post_dfs_order(starts, set(block.ops), enter)
    if terminator is not None and order and order[-1] is terminator:
        order.pop()
    return order


# ---------------------------------------------------------------------------
# Grouping: TVM's PatternGrouper
# ---------------------------------------------------------------------------


@dataclass
class CompositeMatch:
    """One match of a pattern, to be outlined."""

    root: Operation
    number: int
    """``g`` in ``FunctionVar_<g>_<i>``."""
    inputs: list[SSAValue]
    """The composite's arguments, in parameter order."""
    ops: list[Operation]
    """The matched operations (embedded constants included), in block order; the root is last."""
    name: str
    """``PartitionedFromPattern``."""
    shared: set[Operation] = field(default_factory=set)
    """Matched operations that must also stay outside (``allow-shared-inner``)."""


def _label(op: Operation) -> str:
    """What TVM's MatchExtractor appends to ``PartitionedFromPattern`` for `op`."""
    if isinstance(op, relay.OperatorOp):
        return op.operator_name + "_"
    if isinstance(op, relay.TupleOp):
        return "Tuple_"
    if isinstance(op, relay.TupleGetItemOp):
        return f"TupleGetItem{op.index.value.data}_"
    if isinstance(op, relay.ConstantOp):
        return ""
    return "Call_"


def _callee_label(fn: relay.FnOp) -> str:
    """What the MatchExtractor appends for a called function literal, before its arguments."""
    body = block_post_dfs_order(fn.body.block, into_composites=True)
    labels = ["Function" + _label(op) if isinstance(op, relay.FnOp) else _label(op) for op in body]
    return "".join(labels) + "Function"


class _PostDominators:
    """The post-dominator tree of one block (dataflow.py), its operations as nodes."""

    def __init__(self, block: Block):
        ops = list(block.ops)
        self.index = {op: i for i, op in enumerate(ops)}
        index = self.index
        consumers = [
            [index[use.operation] for result in op.results for use in result.uses] for op in ops
        ]
        self.tree = post_dominators(consumers)

    def strictly_post_dominates(self, root: Operation, op: Operation) -> bool:
        return self.tree.strictly_post_dominates(self.index[root], self.index[op])


class PatternGrouper:
    """Finds the matches of one pattern in one function, as TVM's ``PatternGrouper``."""

    def __init__(self, pattern: DFPattern, *, allow_shared_inner: bool = False):
        self.pattern = pattern
        self.allow_shared_inner = allow_shared_inner
        self._nodes = pattern_nodes(pattern)
        self._matcher = PatternMatcher()
        self._assigned: dict[Operation, CompositeMatch] = {}
        self._positions: dict[Block, dict[Operation, int]] = {}
        self._post_dominators: dict[Block, _PostDominators] = {}
        self._next_number = 0

    def group(self, body: Block) -> list[CompositeMatch]:
        """The accepted matches in the function body `body`, in the order found."""
        order = block_post_dfs_order(body)
        matches: list[CompositeMatch] = []
        for op in reversed(order):
            if op in self._assigned or isinstance(op, relay.ConstantOp) or len(op.results) != 1:
                continue
            if self._matcher.match(self.pattern, op.results[0]):
                found = self._create(op)
                if found is not None:
                    matches.append(found)
        return matches

    def _create(self, root: Operation) -> CompositeMatch | None:
        memo = self._matcher.memo
        inputs: dict[SSAValue, None] = {}

        def make_input(value: object, pattern: DFPattern) -> None:
            if not isinstance(value, SSAValue):
                return  # an operator or function literal
            if isinstance(value.owner, relay.ConstantOp) and isinstance(pattern, ConstantPattern):
                return  # embedded in the composite
            inputs.setdefault(value)

        for node in self._nodes:
            matched = memo.get(node)
            if matched is None:
                continue
            if isinstance(node, CallPattern) and node.args is None:
                assert isinstance(matched, OpResult)
                for arg in matched.owner.operands:
                    make_input(arg, node)
            elif isinstance(node, TuplePattern) and node.fields is None:
                assert isinstance(matched, OpResult)
                for item in matched.owner.operands:
                    make_input(item, node)
            elif not node.children():
                make_input(matched, node)

        number = self._next_number
        self._next_number += 1

        ops, name = self._extract(root, inputs)
        if not ops or ops[-1] is not root:
            return None  # the root itself is a parameter: nothing to outline
        members = set(ops)
        shared: set[Operation] = set()
        for op in ops:
            if isinstance(op, relay.ConstantOp):
                continue
            if op in self._assigned:
                return None  # overlaps an earlier match
            if op is root:
                continue
            for result in op.results:
                for use in result.uses:
                    user = use.operation
                    if user in members:
                        continue
                    if not self.allow_shared_inner or not self._dominators(
                        root
                    ).strictly_post_dominates(root, user):
                        return None
                    shared.add(op)

        positions = self._block_positions(root)
        ordered = sorted(ops, key=positions.__getitem__)
        match = CompositeMatch(
            root, number, list(inputs), ordered, name, _operand_closure(shared, members)
        )
        for op in ops:
            if not isinstance(op, relay.ConstantOp):
                self._assigned[op] = match
        return match

    def _extract(
        self, root: Operation, inputs: dict[SSAValue, None]
    ) -> tuple[list[Operation], str]:
        """The matched operations in post-order, and their ``PartitionedFromPattern``."""
        ops: list[Operation] = []
        labels: list[str] = []
        seen: set[SSAValue] = set()

        def visit(value: SSAValue) -> None:
            if value in inputs or value in seen:
                return
            seen.add(value)
            owner = value.owner
            if isinstance(owner, Block):
                # A parameter the pattern did not capture: pass it in.
                inputs.setdefault(value)
                return
            if isinstance(owner, relay.FnOp):
                labels.append(_callee_label(owner))  # TVM visits the callee first
            for operand in owner.operands:
                visit(operand)
            ops.append(owner)
            labels.append(_label(owner))

        # Matches are as small as their patterns, so recursion depth is bounded.
        visit(root.results[0])
        return ops, "".join(labels)

    def _block_positions(self, op: Operation) -> dict[Operation, int]:
        block = op.parent_block()
        assert block is not None
        positions = self._positions.get(block)
        if positions is None:
            positions = {o: i for i, o in enumerate(block.ops)}
            self._positions[block] = positions
        return positions

    def _dominators(self, op: Operation) -> _PostDominators:
        block = op.parent_block()
        assert block is not None
        tree = self._post_dominators.get(block)
        if tree is None:
            tree = self._post_dominators[block] = _PostDominators(block)
        return tree


def _operand_closure(shared: set[Operation], members: set[Operation]) -> set[Operation]:
    """`shared` plus the matched operations they depend on (which must stay outside too)."""
    closure: set[Operation] = set()
    stack = list(shared)
    while stack:
        op = stack.pop()
        if op in closure:
            continue
        closure.add(op)
        for operand in op.operands:
            owner = operand.owner
            if isinstance(owner, Operation) and owner in members:
                stack.append(owner)
    return closure


# ---------------------------------------------------------------------------
# Rewriting
# ---------------------------------------------------------------------------


@dataclass
class OutlineCompositePattern(RewritePattern):
    """Replace the root of a match by a ``relay.fn`` holding the matched operations."""

    matches: dict[Operation, CompositeMatch]
    """Accepted matches by root; each is outlined once."""
    composite: str
    """The ``Composite`` attribute."""
    outlined: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """Root value → the call replacing it, for matches already outlined."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        match = self.matches.pop(op, None)
        if match is None:
            return
        root_value = op.results[0]
        # An argument may be the root of a match outlined before this one.
        inputs = [self.outlined.get(value, value) for value in match.inputs]
        block = Block(arg_types=[value.type for value in inputs])
        for index, param in enumerate(block.args):
            set_relay_name(param, f"FunctionVar_{match.number}_{index}")
        fn = relay.FnOp(
            inputs,
            root_value.type,
            Region(block),
            {
                "PartitionedFromPattern": StringAttr(match.name),
                "Composite": StringAttr(self.composite),
            },
        )
        rewriter.insert(fn, InsertPoint.before(op))

        members = set(match.ops)
        value_map: dict[SSAValue, SSAValue] = dict(zip(inputs, block.args))
        for member in match.ops:
            if member in match.shared or _used_outside(member, members):
                # Needed outside as well: the composite gets a copy.
                block.add_op(member.clone(value_mapper=value_map))
                continue
            member.detach()
            for index, operand in enumerate(member.operands):
                if operand in value_map:
                    member.operands[index] = value_map[operand]
            block.add_op(member)
        body_result = value_map.get(root_value, root_value)
        terminator = relay.ReturnOp(body_result)
        block.add_op(terminator)

        # The call takes over the root's uses and its name; inside, the result is anonymous.
        rewriter.replace_uses_with_if(
            root_value, fn.result, lambda use: use.operation is not terminator
        )
        if fn.result.name_hint is None:
            fn.result.name_hint = root_value.name_hint
        body_result.name_hint = None
        self.outlined[root_value] = fn.result


def _used_outside(op: Operation, members: set[Operation]) -> bool:
    return isinstance(op, relay.ConstantOp) and any(
        use.operation not in members for use in op.results[0].uses
    )


# ---------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------


def _functions(module: ModuleOp) -> Iterator[FuncOp]:
    for op in module.ops:
        if isinstance(op, FuncOp) and op.body.blocks and optimizable(op.attributes):
            yield op


def merge_composite(
    module: ModuleOp, table: PatternTable, *, allow_shared_inner: bool = False
) -> set[str]:
    """Apply TVM's MergeComposite with `table` to every optimizable function of `module`;
    the names of the table's entries that matched."""
    matched: set[str] = set()
    for func in _functions(module):
        for entry in table:
            name, pattern = entry[0], entry[1]
            check: Check | None = entry[2] if len(entry) == 3 else None
            grouper = PatternGrouper(pattern, allow_shared_inner=allow_shared_inner)
            found = grouper.group(func.body.block)
            # TVM runs the check on the unmodified function, so run them all first.
            accepted = {m.root: m for m in found if check is None or bool(check(m.root))}
            if not accepted:
                continue
            matched.add(name)
            PatternRewriteWalker(
                GreedyRewritePatternApplier(
                    [OutlineCompositePattern(accepted, name)], dce_enabled=False
                ),
                apply_recursively=False,
            ).rewrite_region(func.body)
    return matched


@dataclass(frozen=True)
class RelayMergeCompositePass(ModulePass):
    """Outline pattern-table matches into ``Composite`` functions (TVM's MergeComposite)."""

    name = "relay-merge-composite"

    table: str | None = None
    """A built-in pattern table (default ``conv2d-add-relu``)."""

    patterns: str | None = None
    """A user pattern table, ``module:attr``; excludes `table`."""

    allow_shared_inner: bool = False
    """Outline matches whose inner values are used outside, duplicating them (TVM's rule)."""

    def pattern_table(self) -> PatternTable:
        """The pattern table the options select."""
        if self.table is not None and self.patterns is not None:
            raise PatternTableError("give either table=NAME or patterns=module:attr, not both")
        if self.patterns is not None:
            return load_pattern_table(self.patterns)
        return builtin_pattern_table(self.table or DEFAULT_TABLE)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            table = self.pattern_table()
        except PatternTableError as error:
            raise PassFailedException(f"relay-merge-composite: {error}") from None
        matched = merge_composite(op, table, allow_shared_inner=self.allow_shared_inner)
        if self.patterns is not None:
            for name in dict.fromkeys(entry[0] for entry in table):
                if name not in matched:
                    warn(self.name, f"pattern '{name}' of {self.patterns} matches nothing")
        elif not matched:
            warn(self.name, f"no pattern of table {self.table or DEFAULT_TABLE} matches anything")
