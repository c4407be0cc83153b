"""relay-fuse-ops: TVM's FuseOps grouping, undone by relay-defuse.

TVM's own expected groupings are checked by the lit tests in
tests/filecheck/transforms/fuse_ops; here:

* on every TVM fixture, relay-defuse gives back the same Relay text and the
  same MLIR (up to where tensor constants, printed inline in Relay, sit);
* on random programs, the same program (a group that was not contiguous
  comes back gathered before its result), exactly the identity from then
  on, and the grouping of a direct transliteration of TVM v0.19's
  ``GraphPartitioner`` (tree walks, full counts), which the pass computes
  faster;
* a 20k-op chain fuses without recursion.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, f32
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.equivalence import relay_text_diff
from relay_xdsl.transforms import fuse_ops
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

TESTS = Path(__file__).resolve().parents[1]
SEED = TESTS.parent / "examples" / "seed"
PROGRAMS = sorted((TESTS / "importers" / "fixtures").glob("*.relay")) + [
    SEED / "defused.relay",
    SEED / "fused.relay",
]


def _fuse(module: ModuleOp, **options) -> ModuleOp:
    RelayFuseOpsPass(**options).apply(Context(), module)
    module.verify()
    return module


def _defuse(module: ModuleOp) -> ModuleOp:
    RelayDefusePass().apply(Context(), module)
    module.verify()
    return module


def _blocks(module: ModuleOp):
    for op in module.walk():
        for region in op.regions:
            yield from region.blocks


def _constants_at_first_use(module: ModuleOp) -> ModuleOp:
    """Move each constant just before its first user.

    Relay text prints constants inline at their use, so where a
    ``relay.constant`` sits in its block is not part of the program; a
    constant passed to a fused function has to stay in front of the call.
    """
    for block in list(_blocks(module)):
        for op in list(block.ops):
            if isinstance(op, relay.ConstantOp) and op.result.uses:
                first = min(
                    (use.operation for use in op.result.uses),
                    key=lambda user: block.get_operation_index(user),
                )
                op.detach()
                block.insert_op_before(op, first)
    return module


def _canonical_order(module: ModuleOp) -> ModuleOp:
    """Reorder every block by TVM's post-DFS order from its result."""
    for block in list(_blocks(module)):
        terminator = block.last_op
        assert terminator is not None
        order: list[Operation] = []
        done: set[Operation] = set()
        stack = [(terminator, 0)]
        while stack:
            op, position = stack.pop()
            if position < len(op.operands):
                stack.append((op, position + 1))
                owner = op.operands[position].owner
                if isinstance(owner, Operation) and owner.parent is block and owner not in done:
                    done.add(owner)
                    stack.append((owner, 0))
            elif op is not terminator:
                order.append(op)
        assert len(order) == len(block.ops) - 1, "no dead code expected"
        for op in order:
            op.detach()
            block.insert_op_before(op, terminator)
    return module


def _outside_primitive_functions(module: ModuleOp) -> list[str]:
    """Operator calls that fusion left outside any ``Primitive`` function."""

    def inside_primitive(op: Operation) -> bool:
        parent = op.parent_op()
        while parent is not None:
            if isinstance(parent, relay.FnOp | FuncOp) and (
                "Primitive" in parent.attributes or "Compiler" in parent.attributes
            ):
                return True
            parent = parent.parent_op()
        return False

    return [
        op.operator_name
        for op in module.walk()
        if isinstance(op, relay.OperatorOp)
        and op.operator_name not in fuse_ops.UNFUSED_OPERATORS
        and not inside_primitive(op)
    ]


# ---------------------------------------------------------------------------
# TVM fixtures
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_defuse_undoes_fuse(path: Path):
    # Programs that are already fused are defused first: the invariant is
    # about an unfused x.
    module = _defuse(parse_relay(path.read_text(), str(path)))
    before_text = print_relay(module)
    before = str(_constants_at_first_use(module.clone()))
    _fuse(module)
    assert _outside_primitive_functions(module) == []
    _defuse(module)
    assert relay_text_diff(before_text, print_relay(module)) == ""
    assert str(_constants_at_first_use(module)) == before


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_every_operator_call_is_in_a_primitive_function(path: Path):
    module = _fuse(_defuse(parse_relay(path.read_text(), str(path))))
    assert _outside_primitive_functions(module) == []
    for fn in module.walk():
        if isinstance(fn, relay.FnOp) and "Primitive" in fn.attributes:
            assert [p.name_hint for p in fn.params] == [f"p{i}" for i in range(len(fn.params))]


def test_seed_groups_conv_add_relu_as_tvm_does():
    module = _fuse(parse_relay((SEED / "defused.relay").read_text()))
    groups = [
        [op.operator_name for op in fn.body.block.ops if isinstance(op, relay.OperatorOp)]
        for fn in module.walk()
        if isinstance(fn, relay.FnOp)
    ]
    assert groups == [
        ["nn.conv2d", "add", "nn.relu"],
        ["nn.max_pool2d"],
        ["nn.conv2d", "add", "nn.relu"],
        ["nn.conv2d", "add", "add"],
    ]


def test_pass_is_reachable_by_name_with_options():
    from xdsl.passes import PassPipeline

    from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE

    passes = {name: factory() for name, factory in RELAY_UNIVERSE.all_passes.items()}
    pipeline = PassPipeline.parse_spec(passes, "relay-fuse-ops{fuse-opt-level=0 max-depth=10}")
    (fuse,) = pipeline.passes
    assert fuse == RelayFuseOpsPass(fuse_opt_level=0, max_depth=10)


# ---------------------------------------------------------------------------
# Random programs
# ---------------------------------------------------------------------------


@st.composite
def relay_programs(draw) -> str:
    """A well-typed Relay function of conv2d, add, multiply, relu, sum,
    reshape, concatenate, tuples and projections, every value used."""
    params = ["%x: Tensor[(1, 4, 8, 8), float32]", "%b: Tensor[(4, 1, 1), float32]"]
    values: list[tuple[str, tuple[int, ...]]] = [("%x", (1, 4, 8, 8))]
    used: set[str] = set()
    lines: list[str] = []

    def pick(predicate=lambda shape: True) -> tuple[str, tuple[int, ...]] | None:
        candidates = [v for v in values if predicate(v[1])]
        if not candidates:
            return None
        # Mostly a recent value, as in a network's layers; sometimes any.
        back = draw(st.one_of(st.integers(0, 1), st.integers(0, len(candidates) - 1)))
        value = candidates[-1 - min(back, len(candidates) - 1)]
        used.add(value[0])
        return value

    def bind(expression: str, shape: tuple[int, ...] | None) -> str:
        """A new temp; a tensor when `shape` is given, else a tuple."""
        name = f"%{len(lines)}"
        lines.append(f"  {name} = {expression};")
        if shape is not None:
            values.append((name, shape))
        return name

    def image(shape: tuple[int, ...]) -> bool:
        return len(shape) == 4 and shape[2:] == (8, 8) and shape[1] <= 16

    for _ in range(draw(st.integers(1, 24))):
        kind = draw(
            st.sampled_from(
                ["conv2d", "add", "multiply", "relu", "sum", "reshape", "concat", "tuple"]
            )
        )
        if kind == "conv2d" and (a := pick(image)):
            weight = f"%w{len(params)}"
            params.append(f"{weight}: Tensor[(4, {a[1][1]}, 3, 3), float32]")
            bind(
                f"nn.conv2d({a[0]}, {weight}, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3])",
                (1, 4, 8, 8),
            )
        elif kind in ("add", "multiply"):
            a = pick()
            assert a is not None
            choice = draw(st.sampled_from(["same", "scalar", "bias", "row"]))
            other = None
            shape = a[1]
            if choice == "same":
                other = pick(shape.__eq__)
            elif choice == "bias" and shape == (1, 4, 8, 8):
                other = ("%b", (4, 1, 1))
            elif choice == "row" and image(shape):
                other = pick((1, 1, 8, 8).__eq__)
            operand = other[0] if other else "1f"
            args = [a[0], operand]
            if draw(st.booleans()):
                args.reverse()
            bind(f"{kind}({args[0]}, {args[1]})", shape)
        elif kind == "relu":
            a = pick()
            assert a is not None
            bind(f"nn.relu({a[0]})", a[1])
        elif kind == "sum" and (a := pick(image)):
            bind(f"sum({a[0]}, axis=[1], keepdims=True)", (1, 1, 8, 8))
        elif kind == "reshape" and (a := pick(lambda s: len(s) in (3, 4))):
            channels = a[1][1]
            if len(a[1]) == 4:
                bind(f"reshape({a[0]}, newshape=[1, {channels}, 64])", (1, channels, 64))
            else:
                bind(
                    f"reshape({a[0]}, newshape=[1, {channels}, 8, 8])",
                    (1, channels, 8, 8),
                )
        elif kind == "concat" and (a := pick(image)) and (b := pick(image)):
            pair = bind(f"({a[0]}, {b[0]})", None)
            bind(f"concatenate({pair}, axis=1)", (1, a[1][1] + b[1][1], 8, 8))
        elif kind == "tuple":
            a, b = pick(), pick()
            assert a is not None and b is not None
            pair = bind(f"({a[0]}, {b[0]})", None)
            index = draw(st.integers(0, 1))
            bind(f"{pair}.{index}", (a, b)[index][1])
    results = [name for name, _ in values[1:] if name not in used] or ["%x"]
    result = results[0] if len(results) == 1 else f"({', '.join(results)})"
    return (
        '#[version = "0.0.5"]\n'
        f"def @main({', '.join(params)}) {{\n" + "\n".join(lines) + f"\n  {result}\n}}\n"
    )


_RANDOM = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_RANDOM
@given(relay_programs(), st.sampled_from([256, 1, 2, 3, 5, 8]), st.sampled_from([2, 0]))
def test_defuse_undoes_fuse_on_random_programs(text: str, max_depth: int, level: int):
    original = parse_relay(text)
    module = _fuse(original.clone(), max_depth=max_depth, fuse_opt_level=level)
    assert _outside_primitive_functions(module) == []
    _defuse(module)
    # The same program: the same ops with the same operands and attributes.
    assert str(_canonical_order(module.clone())) == str(_canonical_order(original))
    # A group that was not contiguous comes back gathered in front of its
    # result; on such output, defuse(fuse(.)) is exactly the identity.
    again = _defuse(_fuse(module.clone(), max_depth=max_depth, fuse_opt_level=level))
    assert str(again) == str(module)


@_RANDOM
@given(relay_programs(), st.sampled_from([256, 1, 2, 3, 5, 8]))
def test_grouping_matches_tvm_graph_partitioner(text: str, max_depth: int):
    block = parse_relay(text).body.block.first_op.body.block
    graph = fuse_ops._build_graph(block)
    tree = fuse_ops._post_dominators(graph)
    expected_parent, expected_pattern = _reference_post_dominators(graph)
    assert tree.parent == expected_parent
    for node, parent in enumerate(tree.parent):
        if parent is not None:
            assert tree.pattern[node] == expected_pattern[node]
    roots = fuse_ops._Partitioner(graph, tree, max_depth).partition(2)
    assert roots == _reference_partition(graph, expected_parent, expected_pattern, max_depth)


@st.composite
def forward_graphs(draw) -> fuse_ops._ForwardGraph:
    """A random dataflow graph with TVM-like patterns, nodes in topological order."""
    kinds = [
        fuse_ops.ELEMWISE,
        fuse_ops.BROADCAST,
        fuse_ops.INJECTIVE,
        fuse_ops.COMM_REDUCE,
        fuse_ops.OUT_ELEMWISE_FUSABLE,
        fuse_ops.TUPLE,
        fuse_ops.OPAQUE,
    ]
    count = draw(st.integers(1, 150))
    pattern = [draw(st.sampled_from(kinds)) for _ in range(count)]
    consumers: list[list[int]] = [[] for _ in range(count)]
    edge_patterns: list[list[int]] = [[] for _ in range(count)]
    for node in range(1, count):
        for _ in range(draw(st.integers(0, 3))):
            back = draw(st.one_of(st.integers(1, 3), st.integers(1, node)))
            producer = node - min(back, node)
            edge = pattern[node]
            if edge == fuse_ops.TUPLE:
                edge = fuse_ops.INJECTIVE
            elif edge == fuse_ops.BROADCAST and draw(st.booleans()):
                edge = fuse_ops.ELEMWISE
            consumers[producer].append(node)
            edge_patterns[producer].append(edge)
    external = [not consumers[n] or draw(st.integers(0, 19)) == 0 for n in range(count)]
    return fuse_ops._ForwardGraph(pattern, consumers, edge_patterns, external)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forward_graphs(), st.sampled_from([256, 1, 2, 3, 4, 6, 10, 20]))
def test_partitioner_matches_tvm_on_random_graphs(graph, max_depth: int):
    expected_parent, expected_pattern = _reference_post_dominators(graph)
    try:
        expected = _reference_partition(graph, expected_parent, expected_pattern, max_depth)
    except AssertionError:
        assume(False)  # TVM's "cannot merge two complex groups": not a valid graph
    tree = fuse_ops._post_dominators(graph)
    assert tree.parent == expected_parent
    assert [p for n, p in enumerate(tree.pattern) if tree.parent[n] is not None] == [
        p for n, p in enumerate(expected_pattern) if expected_parent[n] is not None
    ]
    assert fuse_ops._Partitioner(graph, tree, max_depth).partition(2) == expected


def _graph(count: int, edges: list[tuple[int, int, int]]) -> fuse_ops._ForwardGraph:
    """A graph of elementwise nodes with (producer, consumer, pattern) edges; last node is out."""
    consumers: list[list[int]] = [[] for _ in range(count)]
    edge_patterns: list[list[int]] = [[] for _ in range(count)]
    for producer, consumer, pattern in edges:
        consumers[producer].append(consumer)
        edge_patterns[producer].append(pattern)
    external = [node == count - 1 for node in range(count)]
    return fuse_ops._ForwardGraph([fuse_ops.ELEMWISE] * count, consumers, edge_patterns, external)


@pytest.mark.parametrize("length", [1, 2, 3, 4, 7, 8, 15, 16, 31, 40])
def test_post_dominator_pattern_spans_long_paths(length: int):
    # The strongest edge anywhere on the paths to the post-dominator counts,
    # however far the jump pointers skip.
    elem, strong = fuse_ops.ELEMWISE, fuse_ops.INJECTIVE
    for position in range(length):
        # A chain 1..length after node 0, which also feeds the chain's end.
        sink = length + 1
        edges = [(0, 1, elem), (0, sink, elem)]
        edges += [(n, n + 1, strong if n == position + 1 else elem) for n in range(1, sink)]
        edges.append((sink, sink + 1, elem))
        graph = _graph(sink + 2, edges)
        tree = fuse_ops._post_dominators(graph)
        parent, pattern = _reference_post_dominators(graph)
        assert tree.parent == parent and tree.parent[0] == sink
        assert tree.pattern[0] == pattern[0] == strong
        # Two parallel chains 1..length and length+1..2*length, joined at the end.
        sink = 2 * length + 1
        edges = [(0, 1, elem), (0, length + 1, elem)]
        edges += [(n, n + 1, elem) for n in range(1, length)]
        edges += [(n, n + 1, elem) for n in range(length + 1, 2 * length)]
        edges += [(length, sink, elem), (2 * length, sink, elem), (sink, sink + 1, elem)]
        edges = [
            (a, b, strong if (a, b) == (length + 1 + position, length + 2 + position) else p)
            for a, b, p in edges
        ]
        graph = _graph(sink + 2, edges)
        tree = fuse_ops._post_dominators(graph)
        parent, pattern = _reference_post_dominators(graph)
        assert tree.parent == parent and tree.parent[0] == sink
        assert tree.pattern[0] == pattern[0] == strong


def _reference_post_dominators(graph) -> tuple[list[int | None], list[int]]:
    """TVM's DominatorTree::PostDom, walking up the tree one node at a time."""
    count = graph.size
    parent: list[int | None] = [None] * count
    depth = [0] * count
    pattern = [fuse_ops.OPAQUE] * count

    def lca(lhs, rhs, acc):
        while lhs != rhs:
            if lhs is None or rhs is None:
                return None, acc
            if depth[lhs] < depth[rhs]:
                acc = max(acc, pattern[rhs])
                rhs = parent[rhs]
            elif depth[rhs] < depth[lhs]:
                acc = max(acc, pattern[lhs])
                lhs = parent[lhs]
            else:
                acc = max(acc, pattern[lhs], pattern[rhs])
                lhs, rhs = parent[lhs], parent[rhs]
        return lhs, acc

    for node in reversed(range(count)):
        if graph.external[node]:
            parent[node], depth[node], pattern[node] = None, 1, fuse_ops.OPAQUE
            continue
        up, acc = None, fuse_ops.ELEMWISE
        for i, (consumer, edge) in enumerate(zip(graph.consumers[node], graph.edge_patterns[node])):
            if i == 0:
                up = consumer
            else:
                up, acc = lca(up, consumer, acc)
            acc = max(acc, edge)
        parent[node] = up
        depth[node] = depth[up] + 1 if up is not None else 1
        pattern[node] = acc
    return parent, pattern


def _reference_partition(graph, dom_parent, dom_pattern, max_depth) -> list[int]:
    """TVM's GraphPartitioner::Partition at opt_level 2, without shortcuts."""
    from relay_xdsl.transforms.fuse_ops import (
        BROADCAST,
        COMM_REDUCE,
        ELEMWISE,
        INJECTIVE,
        OPAQUE,
        OUT_ELEMWISE_FUSABLE,
        TUPLE,
    )

    count = graph.size
    group_parent: list[int | None] = [None] * count
    group_pattern = list(graph.pattern)
    anchor = [p == OUT_ELEMWISE_FUSABLE for p in graph.pattern]
    size = [1] * count

    def find(node):
        while group_parent[node] is not None:
            node = group_parent[node]
        return node

    def count_upto_sink(src, sink, visited):
        if src == sink or src in visited:
            return 0
        visited.add(src)
        return size[src] + sum(count_upto_sink(c, sink, visited) for c in graph.consumers[src])

    def check_path_(src, sink, cond, visited):
        if src in visited:
            return True
        visited.add(src)
        if not cond(group_pattern[find(src)], src == sink):
            return False
        if src == sink:
            return True
        return all(check_path_(c, sink, cond, visited) for c in graph.consumers[src])

    def check_path(src, sink, cond):
        visited: set[int] = set()
        return all(check_path_(c, sink, cond, visited) for c in graph.consumers[src])

    def merge(child, parent):
        child, parent = find(child), find(parent)
        if child == parent:
            return
        size[parent] += size[child]
        group_parent[child] = parent
        if anchor[child]:
            assert not anchor[parent]
            anchor[parent] = True
            group_pattern[parent] = max(group_pattern[child], group_pattern[parent])

    def commit_(src, sink, target, visited):
        if src == sink or src in visited:
            return
        visited.add(src)
        merge(src, target)
        for c in graph.consumers[src]:
            commit_(c, sink, target, visited)

    def commit(src, sink):
        commit_(src, sink, sink, set())

    def into_anchor(kind, is_sink):
        if not is_sink:
            return kind <= INJECTIVE
        return kind <= BROADCAST or kind in (COMM_REDUCE, INJECTIVE, OUT_ELEMWISE_FUSABLE)

    def injective(kind, is_sink):
        return kind <= INJECTIVE

    def broadcast(kind, is_sink):
        return kind <= BROADCAST

    for phase in range(3):
        for node in range(count):
            pattern = group_pattern[node]
            sink = dom_parent[node]
            if pattern == OPAQUE or sink is None:
                continue
            if size[find(sink)] + count_upto_sink(node, sink, set()) > max_depth:
                continue
            if phase == 2:
                if pattern > INJECTIVE:
                    continue
                root = find(sink)
                if group_pattern[root] == TUPLE:
                    continue
                if (
                    group_pattern[sink] == TUPLE
                    and group_pattern[root] <= INJECTIVE
                    and check_path(node, sink, injective)
                ):
                    commit(node, sink)
                continue
            if find(node) == find(sink) or group_pattern[sink] == TUPLE:
                continue
            if pattern == OUT_ELEMWISE_FUSABLE:
                fuse = (
                    phase == 0
                    and dom_pattern[node] == ELEMWISE
                    and check_path(node, sink, broadcast)
                )
            elif pattern <= BROADCAST:
                fuse = (
                    dom_pattern[node] <= INJECTIVE or dom_pattern[node] == COMM_REDUCE
                ) and check_path(node, sink, into_anchor)
            elif pattern in (INJECTIVE, TUPLE):
                fuse = phase == 1 and check_path(node, sink, injective)
            else:
                fuse = False
            if fuse:
                commit(node, sink)
    return [find(node) for node in range(count)]


# ---------------------------------------------------------------------------
# Scale
# ---------------------------------------------------------------------------


def _exp_chain(length: int) -> ModuleOp:
    tensor = TensorType(f32, [4, 4])
    block = Block(arg_types=[tensor])
    value = block.args[0]
    for _ in range(length):
        op = relay.ExpOp([value], tensor)
        block.add_op(op)
        value = op.result
    block.add_op(ReturnOp(value))
    return ModuleOp([FuncOp("main", ([tensor], [tensor]), Region(block))])


def test_long_chain_fuses_without_recursion():
    module = _exp_chain(20_000)
    before = str(module)
    _fuse(module)
    main = module.body.block.first_op
    assert isinstance(main, FuncOp)
    sizes = [len(op.body.block.ops) - 1 for op in main.body.block.ops if isinstance(op, relay.FnOp)]
    # Cut after every 256 nodes, as TVM's max_depth does.
    assert sizes == [256] * 78 + [20_000 - 256 * 78]
    _defuse(module)
    assert str(module) == before
