"""Pictures of a module's fused groups, as ``relay-xdsl view`` draws them.

``view FILE -o graph.svg`` draws Relay text or relay-dialect MLIR with
Graphviz (relay_xdsl/viz); ``view A B`` or ``--before A --after B`` draws two
modules side by side; ``--explorer`` opens the module in Google's Model
Explorer with relay-xdsl's adapter (tools/explorer). The format is
``--format``, else the output's suffix (``.dot``, ``.svg``, ``.html``), else
DOT on stdout.

Graphviz lays out graphs of a few thousand nodes in seconds but needs minutes
for tens of thousands: a graph with more than ``--max-nodes`` nodes is not
rendered (``--max-nodes 0``: no limit), and the message says how to draw less
(``--collapse`` draws each fused group as one node) or to raise the limit.
A large file is first sized from its text (viz/estimate.py), so that a graph
far too large is refused at once rather than after seconds of parsing.
``dot`` also runs under a time limit (``--timeout``). Without ``dot``
installed, the DOT text is still written, next to the requested output.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.tools.io import CommandError, load_input, read_input, write
from relay_xdsl.viz.dot import (
    INSTALL_HINT,
    SIDE_PREFIXES,
    RenderError,
    dot_binary,
    dot_text,
    render,
)
from relay_xdsl.viz.estimate import estimate
from relay_xdsl.viz.graph import Graph, extract
from relay_xdsl.viz.html import html_page

FORMATS = ("dot", "svg", "html")

SCAN_CHARS = 1_000_000
"""Files longer than this are sized from their text before they are parsed
(parsing a megabyte of MLIR takes about a second)."""


def _inputs(args: argparse.Namespace) -> list[Path]:
    files = list(args.inputs)
    if args.before or args.after:
        if not (args.before and args.after):
            raise CommandError("--before and --after go together")
        if files:
            raise CommandError("give either FILE arguments or --before/--after, not both")
        files = [args.before, args.after]
    if not 1 <= len(files) <= 2:
        raise CommandError("view draws one module, or two side by side (--before A --after B)")
    return files


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return str(args.format)
    if args.output is not None:
        suffix = args.output.suffix.lstrip(".")
        if suffix == "gv":
            return "dot"
        if suffix in FORMATS:
            return suffix
        raise CommandError(
            f"cannot tell the format from '{args.output.name}': use --format dot, svg or html"
        )
    return "dot"


def _title(files: list[Path]) -> str:
    return " → ".join(str(f) for f in files)


def drawings(
    modules: list[tuple[str, ModuleOp]], *, constants: bool = False, collapse: bool = False
) -> list[tuple[str, Graph]]:
    """The drawings of `modules` (title, module), prefixed for side-by-side when two."""
    if len(modules) == 1:
        title, module = modules[0]
        return [(title, extract(module, constants=constants, collapse=collapse))]
    return [
        (title, extract(module, prefix=prefix, constants=constants, collapse=collapse))
        for prefix, (title, module) in zip(SIDE_PREFIXES, modules)
    ]


def _fuse_first(files: list[Path]) -> str:
    fused = files[0].with_name(files[0].stem + "-fused.mlir")
    return f"fuse it first (xdsl-opt {files[0]} -p relay-fuse-ops -o {fused}) and use --collapse"


def too_large_text(files: list[Path], texts: list[tuple[str, str]], max_nodes: int) -> str | None:
    """Why the drawing of `texts` (text, format) is not rendered, judged from the
    text alone; None when it may be small enough (the drawing then decides)."""
    estimates = [estimate(text, format_) for text, format_ in texts]
    nodes = sum(e.nodes for e in estimates)
    if nodes <= max_nodes:
        return None
    groups = sum(e.groups for e in estimates)
    advice = [
        f"use --collapse to draw each of the {groups} fused groups as one node"
        if groups
        else _fuse_first(files),
        "use --max-nodes 0 to render it whatever its size (Graphviz may take minutes)",
        "use --format dot to write the DOT text without rendering it",
    ]
    return (
        f"the graph has at least {nodes} operators, more than --max-nodes {max_nodes}: "
        + "; or ".join(advice)
    )


def too_large(files: list[Path], graphs: list[tuple[str, Graph]], max_nodes: int) -> str | None:
    """Why the drawing of `files` is not rendered, or None when it is small enough."""
    nodes = sum(len(graph.nodes) for _, graph in graphs)
    if max_nodes <= 0 or nodes <= max_nodes:
        return None
    groups = sum(len(graph.groups()) for _, graph in graphs)
    collapsed = sum(1 for _, graph in graphs for node in graph.nodes if node.kind == "group")
    advice = [f"use --max-nodes {nodes} to render anyway (Graphviz may take minutes)"]
    if groups:
        advice.insert(0, f"use --collapse to draw each of the {groups} fused groups as one node")
    elif not collapsed:
        advice.insert(0, _fuse_first(files))
    advice.append("use --format dot to write the DOT text without rendering it")
    return f"the graph has {nodes} nodes, more than --max-nodes {max_nodes}: " + "; or ".join(
        advice
    )


def run_view(args: argparse.Namespace) -> None:
    files = _inputs(args)
    output_format = _format(args)
    if args.explorer:
        from relay_xdsl.tools.explorer.launch import launch

        launch(files, host=args.host, port=args.port, open_browser=not args.no_browser)
        return
    sources = [read_input(str(path)) for path in files]
    if (
        output_format != "dot"
        and not args.collapse
        and args.max_nodes > 0
        and sum(len(source.text) for source in sources) > SCAN_CHARS
    ):
        reason = too_large_text(files, [(s.text, s.format) for s in sources], args.max_nodes)
        if reason is not None:
            raise CommandError(reason)
    modules = [(str(path), load_input(source)) for path, source in zip(files, sources)]
    del sources  # the text of a large module is hundreds of megabytes
    graphs = drawings(modules, constants=args.constants, collapse=args.collapse)
    dot = dot_text(graphs)
    if output_format == "dot":
        write(args.output, dot)
        return
    reason = too_large(files, graphs, args.max_nodes)
    if reason is not None:
        raise CommandError(reason)
    if dot_binary() is None:
        fallback = args.output.with_suffix(".dot") if args.output else None
        write(fallback, dot)
        where = f"wrote {fallback}" if fallback else "wrote DOT to stdout"
        raise CommandError(f"Graphviz's 'dot' is not installed ({where}): {INSTALL_HINT}")
    try:
        svg = render(dot, "svg", timeout=args.timeout)
    except RenderError as error:
        raise CommandError(
            f"{error}; use --collapse to draw less, a longer --timeout, "
            "or --format dot to write the DOT text"
        ) from None
    if output_format == "html":
        write(args.output, html_page(_title(files), svg, [g for _, g in graphs]))
    else:
        write(args.output, svg)
