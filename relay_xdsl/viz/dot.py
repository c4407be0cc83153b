"""Graphviz DOT text of a drawing (graph.py), and its rendering by ``dot``.

The text is deterministic: the same module gives the same DOT, so pictures
can be regenerated and compared. Clusters carry ids that survive into the
SVG (``<g id="fn_3" class="cluster">``): ``global_N`` for functions,
``fn_N`` for ``relay.fn`` groups, ``region_N`` for other regions; nodes are
``nN``. Two drawings side by side (before/after) are two top-level clusters
``side_0`` and ``side_1``; their ids start with ``a.`` and ``b.``.

Rendering runs the ``dot`` binary (Debian's ``graphviz`` package) with a
time limit, so that a graph too large to lay out fails with a message
instead of hanging.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import defaultdict
from collections.abc import Sequence

from relay_xdsl.viz.graph import Cluster, Graph, Node, colour

SIDE_PREFIXES = ("a.", "b.")
"""Id prefixes of the drawings drawn side by side, in order."""

EDGE_LABEL_LIMIT = 500
"""Above this many edges, shapes are external labels (``xlabel``): Graphviz
places those after the layout, where ordinary edge labels take part in it and
make laying out a few thousand nodes a hundred times slower."""

LARGE_GRAPH_NODES = 1000
"""Above this many nodes, Graphviz is told to lay out cheaply (``LARGE_GRAPH_LAYOUT``)."""

LARGE_GRAPH_LAYOUT = "mclimit=0.05, nslimit=0.05, nslimit1=0.05, remincross=false"
"""Graphviz settings for large drawings: few passes of crossing minimisation
(``mclimit``) and of network simplex for ranks and coordinates (``nslimit1``,
``nslimit``), and no second crossing minimisation with the clusters in place.
A model's fused graph, a column of groups, loses little by it; Graphviz's
default passes take a minute on a chain of 10,000 operators."""

DEFAULT_MAX_NODES = 5000
"""The largest drawing ``relay-xdsl view`` renders unless told otherwise
(``--max-nodes 0``: no limit): Graphviz lays it out in seconds."""

DEFAULT_TIMEOUT = 120.0
"""Seconds ``dot`` may take before rendering gives up."""

INSTALL_HINT = (
    "install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz)"
)

_NODE_STYLES = {
    "operator": 'shape=box, style="rounded,filled", fillcolor="#ffffff"',
    "input": 'shape=oval, style=filled, fillcolor="#e8e8e8"',
    "output": 'shape=oval, style=filled, fillcolor="#e8e8e8"',
    "constant": 'shape=note, style=filled, fillcolor="#f4f4f4", fontsize=8',
    "call": 'shape=cds, style=filled, fillcolor="#dde3f7"',
    "structure": 'shape=box, style="rounded,dashed", fontsize=8',
    "group": "shape=box3d, style=filled",
}


class RenderError(Exception):
    """``dot`` is missing, failed or took too long."""


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _node_line(node: Node) -> str:
    label = "\n".join([node.label, *node.details])
    tooltip = "\n".join(
        [
            node.label,
            *(f"{k} = {v}" for k, v in node.attributes),
            *node.details[len(node.attributes) :],
        ]
    )
    if node.result_type:
        tooltip += f"\n: {node.result_type}"
    style = _NODE_STYLES[node.kind]
    if node.kind == "group":
        style += f", fillcolor={_quote(colour(node.label))}"
    return f"{_quote(node.id)} [id={_quote(node.id)}, label={_quote(label)}, tooltip={_quote(tooltip)}, {style}]"


def _cluster_attributes(cluster: Cluster) -> list[str]:
    tooltip = "\n".join([cluster.name, *(f"{k} = {v}" for k, v in cluster.attributes)])
    lines = [
        f"id={_quote(cluster.id)}",
        f"label={_quote(cluster.name)}",
        f"tooltip={_quote(tooltip)}",
    ]
    if cluster.kind in ("composite", "primitive", "fn"):
        lines += [
            'style="rounded,filled"',
            f"fillcolor={_quote(colour(cluster.name))}",
            'color="#808080"',
        ]
    elif cluster.kind == "compiler":
        label = cluster.name + "".join(f"\n{k} = {v}" for k, v in cluster.attributes)
        lines += ['style="filled"', 'fillcolor="#f5f5f5"', 'color="#606060"']
        lines[1] = f"label={_quote(label)}"
    elif cluster.kind == "global":
        lines += ['style="dashed"', 'color="#a0a0a0"']
    else:
        lines += ['style="dotted"']
    return lines


def _body(graph: Graph, indent: str, label: str, unboxed: Cluster | None = None) -> list[str]:
    """The clusters, nodes and edges of `graph`, nested as the clusters nest;
    the contents of `unboxed` are drawn without its box."""
    children: dict[Cluster | None, list[Cluster]] = defaultdict(list)
    for cluster in graph.clusters:
        children[cluster.parent].append(cluster)
    members: dict[Cluster | None, list[Node]] = defaultdict(list)
    for node in graph.nodes:
        members[node.cluster].append(node)
    lines: list[str] = []

    def emit(cluster: Cluster | None, depth: str) -> None:
        for node in members[cluster]:
            lines.append(depth + _node_line(node))
        for child in children[cluster]:
            if child is unboxed:
                emit(child, depth)
                continue
            lines.append(f"{depth}subgraph {_quote('cluster_' + child.id)} {{")
            lines.extend(f"{depth}  {line};" for line in _cluster_attributes(child))
            emit(child, depth + "  ")
            lines.append(f"{depth}}}")

    emit(None, indent)
    for edge in graph.edges:
        attributes = f"{label}={_quote(edge.label)}"
        if edge.kind == "call":
            attributes += ', style=dashed, color="#5060c0", fontcolor="#5060c0", constraint=false'
        lines.append(f"{indent}{_quote(edge.source.id)} -> {_quote(edge.target.id)} [{attributes}]")
    return lines


def dot_text(drawings: Sequence[tuple[str, Graph]]) -> str:
    """DOT for one drawing, or for several side by side, each in a cluster titled
    by its name (ids prefixed as ``SIDE_PREFIXES`` says)."""
    lines = [
        "digraph relay {",
        '  graph [fontname="Helvetica", fontsize=11, newrank=true, nodesep=0.25, ranksep=0.35];',
        '  node [fontname="Helvetica", fontsize=9, height=0.3, margin="0.08,0.03"];',
        '  edge [fontname="Helvetica", fontsize=7, color="#606060", arrowsize=0.6];',
    ]
    edges = sum(len(graph.edges) for _, graph in drawings)
    label = "label" if edges <= EDGE_LABEL_LIMIT else "xlabel"
    large = sum(len(graph.nodes) for _, graph in drawings) > LARGE_GRAPH_NODES
    if large:
        lines.append(f"  graph [{LARGE_GRAPH_LAYOUT}];")
    if len(drawings) == 1:
        graph = drawings[0][1]
        lone = _lone_function(graph) if large else None
        if lone is not None:
            lines.append(f'  label={_quote(lone.name)}; labelloc="t";')
        lines += _body(graph, "  ", label, unboxed=lone)
    else:
        for index, (title, graph) in enumerate(drawings):
            lines.append(f"  subgraph cluster_side_{index} {{")
            lines.append(f"    id={_quote(f'side_{index}')}; label={_quote(title)}; fontsize=14;")
            lines.append('    style="solid"; color="#ffffff";')
            lines += _body(graph, "    ", label)
            lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _lone_function(graph: Graph) -> Cluster | None:
    """The module's function, if it is its only top-level cluster.

    A large drawing shows it without a box, titled by its name: Graphviz's
    crossing minimisation with a cluster that spans thousands of ranks takes
    seconds to minutes where the same graph without the box takes a fraction
    of a second.
    """
    top = [cluster for cluster in graph.clusters if cluster.parent is None]
    if len(top) == 1 and top[0].kind in ("global", "compiler"):
        return top[0]
    return None


def dot_binary() -> str | None:
    """The path of Graphviz's ``dot``, if installed."""
    return shutil.which("dot")


def render(dot: str, output_format: str = "svg", timeout: float = DEFAULT_TIMEOUT) -> str:
    """`dot` laid out and drawn by Graphviz, in `output_format` (``svg``)."""
    binary = dot_binary()
    if binary is None:
        raise RenderError(f"Graphviz's 'dot' is not installed: {INSTALL_HINT}")
    try:
        done = subprocess.run(
            [binary, f"-T{output_format}"],
            input=dot,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RenderError(f"Graphviz took longer than {timeout:g} s to lay out the graph") from None
    if done.returncode != 0:
        raise RenderError(f"Graphviz failed: {done.stderr.strip()}")
    return done.stdout
