"""A drawing (graph.py) as Google Model Explorer's graph (``model_explorer.graph_builder``).

* operators, inputs, outputs, tuples and calls are ``GraphNode``s; their
  ``attrs`` are the Relay attributes, the result type and the collapsed
  constant inputs; ``outputsMetadata`` gives the output's ``tensor_shape``
  (``float32[1,64,56,56]``), which Model Explorer shows on edges;
* each ``relay.fn`` is a layer: a namespace segment named by its Composite
  name, or ``fused_<operators>`` for a Primitive function, with a number
  that tells groups of the same name apart (``ccompiler.conv_add_relu_1``).
  The layer's attributes (``groupNodeAttributes``) list its operators and
  its Relay attributes; layers of the same name share a colour, the same as
  in the Graphviz picture;
* ``main``'s nodes are at the top level; every other global function
  (PartitionGraph's ``Compiler`` functions) is a layer ``@name`` of its
  own, so its composites are nested layers inside it, and each
  ``func.call`` has an edge into the function it calls.

Needs the ``viz`` extra (``ai-edge-model-explorer``).
"""

from __future__ import annotations

import re
from collections import Counter

from model_explorer.graph_builder import (
    Graph as ExplorerGraph,
)
from model_explorer.graph_builder import (
    GraphNode,
    GroupNodeConfig,
    IncomingEdge,
    KeyValue,
    MetadataItem,
)
from model_explorer.types import ModelExplorerGraphs
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.viz.graph import GROUP_KINDS, Cluster, Graph, Node, colour, extract


def _segment(text: str) -> str:
    """A namespace segment: no ``/``, which separates segments."""
    return text.replace("/", "∕")


class _Namespaces:
    """The namespace path of each cluster, with numbered group names."""

    def __init__(self, graph: Graph):
        self.paths: dict[Cluster, str] = {}
        seen: Counter[str] = Counter()
        for cluster in graph.clusters:  # parents come before their children
            if cluster.kind in GROUP_KINDS:
                segment = f"{_segment(cluster.name)}_{seen[cluster.name]}"
                seen[cluster.name] += 1
            elif cluster.kind in ("global", "compiler"):
                segment = "" if cluster.name == "@main" else _segment(cluster.name)
            else:
                segment = _segment(cluster.name) + f"_{seen[cluster.name]}"
                seen[cluster.name] += 1
            parent = self.paths.get(cluster.parent, "") if cluster.parent else ""
            self.paths[cluster] = "/".join(s for s in (parent, segment) if s)

    def of(self, node: Node) -> str:
        return self.paths[node.cluster] if node.cluster is not None else ""


def _tensor_shape(type_text: str) -> str:
    """``1x64x56x56 f32`` as Model Explorer spells shapes: ``float32[1,64,56,56]``."""
    match = re.fullmatch(r"(?:([\d?x]+) )?([a-z]+)(\d+)", type_text)
    if not match:
        return type_text
    shape, kind, width = match.groups()
    dtype = {"f": "float", "i": "int", "u": "uint", "bf": "bfloat"}.get(kind, kind) + width
    if dtype == "int1":
        dtype = "bool"
    return f"{dtype}[{','.join(shape.split('x')) if shape else ''}]"


def explorer_graph(graph: Graph, graph_id: str) -> ExplorerGraph:
    """`graph` as one Model Explorer graph named `graph_id`."""
    namespaces = _Namespaces(graph)
    nodes: dict[Node, GraphNode] = {}
    for node in graph.nodes:
        attrs = [KeyValue(key, value) for key, value in node.attributes]
        constants = [d for d in node.details if d.startswith("const ")]
        attrs += [
            KeyValue(f"constant {i}", c.removeprefix("const ")) for i, c in enumerate(constants)
        ]
        if node.result_type:
            attrs.append(KeyValue("type", node.result_type))
        outputs = (
            [MetadataItem("0", [KeyValue("tensor_shape", _tensor_shape(node.result_type))])]
            if node.result_type and not node.result_type.startswith("(")
            else []
        )
        nodes[node] = GraphNode(
            id=node.id,
            label=node.label,
            namespace=namespaces.of(node),
            attrs=attrs,
            outputsMetadata=outputs,
        )
    for edge in graph.edges:
        nodes[edge.target].incomingEdges.append(
            IncomingEdge(edge.source.id, "0", str(edge.target_input))
        )
    layers: dict[str, dict[str, str]] = {}
    configs: dict[str, GroupNodeConfig] = {}
    for cluster, path in namespaces.paths.items():
        if not path:
            continue
        layers[path] = {
            "name": cluster.name,
            "kind": cluster.kind,
            **({"operators": ", ".join(cluster.operators)} if cluster.operators else {}),
            **dict(cluster.attributes),
        }
        if cluster.kind in GROUP_KINDS:
            pattern = re.escape(_segment(cluster.name)) + r"_\d+$"
            configs.setdefault(
                cluster.name,
                GroupNodeConfig(
                    namespaceRegex=f"(^|/){pattern}",
                    backgroundColor=colour(cluster.name),
                    borderColor="#808080",
                ),
            )
    return ExplorerGraph(
        id=graph_id,
        nodes=list(nodes.values()),
        groupNodeAttributes=layers,
        groupNodeConfigs=list(configs.values()) or None,
    )


def explorer_graphs(module: ModuleOp, name: str) -> ModelExplorerGraphs:
    """What Model Explorer's adapter returns for `module` (a file called `name`)."""
    return {"graphs": [explorer_graph(extract(module), name)]}
