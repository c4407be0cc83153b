"""The drawing's content: a relay-dialect module as nodes, edges and nested groups.

Both pictures (``dot.py`` for Graphviz, ``explorer.py`` for Model Explorer)
draw this one extraction, so they show the same groups:

* each operator call (``relay.nn.conv2d``, ``relay.op "..."``) is a node with
  its name and its non-default attributes; ``relay.tuple``,
  ``relay.tuple_get_item`` and ``func.call`` are small nodes too;
* each ``relay.fn`` is a :class:`Cluster` named by its ``Composite`` name,
  or for a ``Primitive`` function by its operators as TVM names fused
  functions (``fused_nn_conv2d_add_nn_relu``); its parameters are not
  nodes: an edge runs from the argument's producer straight to the
  operator inside that reads the parameter;
* each ``func.func`` is a cluster of kind ``global`` (``compiler`` when it
  carries PartitionGraph's ``Compiler``) with its parameters as input nodes
  and ``func.return`` as an output node; a ``func.call`` links to its callee;
* ``relay.let`` is looked through, as its variable is its value;
* constants are collapsed: the operator that reads one lists its type
  (``const 64x3x7x7 f32``) instead of an edge from a constant node, unless
  ``constants=True`` asks for constant nodes;
* with ``collapse=True`` each ``relay.fn`` is drawn as one node listing its
  operators, for graphs too large to draw in full.

Edges carry the type of the value (``1x64x56x56 f32``).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from relay_xdsl.dialects import relay

ClusterKind = Literal["composite", "primitive", "fn", "global", "compiler", "region"]
NodeKind = Literal["operator", "input", "output", "constant", "call", "structure", "group"]

GROUP_KINDS: tuple[ClusterKind, ...] = ("composite", "primitive", "fn")
"""Kinds of the clusters drawn for ``relay.fn`` ops."""

MAX_LABEL_ATTRIBUTES = 4
"""Attributes shown on a node; all of them are in its tooltip."""


@dataclass(eq=False)
class Cluster:
    """A group of nodes: a ``relay.fn``, a global function or a nested region."""

    id: str
    name: str
    kind: ClusterKind
    parent: Cluster | None
    attributes: list[tuple[str, str]] = field(default_factory=list)
    operators: list[str] = field(default_factory=list)
    """Names of the operators directly inside, in order."""

    @property
    def path(self) -> list[Cluster]:
        """The enclosing clusters, outermost first, ending with this one."""
        chain: list[Cluster] = []
        cluster: Cluster | None = self
        while cluster is not None:
            chain.append(cluster)
            cluster = cluster.parent
        return chain[::-1]


@dataclass(eq=False)
class Node:
    """An operator call or a structural value (input, output, tuple, call)."""

    id: str
    label: str
    kind: NodeKind
    cluster: Cluster | None
    details: list[str] = field(default_factory=list)
    """Short lines under the label: attributes and collapsed constant inputs."""
    attributes: list[tuple[str, str]] = field(default_factory=list)
    """Every attribute, spelled out."""
    result_type: str = ""


@dataclass(eq=False)
class Edge:
    source: Node
    target: Node
    label: str
    target_input: int = 0
    kind: Literal["data", "call"] = "data"


@dataclass
class Graph:
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    clusters: list[Cluster] = field(default_factory=list)

    def groups(self) -> list[Cluster]:
        """The clusters drawn for ``relay.fn`` ops."""
        return [c for c in self.clusters if c.kind in GROUP_KINDS]


@dataclass(frozen=True)
class _Constant:
    """A collapsed constant: what the reading operator lists."""

    text: str


_Source = Node | _Constant | None


def type_text(type_: Attribute) -> str:
    """A short spelling of a Relay type: ``1x64x56x56 f32``, ``(4 f32, 4 f32)``."""
    if isinstance(type_, TensorType):
        shape = "x".join("?" if d < 0 else str(d) for d in type_.get_shape())
        element = type_.element_type
        if isinstance(element, IntegerType):
            unsigned = element.signedness.data == Signedness.UNSIGNED
            dtype = f"{'u' if unsigned else 'i'}{element.width.data}"
        else:
            dtype = str(element)
        return f"{shape} {dtype}" if shape else dtype
    if isinstance(type_, TupleType):
        return "(" + ", ".join(type_text(t) for t in type_.types.data) + ")"
    return str(type_)


def attribute_text(attr: Attribute, limit: int | None = None) -> str:
    """An attribute's value as Relay writes it: ``[2, 2]``, ``64``, ``"NCHW"``."""
    value = relay.attr_value(attr)
    if isinstance(value, tuple | list):
        text = "[" + ", ".join(str(v) for v in value) + "]"
    elif isinstance(value, str):
        text = f'"{value}"'
    else:
        text = str(value)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def group_name(fn: relay.FnOp, operators: list[str]) -> tuple[str, ClusterKind]:
    """The name a ``relay.fn`` is drawn with, and its kind."""
    composite = fn.attributes.get("Composite")
    if isinstance(composite, StringAttr):
        return composite.data, "composite"
    if "Primitive" in fn.attributes:
        return "fused_" + "_".join(op.replace(".", "_") for op in operators), "primitive"
    return "fn", "fn"


def colour(name: str) -> str:
    """A pastel fill for group `name`: the same name has the same colour in every picture."""
    return _PALETTE[zlib.crc32(name.encode()) % len(_PALETTE)]


_PALETTE = (
    "#fde2c4",
    "#c9e4f5",
    "#d4eed1",
    "#f6d0e0",
    "#e3d7f3",
    "#fff2b3",
    "#cdeee9",
    "#f3d6c9",
    "#dfe8c3",
    "#d6dcf5",
    "#f0dcb8",
    "#e8cfe9",
)


class _Extractor:
    def __init__(self, prefix: str, constants: bool, collapse: bool):
        self.prefix = prefix
        self.show_constants = constants
        self.collapse = collapse
        self.graph = Graph()
        self.sources: dict[SSAValue, _Source] = {}
        self.globals: dict[str, Cluster] = {}
        self.entries: dict[str, Node] = {}
        self.calls: list[tuple[Node, str]] = []
        self.counter = 0

    def _id(self, stem: str) -> str:
        self.counter += 1
        return f"{self.prefix}{stem}{self.counter}"

    def _cluster(self, name: str, kind: ClusterKind, parent: Cluster | None, stem: str) -> Cluster:
        cluster = Cluster(self._id(stem), name, kind, parent)
        self.graph.clusters.append(cluster)
        return cluster

    def _node(
        self,
        label: str,
        kind: NodeKind,
        cluster: Cluster | None,
        result: Attribute | None = None,
    ) -> Node:
        node = Node(
            self._id("n"), label, kind, cluster, result_type=type_text(result) if result else ""
        )
        self.graph.nodes.append(node)
        if kind == "operator" and cluster is not None:
            cluster.operators.append(label)
        return node

    def _connect(self, node: Node, operands: Iterable[SSAValue]) -> None:
        for index, operand in enumerate(operands):
            source = self.sources.get(operand)
            if isinstance(source, Node):
                self.graph.edges.append(Edge(source, node, type_text(operand.type), index))
            elif isinstance(source, _Constant):
                node.details.append(source.text)

    def module(self, module: ModuleOp) -> Graph:
        for op in module.ops:
            if isinstance(op, FuncOp):
                self.function(op)
            else:
                self.operation(op, None)
        for call, callee in self.calls:
            entry = self.entries.get(callee)
            if entry is not None:
                self.graph.edges.append(Edge(call, entry, "calls", kind="call"))
        return self.graph

    def function(self, func: FuncOp) -> None:
        name = func.sym_name.data
        compiler = func.attributes.get("Compiler")
        kind: ClusterKind = "compiler" if compiler is not None else "global"
        cluster = self._cluster(f"@{name}", kind, None, "global_")
        cluster.attributes = [
            (key, attribute_text(value))
            for key, value in func.attributes.items()
            if key not in ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
        ]
        if func.body.blocks:
            block = func.body.block
            for arg in block.args:
                node = self._node(_value_name(arg), "input", cluster, arg.type)
                self.sources[arg] = node
                self.entries.setdefault(name, node)
            self.block(block, cluster)
        if name not in self.entries:
            self.entries[name] = self._node(f"@{name}", "structure", cluster)

    def block(self, block: Block, cluster: Cluster | None) -> None:
        for op in block.ops:
            self.operation(op, cluster)

    def operation(self, op: Operation, cluster: Cluster | None) -> None:
        if isinstance(op, relay.ConstantOp):
            text = _constant_text(op)
            if self.show_constants:
                node = self._node(text, "constant", cluster, op.result.type)
                self.sources[op.result] = node
            else:
                self.sources[op.result] = _Constant(text)
        elif isinstance(op, relay.OperatorOp):
            node = self._node(op.operator_name, "operator", cluster, op.result.type)
            attributes = op.non_default_attributes()
            node.attributes = [(k, attribute_text(v)) for k, v in attributes]
            node.details = [
                f"{k}={attribute_text(v, 24)}" for k, v in attributes[:MAX_LABEL_ATTRIBUTES]
            ]
            if len(attributes) > MAX_LABEL_ATTRIBUTES:
                node.details.append("…")
            self._connect(node, op.args)
            self.sources[op.result] = node
        elif isinstance(op, relay.FnOp):
            self.fn(op, cluster)
        elif isinstance(op, relay.LetOp):
            self.sources[op.result] = self.sources.get(op.value)
        elif isinstance(op, relay.ReturnOp):
            pass  # the relay.fn's result is resolved by `fn`
        elif isinstance(op, ReturnOp):
            node = self._node("return", "output", cluster)
            self._connect(node, op.arguments)
        elif isinstance(op, relay.TupleOp):
            node = self._node("tuple", "structure", cluster, op.result.type)
            self._connect(node, op.operands)
            self.sources[op.result] = node
        elif isinstance(op, relay.TupleGetItemOp):
            node = self._node(f".{op.index.value.data}", "structure", cluster, op.result.type)
            self._connect(node, op.operands)
            self.sources[op.result] = node
        elif isinstance(op, CallOp):
            callee = op.callee.string_value()
            node = self._node(f"call @{callee}", "call", cluster)
            self._connect(node, op.arguments)
            for result in op.results:
                self.sources[result] = node
            self.calls.append((node, callee))
        else:
            self.other(op, cluster)

    def fn(self, op: relay.FnOp, parent: Cluster | None) -> None:
        if self.collapse:
            operators = [o.operator_name for o in op.body.walk() if isinstance(o, relay.OperatorOp)]
            name, _ = group_name(op, operators)
            node = self._node(name, "group", parent, op.result.type)
            node.details = [", ".join(operators)] if operators else []
            node.attributes = [(k, attribute_text(v)) for k, v in op.attributes.items()]
            self._connect(node, op.args)
            self.sources[op.result] = node
            return
        cluster = self._cluster("fn", "fn", parent, "fn_")
        drawn = len(self.graph.nodes)
        for param, arg in zip(op.params, op.args):
            self.sources[param] = self.sources.get(arg)
        self.block(op.body.block, cluster)
        terminator = op.body.block.last_op
        if isinstance(terminator, relay.ReturnOp):
            self.sources[op.result] = self.sources.get(terminator.value)
        if len(self.graph.nodes) == drawn:
            # Graphviz draws no empty cluster; every relay.fn is shown.
            self._node("(no operators)", "structure", cluster)
        cluster.name, cluster.kind = group_name(op, cluster.operators)
        cluster.attributes = [(k, attribute_text(v)) for k, v in op.attributes.items()]

    def other(self, op: Operation, cluster: Cluster | None) -> None:
        """An op this drawing has no rule for: a node, its regions a cluster each."""
        node = self._node(op.name, "operator", cluster, op.results[0].type if op.results else None)
        node.attributes = [(k, attribute_text(v)) for k, v in op.attributes.items()]
        self._connect(node, op.operands)
        for result in op.results:
            self.sources[result] = node
        for region in op.regions:
            inner = self._cluster(op.name, "region", cluster, "region_")
            for block in region.blocks:
                self.block(block, inner)


def _value_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "%arg"


def _constant_text(op: relay.ConstantOp) -> str:
    type_ = op.result.type
    value = op.value
    if (
        isinstance(value, DenseIntOrFPElementsAttr)
        and isinstance(type_, TensorType)
        and not type_.get_shape()
    ):
        (scalar,) = value.get_values()
        return f"const {scalar} {type_text(type_)}"
    return f"const {type_text(type_)}"


def extract(
    module: ModuleOp, *, prefix: str = "", constants: bool = False, collapse: bool = False
) -> Graph:
    """The drawing of `module`; node and cluster ids start with `prefix`."""
    return _Extractor(prefix, constants, collapse).module(module)


def count_fn_ops(module: ModuleOp) -> int:
    """How many ``relay.fn`` ops `module` has: the groups its drawing must show."""
    return sum(1 for op in module.walk() if isinstance(op, relay.FnOp))
