"""``relay-xdsl view FILE [B]``: a picture of a module's fused groups, or two side
by side (relay_xdsl/tools/drawing.py), or the module in Model Explorer."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from relay_xdsl.tools.commands.arguments import Subcommands


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``view`` subcommand and its arguments."""
    # view's defaults come from the picture code, which takes a while to import:
    # only a command line that may run view needs them.
    DEFAULT_MAX_NODES, DEFAULT_TIMEOUT = _view_defaults() if "view" in argv else (0, 0.0)
    command = commands.add_parser(
        "view", help="draw the module's fused groups (Graphviz, or Model Explorer)"
    )
    command.add_argument(
        "inputs",
        nargs="*",
        type=Path,
        metavar="FILE",
        help="a .relay or .mlir file; two are drawn side by side",
    )
    command.add_argument("--before", type=Path, help="the module before a pass, drawn on the left")
    command.add_argument("--after", type=Path, help="the module after it, drawn on the right")
    command.add_argument("-o", "--output", type=Path, help="output file (default: stdout)")
    command.add_argument(
        "--format", choices=["dot", "svg", "html"], help="default: the output's suffix, else dot"
    )
    command.add_argument(
        "--collapse", action="store_true", help="draw each fused group as one node"
    )
    command.add_argument(
        "--constants",
        action="store_true",
        help="draw constants as nodes instead of listing them on their readers",
    )
    command.add_argument(
        "--max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        help=f"render no larger graph; 0: no limit (default: {DEFAULT_MAX_NODES})",
    )
    command.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds Graphviz may take (default: {DEFAULT_TIMEOUT:g})",
    )
    command.add_argument(
        "--explorer", action="store_true", help="open the module in Model Explorer instead"
    )
    command.add_argument(
        "--host", default="localhost", help="Model Explorer's host (default: localhost)"
    )
    command.add_argument(
        "--port", type=int, default=8080, help="Model Explorer's port (default: 8080)"
    )
    command.add_argument(
        "--no-browser", action="store_true", help="start Model Explorer without opening a browser"
    )
    command.set_defaults(run=run)


def _view_defaults() -> tuple[int, float]:
    from relay_xdsl.viz.dot import DEFAULT_MAX_NODES, DEFAULT_TIMEOUT

    return DEFAULT_MAX_NODES, DEFAULT_TIMEOUT


def run(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.drawing import run_view

    run_view(args)
