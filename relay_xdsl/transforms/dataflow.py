"""The dataflow graph of a function body as TVM's passes see it.

Shared by ``relay-merge-composite`` and ``relay-fuse-ops``:

* `post_dfs_order`: the order in which TVM's ``ExprVisitor`` completes
  expressions (operands left to right, each once), and `post_dfs`, the
  same walk over numbered nodes;
* `post_dominators`: TVM's ``DominatorTree::PostDom`` over a graph of
  numbered nodes, with the strongest fusion pattern on the way;
* which functions the passes leave alone: `optimizable` (TVM's function
  passes, such as ``MergeComposite``), `fusable` (``FuseOps``), and
  `is_partition` (the outlined partitions ``relay-defuse`` may inline).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from relay_xdsl.dialects.relay import OpPattern

ELEMWISE = OpPattern.ELEMWISE.value
OPAQUE = OpPattern.OPAQUE.value

N = TypeVar("N", bound=Hashable)


# ---------------------------------------------------------------------------
# Which functions the passes work on
# ---------------------------------------------------------------------------

OPTIMIZATION_SKIPPING_ATTRIBUTES = ("Compiler", "Extern", "SkipOptimization")
"""Global function attributes that make TVM's function passes skip a function."""
FUSION_SKIPPING_ATTRIBUTES = ("Primitive", "Extern", "SkipOptimization")
"""Function attributes that, when nonzero, make FuseOps leave a function alone
(as do a ``Compiler`` name), TVM's ``AsOptimizableFunctionNode``."""
PARTITION_ATTRIBUTES = ("Compiler", "Inline")
"""Attributes that mark a global function as an outlined partition to inline."""


def optimizable(attributes: Mapping[str, Attribute]) -> bool:
    """Whether TVM's function passes (``MergeComposite``) work on a global function.

    Any ``Compiler`` skips it, and so does an ``Extern`` or
    ``SkipOptimization`` that is not the integer 0.
    """
    for name in OPTIMIZATION_SKIPPING_ATTRIBUTES:
        attr = attributes.get(name)
        if attr is None:
            continue
        if name == "Compiler" or not isinstance(attr, IntegerAttr) or attr.value.data != 0:
            return False
    return True


def fusable(attributes: Mapping[str, Attribute]) -> bool:
    """Whether FuseOps works on a function or ``relay.fn`` with these attributes.

    A ``Compiler`` string skips it, and so does a nonzero integer
    ``Primitive``, ``Extern`` or ``SkipOptimization``.
    """
    if isinstance(attributes.get("Compiler"), StringAttr):
        return False
    return not any(_nonzero(attributes.get(k)) for k in FUSION_SKIPPING_ATTRIBUTES)


def _nonzero(attribute: Attribute | None) -> bool:
    return isinstance(attribute, IntegerAttr) and attribute.value.data != 0


def is_partition(func: FuncOp) -> bool:
    """Whether `func` is an outlined partition (``Compiler`` or ``Inline``)."""
    return any(name in func.attributes for name in PARTITION_ATTRIBUTES)


# ---------------------------------------------------------------------------
# Post-DFS order
# ---------------------------------------------------------------------------


def post_dfs_order(
    roots: Iterable[Operation],
    scope: Container[object],
    enter: Callable[[Operation], Iterable[Operation]] | None = None,
) -> list[Operation]:
    """The operations reachable from `roots`, in the order TVM's ``ExprVisitor`` completes them.

    Each root not yet visited is visited in turn; visiting an operation
    visits, depth first, the owners of its operands that are in `scope`,
    left to right, each once, then completes it. `enter(op)`, if given,
    runs when `op` is first reached, and what it returns is completed right
    away (a called ``relay.fn``'s body, which TVM visits before the
    arguments).
    """

    def producers(op: Operation) -> list[Operation]:
        owners = (operand.owner for operand in op.operands)
        return [o for o in owners if isinstance(o, Operation) and o in scope]

    return post_dfs(roots, producers, enter)


def post_dfs(
    roots: Iterable[N],
    producers: Callable[[N], Iterable[N]],
    enter: Callable[[N], Iterable[N]] | None = None,
) -> list[N]:
    """`post_dfs_order` over any nodes: `producers(node)` are the nodes that
    `node` reads, left to right (numbered nodes make the walk cheaper than
    operations, which xDSL hashes in Python)."""
    done: set[N] = set()
    order: list[N] = []
    for root in roots:
        if root in done:
            continue
        done.add(root)
        if enter is not None:
            order.extend(enter(root))
        stack = [(root, iter(producers(root)))]
        while stack:
            node, pending = stack[-1]
            for producer in pending:
                if producer not in done:
                    done.add(producer)
                    if enter is not None:
                        order.extend(enter(producer))
                    stack.append((producer, iter(producers(producer))))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


# ---------------------------------------------------------------------------
# Post-dominator tree
# ---------------------------------------------------------------------------


@dataclass
class PostDominatorTree:
    """Immediate post-dominator of each node (``None``: none) and the pattern on the way."""

    parent: list[int | None]
    depth: list[int]
    """1 for a node without a post-dominator, one more than its post-dominator's otherwise."""
    pattern: list[int]
    region_lower_bound: list[int]
    """A lower bound on the number of nodes from a node up to its post-dominator."""

    def strictly_post_dominates(self, dominator: int, node: int) -> bool:
        """Whether `dominator` is a proper ancestor of `node` in the tree."""
        parent, depth = self.parent, self.depth
        up = parent[node]
        while up is not None and depth[up] >= depth[dominator]:
            if up == dominator:
                return True
            up = parent[up]
        return False


def post_dominators(
    consumers: Sequence[Sequence[int]],
    edge_patterns: Sequence[Sequence[int]] | None = None,
    external: Sequence[bool] | None = None,
) -> PostDominatorTree:
    """TVM's ``DominatorTree::PostDom``: least common ancestors in reverse post-DFS order.

    Nodes are numbered in a topological order (every consumer after its
    producer). A node's immediate post-dominator is the least common
    ancestor of its consumers; an `external` node (used from outside the
    graph) and a node without consumers have none. The pattern on the way
    is the strongest of the edge patterns (default ``ELEMWISE``) and node
    patterns passed; an external node's is ``OPAQUE``.

    Node ``count`` is a virtual root standing for TVM's null parent; an LCA
    there means "no post-dominator". Jump pointers (Myers' skew-binary
    scheme) make each LCA O(log n); ``jump_max`` is the strongest node
    pattern skipped by a jump.
    """
    count = len(consumers)
    if edge_patterns is None:
        edge_patterns = [[ELEMWISE] * len(c) for c in consumers]
    if external is None:
        external = [False] * count
    root = count
    parent = [root] * (count + 1)
    depth = [0] * (count + 1)
    pattern = [ELEMWISE] * (count + 1)
    jump = [root] * (count + 1)
    jump_max = [ELEMWISE] * (count + 1)
    # The regions between successive post-dominators are disjoint, so the
    # region of a node holds its consumers' whole chains up to its
    # post-dominator; chain_sum[x] sums the bounds from x to the root.
    lower_bound = [1] * (count + 1)
    chain_sum = [0] * (count + 1)

    def lca(u: int, v: int, acc: int) -> tuple[int, int]:
        if depth[u] < depth[v]:
            u, v = v, u
        target = depth[v]
        while depth[u] > target:
            if depth[jump[u]] >= target:
                acc = max(acc, jump_max[u])
                u = jump[u]
            else:
                acc = max(acc, pattern[u])
                u = parent[u]
        while u != v:
            if jump[u] != jump[v]:
                acc = max(acc, jump_max[u], jump_max[v])
                u, v = jump[u], jump[v]
            else:
                acc = max(acc, pattern[u], pattern[v])
                u, v = parent[u], parent[v]
        return u, acc

    for node in reversed(range(count)):
        users = consumers[node]
        if external[node]:
            up, acc = root, OPAQUE
        elif not users:
            up, acc = root, ELEMWISE
        else:
            # The pattern is a maximum: the order of taking it does not matter.
            up, acc = users[0], max(ELEMWISE, *edge_patterns[node])
            for consumer in users[1:]:
                if up == root:
                    break
                up, acc = lca(up, consumer, acc)
        parent[node] = up
        depth[node] = depth[up] + 1
        pattern[node] = acc
        if up != root and len(users) > 1:  # a single consumer is `up`: the region is the node
            above = chain_sum[up]
            lower_bound[node] = 1 + max((chain_sum[c] - above for c in users if c != up), default=0)
        chain_sum[node] = lower_bound[node] + chain_sum[up]
        hop = jump[up]
        if up != root and depth[up] - depth[hop] == depth[hop] - depth[jump[hop]]:
            jump[node] = jump[hop]
            jump_max[node] = max(acc, jump_max[up], jump_max[hop])
        else:
            jump[node] = up
            jump_max[node] = acc
    return PostDominatorTree(
        [None if p == root else p for p in parent[:count]],
        depth[:count],
        pattern[:count],
        lower_bound[:count],
    )
