"""relay-fuse-ops: group operators into primitive functions, TVM's ``FuseOps``.

The grouping is TVM v0.19's (``src/relay/transforms/fuse_ops.cc`` and
``src/relay/analysis/graph_partitioner.cc``), applied to every function body
that TVM would optimise: each ``func.func`` without ``Compiler``, a nonzero
``Extern``, ``SkipOptimization`` or ``Primitive``, and inside those every
``relay.fn`` without ``Primitive`` or ``Compiler`` (already-fused and
partitioned functions are left alone).

For one body:

1. **Graph.** Nodes are the body's operations (``relay.let`` excepted) in
   TVM's post-DFS order (dataflow.py): let values first, in binding order,
   then the returned value, visiting operands left to right. Let values are
   what a ``relay.let`` binds and, in a Relax binding block, every value
   bound to a variable; in a Relax dataflow block the values bound to
   dataflow variables are plain graph nodes (see bindings.py), and a
   ``relay.let`` there (an output, an alias, a bound tuple or constant) only
   makes its operand external. Each node has a pattern:
   an operator's ``pattern`` (``OPAQUE`` for ``relay.op`` and for a dynamic
   result of an operator whose shape depends on data), ``ELEMWISE`` for a
   rank-0 constant of int32/int64/float32/float64/bool, ``TUPLE`` for
   ``relay.tuple``, ``INJECTIVE`` for ``relay.tuple_get_item`` on a tuple of
   tensors, ``OPAQUE`` for everything else (other constants, calls of
   ``relay.fn`` and globals). An edge carries the consumer's pattern, except
   that a ``BROADCAST`` consumer whose result has the argument's shape makes
   it ``ELEMWISE``, and a tuple field edge is ``INJECTIVE``. The returned
   value, let values, nested tuple fields and tuples with nested fields
   projected by ``relay.tuple_get_item`` are external: fusion stops there;
   nothing reads a let value but through its variable.
2. **Post-dominator tree** (dataflow.py). In reverse post-DFS order, a node's immediate
   post-dominator is the least common ancestor of its consumers, and its
   pattern is the strongest edge or node pattern on the way. Skew-binary
   jump pointers make each ancestor query logarithmic instead of TVM's walk
   up the tree, with the same result.
3. **Partition** (union-find; nothing fuses at ``fuse-opt-level=0``). Three
   phases over the nodes in post-DFS order; each node tries to join its
   post-dominator's group, unless that would make more than ``max-depth``
   nodes (TVM's count, stale group sizes included):

   * an ``OUT_ELEMWISE_FUSABLE`` node (phase 0 only) when the post-dominator
     edge is ``ELEMWISE`` and every node up to it, the post-dominator
     included, is at most ``BROADCAST``;
   * an ``ELEMWISE``/``BROADCAST`` node (phases 0 and 1) when the
     post-dominator edge is at most ``INJECTIVE`` or is ``COMM_REDUCE``,
     the nodes in between are at most ``INJECTIVE`` and the post-dominator
     is not ``OPAQUE``/``TUPLE``;
   * an ``INJECTIVE`` node or tuple (phase 1 only) when every node up to the
     post-dominator is at most ``INJECTIVE``;
   * nothing ever fuses into a tuple in phases 0 and 1; in phase 2 an
     ``INJECTIVE``-or-weaker node fuses into a tuple that has itself been
     fused into an injective group, when every node up to it is at most
     ``INJECTIVE``.

   A node that joins takes along every node on the paths to its
   post-dominator.
4. **Outlining.** Each group whose result is an operator call, or a tuple
   projection whose tuple is in the group, becomes a ``relay.fn`` with
   ``Primitive = 1 : i32`` (``0`` when it holds no operator call) and
   ``relay.reshape_only = 1 : i32`` when it only reshapes
   (``reshape``, ``squeeze``, ``expand_dims``, ``nn.batch_flatten``, ...)
   tensors. Its parameters ``%p0, %p1, ...`` are the values it reads from
   outside, in TVM's order (first use in post-DFS order), each passed once.
   Scalar constants fused into a group move into it; other constants stay
   outside and are passed as arguments (TVM's default, ``link_params``
   off). Tuples and isolated projections stay unwrapped, as do TVM's
   non-computational operators (``on_device``, ``memory.*``, ``vm.*``,
   ``call_lowered``) and ``annotation.stop_fusion`` (which TVM deletes; it
   is kept here so that defusing restores the input).

The ``relay.fn`` takes the place of the group's result; the group's
operations move into it in their original order. So ``relay-defuse`` gives
the input back exactly when every group is contiguous in the input, and
otherwise the same program with each group's operations gathered in front of
its result.

Options:

* ``fuse-opt-level`` (default 2, TVM's default ``opt_level``): at 0 nothing
  fuses and every operator call becomes its own function.
* ``max-depth`` (default 256, TVM's ``relay.FuseOps.max_depth``): the
  largest number of nodes in one group.

Cost: the post-dominator tree takes O(log n) per edge; each fusion check
visits at most ``max-depth`` nodes, and none when a lower bound on the
region size, computed with the tree, already exceeds it. TVM's own walks are
quadratic on long skip connections; this pass stays near-linear.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeGuard, cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    UNKNOWN_LOC,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    TupleType,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import OpPattern
from relay_xdsl.dialects.relay.bindings import implicitly_bound, relax_body_kind, resolve_lets
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.transforms.dataflow import (
    PostDominatorTree,
    fusable,
    post_dfs,
    post_dominators,
)
from relay_xdsl.transforms.diagnostics import check_at_least

ELEMWISE = OpPattern.ELEMWISE.value
BROADCAST = OpPattern.BROADCAST.value
INJECTIVE = OpPattern.INJECTIVE.value
COMM_REDUCE = OpPattern.COMM_REDUCE.value
OUT_ELEMWISE_FUSABLE = OpPattern.OUT_ELEMWISE_FUSABLE.value
TUPLE = OpPattern.TUPLE.value
OPAQUE = OpPattern.OPAQUE.value

# TVM's operator attributes below go by name, not op class: they name
# operators without a row too, which arrive as ``relay.op``.
UNFUSED_OPERATORS = frozenset(
    {
        "annotation.stop_fusion",
        "on_device",
        "call_lowered",
        "memory.alloc_storage",
        "memory.alloc_tensor",
        "memory.kill",
        "vm.shape_of",
        "vm.invoke_tvm_op",
        "vm.reshape_tensor",
    }
)
"""Operators FuseOps never wraps: TVM's ``TNonComputational`` ones and ``stop_fusion``."""

RESHAPE_OPERATORS = frozenset(
    {
        "reshape",
        "squeeze",
        "expand_dims",
        "nn.batch_flatten",
        "contrib_reverse_reshape",
        "dyn.reshape",
        "dyn.squeeze",
    }
)
"""Operators with TVM's ``TReshapeOp``: a group of only these is ``relay.reshape_only``."""

DATA_DEPENDENT_SHAPE_OPERATORS = frozenset(
    {
        "broadcast_to",
        "arange",
        "argwhere",
        "stft",
        "sparse_fill_empty_rows",
    }
)
"""Operators (besides ``dyn.*``) whose shape function reads data (``TShapeDataDependent``)."""

# ---------------------------------------------------------------------------
# The indexed forward graph
# ---------------------------------------------------------------------------


@dataclass
class _ForwardGraph:
    """TVM's ``IndexedForwardGraph`` of one block: nodes in post-DFS order."""

    pattern: list[int]
    """The node's own pattern."""
    consumers: list[list[int]]
    """Node index → consumer node indices, one per use."""
    edge_patterns: list[list[int]]
    """Parallel to `consumers`: the pattern of each edge."""
    external: list[bool]
    """Referenced from outside the dataflow graph (result, let value, ...)."""
    ops: list[Operation] = field(default_factory=list)
    """Node index → operation."""
    block_order: list[int] = field(default_factory=list)
    """The nodes in block order."""
    operands: list[tuple[SSAValue, ...]] = field(default_factory=list)
    """Node index → the operation's operands."""
    producers: list[list[int | None]] = field(default_factory=list)
    """Parallel to `operands`: the node defining each operand (None: no node)."""
    operator_names: list[str | None] = field(default_factory=list)
    """Node index → the operator an operator call calls (None: no call)."""

    @property
    def size(self) -> int:
        return len(self.pattern)


def _let_bindings(block: Block, ops: list[Operation]) -> tuple[list[Operation], list[Operation]]:
    """The ops of `ops` (`block`'s, its terminator excepted) whose values are
    let-bound, in binding order, and those read only through their variable.

    TVM visits a let's value before its body, and nothing fuses across the
    variable. A ``relay.let`` binds its operand; in a Relax binding block
    every op is bound to a ``Var`` (see bindings.py), read only through it.
    In a Relax dataflow block dataflow variables are plain graph edges, as
    in Relax's FuseOps: nothing is let-bound (a ``relay.let`` there is no
    node, so its operand is external, used from outside the graph).
    """
    kind = relax_body_kind(block)
    if kind == "dataflow":
        return [], []
    bound: list[Operation] = []
    variable_only: list[Operation] = []
    for op in ops:
        if type(op) is relay.LetOp:
            owner = resolve_lets(op.value).owner
            if isinstance(owner, Operation):
                bound.append(owner)
        elif kind == "binding" and implicitly_bound(op, kind, set()):
            bound.append(op)
            variable_only.append(op)
    return bound, variable_only


def _is_tensor(type_: Attribute) -> TypeGuard[TensorType]:
    return isinstance(type_, TensorType)


def _is_dynamic(type_: Attribute) -> bool:
    if isinstance(type_, TensorType):
        return DYNAMIC_INDEX in type_.get_shape()
    if isinstance(type_, TupleType):
        return any(_is_dynamic(t) for t in type_.types.data)
    return False


def _is_simple_scalar_constant(op: relay.ConstantOp) -> bool:
    type_ = op.results[0].type
    if not isinstance(type_, TensorType) or type_.shape.data:
        return False
    element = type_.element_type
    if isinstance(element, IntegerType):
        return element.signedness.data == Signedness.SIGNLESS and element.width.data in (1, 32, 64)
    return isinstance(element, Float32Type | Float64Type)


@functools.cache
def _row_pattern(op_class: type[Operation]) -> int | None:
    """The pattern of the operator that ops of `op_class` call, by its row
    (``OPAQUE`` for ``relay.op``); None when they call none. By class: an
    ``isinstance`` of an xDSL class is a Python call."""
    if issubclass(op_class, relay.RegisteredOperatorOp):
        return op_class.OPERATOR.pattern.value
    return OPAQUE if issubclass(op_class, relay.OperatorOp) else None


def _operator_pattern(op: relay.OperatorOp, name: str, row_pattern: int) -> int:
    """The pattern of the call `op` of operator `name`, whose row gives `row_pattern`."""
    if (
        row_pattern != OPAQUE
        and (name in DATA_DEPENDENT_SHAPE_OPERATORS or name.startswith("dyn."))
        and _is_dynamic(op.results[0].type)
    ):
        # TVM: a shape function's output cannot feed a data-dependent one.
        return OPAQUE
    return row_pattern


def _has_more_uses(op: Operation, reads: int) -> bool:
    """Whether more than `reads` operands read the values of `op` (which
    `reads` of them do): a use list is counted only past its second use."""
    results = op.results
    if len(results) != 1:
        return sum(result.uses.get_length() for result in results) > reads
    (result,) = results
    if reads == 0:
        return result.first_use is not None
    if reads == 1:
        return result.has_more_than_one_use()
    return result.uses.get_length() > reads


def _build_graph(block: Block) -> _ForwardGraph:
    last = block.last_op
    terminator = last if last is not None and last.has_trait(IsTerminator) else None
    body = [op for op in block.ops if op is not terminator]
    # A let variable is no node: its value is read through it (see _let_bindings).
    scope = [op for op in body if type(op) is not relay.LetOp]
    # Ops are looked up by id: xDSL hashes an op by a Python call, an int hashes in C.
    position = {id(op): i for i, op in enumerate(scope)}
    scope_operands = [tuple(op.operands) for op in scope]
    scope_producers = [[position.get(id(v.owner)) for v in values] for values in scope_operands]
    let_roots, variable_only = _let_bindings(block, body)
    # A let binding is visited before its body; the body's result last; dead
    # code, invisible to TVM, is kept as further roots.
    results = [] if terminator is None else [resolve_lets(v).owner for v in terminator.operands]
    roots = [i for op in (*let_roots, *results) if (i := position.get(id(op))) is not None]
    reads = [[i for i in producers if i is not None] for producers in scope_producers]
    order = post_dfs((*roots, *range(len(scope))), reads.__getitem__)
    # An op whose values have more uses than the graph's reads is used from
    # outside (the terminator, a let, a nested region).
    graph_reads = [0] * len(scope)
    for producers_read in reads:
        for i in producers_read:
            graph_reads[i] += 1
    count = len(order)
    node_of = [0] * count
    for node, i in enumerate(order):
        node_of[i] = node
    ops = [scope[i] for i in order]
    operands = [scope_operands[i] for i in order]
    producers = [[None if p is None else node_of[p] for p in scope_producers[i]] for i in order]
    let_bound = {node_of[position[id(op)]] for op in variable_only}
    pattern = [OPAQUE] * count
    consumers: list[list[int]] = [[] for _ in range(count)]
    edge_patterns: list[list[int]] = [[] for _ in range(count)]
    external = [False] * count
    operator_names: list[str | None] = [None] * count

    def link(producer: int | None, consumer: int, edge: int) -> None:
        if producer is None or producer in let_bound:
            # A let-bound value is read through its variable: no dataflow edge.
            return
        consumers[producer].append(consumer)
        edge_patterns[producer].append(edge)

    def detach(producer: int | None) -> None:
        if producer is not None:
            external[producer] = True

    for node, op in enumerate(ops):
        if node in let_bound or _has_more_uses(op, graph_reads[order[node]]):
            external[node] = True
        sources = producers[node]
        op_type: type[Operation] = type(op)
        row_pattern = _row_pattern(op_type)
        if row_pattern is not None:
            name = operator_names[node] = cast(relay.OperatorOp, op).operator_name
            own = pattern[node] = _operator_pattern(cast(relay.OperatorOp, op), name, row_pattern)
            result_type = op.results[0].type
            # A broadcast reading an argument of its result's shape is elementwise there.
            result_shape = (
                result_type.get_shape() if own == BROADCAST and _is_tensor(result_type) else None
            )
            for arg, producer in zip(operands[node], sources):
                edge = own
                if (
                    result_shape is not None
                    and _is_tensor(arg.type)
                    and arg.type.get_shape() == result_shape
                ):
                    edge = ELEMWISE
                link(producer, node, edge)
        elif op_type is relay.ConstantOp:
            pattern[node] = ELEMWISE if _is_simple_scalar_constant(op) else OPAQUE
        elif op_type is relay.TupleOp:
            pattern[node] = TUPLE
            for field_value, producer in zip(operands[node], sources):
                if _is_tensor(field_value.type):
                    link(producer, node, INJECTIVE)
                else:
                    detach(producer)
        elif op_type is relay.TupleGetItemOp:
            tuple_type = operands[node][0].type
            assert isinstance(tuple_type, TupleType)
            if all(_is_tensor(t) for t in tuple_type.types.data):
                pattern[node] = INJECTIVE
                link(sources[0], node, INJECTIVE)
            else:
                detach(sources[0])
        else:
            # Calls of function literals and globals, and anything unknown.
            for producer in sources:
                link(producer, node, OPAQUE)
    return _ForwardGraph(
        pattern,
        consumers,
        edge_patterns,
        external,
        ops,
        node_of,
        operands,
        producers,
        operator_names,
    )


# ---------------------------------------------------------------------------
# Post-dominator tree
# ---------------------------------------------------------------------------


def _post_dominators(graph: _ForwardGraph) -> PostDominatorTree:
    """The post-dominator tree of `graph`, with the pattern on the way (dataflow.py)."""
    return post_dominators(graph.consumers, graph.edge_patterns, graph.external)


# ---------------------------------------------------------------------------
# Partition
# ---------------------------------------------------------------------------


def _combine(lhs: int, rhs: int) -> int:
    assert not (lhs > BROADCAST and rhs > BROADCAST), "cannot merge two complex groups together"
    return max(lhs, rhs)


class _Partitioner:
    """TVM's ``GraphPartitioner``: union-find groups, one per node to start with.

    ``group_parent[i]`` is -1 for a group root, whose node is the group's
    output. ``group_pattern`` and ``group_size`` belong to node ``i``'s own
    group record and, as in TVM, go stale once it is merged away.
    """

    def __init__(self, graph: _ForwardGraph, tree: PostDominatorTree, max_depth: int) -> None:
        count = graph.size
        self.graph = graph
        self.tree = tree
        self.max_depth = max_depth
        self.group_parent = [-1] * count
        self.group_pattern = list(graph.pattern)
        self.has_anchor = [p == OUT_ELEMWISE_FUSABLE for p in graph.pattern]
        self.group_size = [1] * count
        # The size count only grows (groups only grow), so a node over the
        # limit stays over it: remember that across phases.
        self.over_limit = [False] * count

    def find(self, node: int) -> int:
        parents = self.group_parent
        root = node
        while parents[root] >= 0:
            root = parents[root]
        while parents[node] >= 0 and parents[node] != root:
            parents[node], node = root, parents[node]
        return root

    def partition(self, opt_level: int) -> list[int]:
        """The group root of every node."""
        if opt_level != 0:
            for phase in range(3):
                self.run_phase(phase)
        return [self.find(node) for node in range(self.graph.size)]

    def run_phase(self, phase: int) -> None:
        # TVM checks the group size before the cheaper conditions; counting
        # has no side effects, so it is done last here, with the same result.
        # Likewise the cheap pattern checks come before looking up groups.
        dominator, edge_pattern = self.tree.parent, self.tree.pattern
        own_pattern = self.group_pattern
        find = self.find
        for node in range(self.graph.size):
            pattern = own_pattern[node]
            if pattern == OPAQUE:
                continue
            sink = dominator[node]
            if sink is None:
                continue
            if phase == 2:
                # Fuse injective ops into intermediate tuples that have been
                # fused into injective ops, never into a tuple group.
                if pattern > INJECTIVE or own_pattern[sink] != TUPLE:
                    continue
                sink_pattern = own_pattern[find(sink)]
                if sink_pattern == TUPLE or sink_pattern > INJECTIVE:
                    continue
                condition = _at_most_injective
            else:
                if own_pattern[sink] == TUPLE:
                    continue
                edge = edge_pattern[node]
                if pattern == OUT_ELEMWISE_FUSABLE:
                    if phase != 0 or edge != ELEMWISE:
                        continue
                    condition = _at_most_broadcast
                elif pattern <= BROADCAST:
                    if not (edge <= INJECTIVE or edge == COMM_REDUCE):
                        continue
                    condition = _into_elemwise_anchor
                elif pattern in (INJECTIVE, TUPLE):
                    # Deferred to phase 1, so that conv2d-like ops fuse first.
                    if phase != 1:
                        continue
                    condition = _at_most_injective
                else:
                    continue
                if find(node) == find(sink):
                    continue
            if self.fused_size_exceeds_limit(node, sink):
                continue
            if self.check_path(node, sink, condition):
                self.commit_fuse(node, sink)

    def fused_size_exceeds_limit(self, child: int, sink: int) -> bool:
        """TVM's ``CountFusedNodesWithNewChild(child, sink) > max_depth``.

        Sums each node's own (possibly stale) group size from `child` up to
        `sink`; stops as soon as the limit is passed.
        """
        limit = self.max_depth
        if self.over_limit[child] or 1 + self.tree.region_lower_bound[child] > limit:
            return True
        total = self.group_size[self.find(sink)]
        if total > limit:
            self.over_limit[child] = True
            return True
        seen = {child}
        stack = [child]
        consumers = self.graph.consumers
        sizes = self.group_size
        while stack:
            node = stack.pop()
            total += sizes[node]
            if total > limit:
                self.over_limit[child] = True
                return True
            for consumer in consumers[node]:
                if consumer != sink and consumer not in seen:
                    seen.add(consumer)
                    stack.append(consumer)
        return False

    def check_path(self, source: int, sink: int, condition: Callable[[int, bool], bool]) -> bool:
        """Every node after `source` up to and including `sink` satisfies `condition`."""
        seen: set[int] = set()
        stack = list(self.graph.consumers[source])
        consumers = self.graph.consumers
        patterns = self.group_pattern
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            if not condition(patterns[self.find(node)], node == sink):
                return False
            if node != sink:
                stack.extend(consumers[node])
        return True

    def commit_fuse(self, source: int, sink: int) -> None:
        """Merge `source` and every node on its paths to `sink` into `sink`'s group."""
        seen: set[int] = set()
        stack = [source]
        consumers = self.graph.consumers
        while stack:
            node = stack.pop()
            if node == sink or node in seen:
                continue
            seen.add(node)
            self.merge(node, sink)
            stack.extend(consumers[node])

    def merge(self, child: int, parent: int) -> None:
        child, parent = self.find(child), self.find(parent)
        if child == parent:
            return
        self.group_size[parent] += self.group_size[child]
        self.group_parent[child] = parent
        if self.has_anchor[child]:
            assert not self.has_anchor[parent]
            self.has_anchor[parent] = True
            self.group_pattern[parent] = _combine(
                self.group_pattern[child], self.group_pattern[parent]
            )


def _at_most_injective(kind: int, is_sink: bool) -> bool:
    return kind <= INJECTIVE


def _at_most_broadcast(kind: int, is_sink: bool) -> bool:
    return kind <= BROADCAST


def _into_elemwise_anchor(kind: int, is_sink: bool) -> bool:
    # Parallel branches may be injective; the sink may already hold an anchor.
    if not is_sink:
        return kind <= INJECTIVE
    return kind <= INJECTIVE or kind in (COMM_REDUCE, OUT_ELEMWISE_FUSABLE)


# ---------------------------------------------------------------------------
# Outlining
# ---------------------------------------------------------------------------


def _is_outlined(root: int, graph: _ForwardGraph, roots: Sequence[int]) -> bool:
    """Whether the group with output node `root` becomes a function (TVM's FuseMutator)."""
    name = graph.operator_names[root]
    if name is not None:
        return name not in UNFUSED_OPERATORS
    if type(graph.ops[root]) is relay.TupleGetItemOp:
        producer = graph.producers[root][0]
        # Otherwise it is isolated: the tuple comes from another group.
        return producer is not None and roots[producer] == roots[root]
    return False


_FLAGS = (IntegerAttr(0, i32), IntegerAttr(1, i32))
"""``Primitive`` and ``relay.reshape_only`` values, 0 and 1: attributes are
immutable, so every group shares them."""


def _outline(
    members: list[int], graph: _ForwardGraph, roots: Sequence[int], replaced: dict[int, SSAValue]
) -> tuple[SSAValue, SSAValue, Operation]:
    """Move the group `members` (nodes in block order, output last) into a ``relay.fn``.

    The ``relay.fn`` passes each value read from outside the group, or what
    `replaced` (by ``id``) says replaces it. Returns the group's output, the
    ``relay.fn`` result that replaces it and the ``relay.return`` of the
    output; the caller rewires the other uses (in one pass, so wide ops are
    rebuilt once). The ops move by xDSL's block operations: nothing observes
    the pass's changes, so a rewriter would only add its bookkeeping.
    """
    root = members[-1]
    external, consumers, producers = graph.external, graph.consumers, graph.producers
    inner = members[:-1]
    # Post-dominance makes a group convex with a single output.
    assert not any(external[node] for node in inner) and all(
        roots[c] == root for node in inner for c in consumers[node]
    ), "a fused group's intermediate value escapes it"
    arguments: list[SSAValue] = []
    parameter: dict[int, int] = {}
    """``id`` of an argument → its parameter number."""
    readers: list[int] = []
    """The members reading an argument."""
    # TVM allocates parameters in post-DFS order of the group's nodes.
    for node in sorted(members):
        reads_argument = False
        for value, producer in zip(graph.operands[node], producers[node]):
            if producer is None or roots[producer] != root:
                reads_argument = True
                if id(value) not in parameter:
                    parameter[id(value)] = len(arguments)
                    arguments.append(value)
        if reads_argument:
            readers.append(node)

    body = Block()
    for number, argument in enumerate(arguments):
        # With the location a block argument defaults to, which it wraps.
        set_relay_name(body.insert_arg(argument.type, number, UNKNOWN_LOC), f"p{number}")
    calls = [name for node in members if (name := graph.operator_names[node]) is not None]
    attributes: dict[str, Attribute] = {"Primitive": _FLAGS[bool(calls)]}
    if (
        calls
        and all(name in RESHAPE_OPERATORS for name in calls)
        and all(_is_tensor(a.type) for a in arguments)
    ):
        attributes["relay.reshape_only"] = _FLAGS[True]

    ops = [graph.ops[node] for node in members]
    output = ops[-1].results[0]
    block = ops[-1].parent
    assert block is not None  # a group's ops are in the block being fused
    place = ops[-1].next_op
    # ``create``, as the constructors build them, without their conversion of
    # ops to values (these are values) and with the location they default to.
    fn = relay.FnOp.create(
        operands=[replaced.get(id(a), a) for a in arguments],
        result_types=(output.type,),
        regions=(Region(body),),
        attributes=attributes,
        location=UNKNOWN_LOC,
    )
    # Names are cosmetic: the call shows the name its output had.
    fn.results[0].name_hint, output.name_hint = output.name_hint, None
    # xDSL's rewriter has no move: an op moves by being detached and inserted
    # again (as xDSL's own loop-invariant code motion does). The body joins
    # the block last, so that adding an op checks a short chain of ancestors.
    for op in ops:
        op.detach()
    body.add_ops(ops)
    params = body.args
    for node in readers:
        graph.ops[node].operands = [
            params[parameter[id(v)]] if id(v) in parameter else v for v in graph.operands[node]
        ]
    terminator = relay.ReturnOp.create(operands=(output,), location=UNKNOWN_LOC)
    body.add_op(terminator)
    if place is None:
        block.add_op(fn)
    else:
        block.insert_op_before(fn, place)
    return output, fn.results[0], terminator


def fuse_block(block: Block, fuse_opt_level: int = 2, max_depth: int = 256) -> None:
    """Run FuseOps on the dataflow of `block` (not on nested regions)."""
    graph = _build_graph(block)
    if not graph.ops:
        return
    tree = _post_dominators(graph)
    roots = _Partitioner(graph, tree, max_depth).partition(fuse_opt_level)
    members: list[list[int]] = [[] for _ in range(graph.size)]
    for node in graph.block_order:
        members[roots[node]].append(node)
    replaced: dict[int, SSAValue] = {}
    """``id`` of a group's output → the ``relay.fn`` result replacing it."""
    outlined = []
    # In the block order of the outputs: a group reads other groups' outputs
    # as their replacements, and only ops left outside read the old ones.
    for root in graph.block_order:
        if roots[root] == root and _is_outlined(root, graph, roots):
            assert members[root][-1] == root, "a group ends with its output"
            output, result, terminator = _outline(members[root], graph, roots, replaced)
            replaced[id(output)] = result
            outlined.append((output, terminator))
    users: dict[int, Operation] = {}
    for output, terminator in outlined:
        for use in output.uses:
            if use.operation is not terminator:
                users[id(use.operation)] = use.operation
    # Each user is rewired in one step, so that a wide op is rebuilt once, not once per operand.
    for user in users.values():
        user.operands = [replaced.get(id(v), v) for v in user.operands]


def _fuse_function_body(block: Block, fuse_opt_level: int, max_depth: int) -> None:
    # Composite and other plain function literals are optimised inside too,
    # and each branch of an `if` and each clause of a `match` on its own:
    # nothing fuses across control flow. Function values (relay.function)
    # are left as written.
    for op in list(block.ops):
        if not op.regions:
            continue
        if isinstance(op, relay.FnOp) and fusable(op.attributes):
            _fuse_function_body(op.body.block, fuse_opt_level, max_depth)
        elif isinstance(op, relay.IfOp | relay.MatchOp):
            for region in op.regions:
                _fuse_function_body(region.block, fuse_opt_level, max_depth)
    fuse_block(block, fuse_opt_level, max_depth)


@dataclass(frozen=True)
class RelayFuseOpsPass(ModulePass):
    """Fuse operators into ``Primitive`` ``relay.fn`` groups as TVM's ``FuseOps`` does."""

    name = "relay-fuse-ops"

    fuse_opt_level: int = 2
    """TVM's ``fuse_opt_level``: at 0 every operator call is its own function."""

    max_depth: int = 256
    """TVM's ``relay.FuseOps.max_depth``: the most nodes in one fused function."""

    def __post_init__(self) -> None:
        check_at_least(self.name, "fuse-opt-level", self.fuse_opt_level, 0)
        check_at_least(self.name, "max-depth", self.max_depth, 1)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.ops:
            if isinstance(func, FuncOp) and func.body.blocks and fusable(func.attributes):
                _fuse_function_body(func.body.block, self.fuse_opt_level, self.max_depth)
