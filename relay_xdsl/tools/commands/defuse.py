"""``relay-xdsl defuse FILE``: ``relay-defuse`` on Relay text or MLIR, written in the same format."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from relay_xdsl.tools.commands.arguments import Subcommands, add_input, add_output
from relay_xdsl.tools.io import input_source, load, relay_text, write


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``defuse`` subcommand and its arguments."""
    command = commands.add_parser(
        "defuse", help="inline fused and composite functions (relay-defuse)"
    )
    add_input(command, "a .relay or .mlir file")
    command.add_argument(
        "--composite",
        default="",
        help="comma-separated Composite names to inline (default: all)",
    )
    command.add_argument(
        "--inline-globals",
        action="store_true",
        help="also inline Compiler/Inline global functions",
    )
    add_output(command, "output file, same format as the input")
    command.set_defaults(run=run, default_format="mlir")


def run(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.mlir_text import mlir_text, relay_context
    from relay_xdsl.transforms.defuse import RelayDefusePass

    source = input_source(args)
    module = load(source)
    composites = tuple(name for name in args.composite.split(",") if name)
    RelayDefusePass(composite=composites, inline_globals=args.inline_globals).apply(
        relay_context(), module
    )
    module.verify()
    write(
        args.output,
        relay_text(module, source) if source.format == "relay" else mlir_text(module),
    )
