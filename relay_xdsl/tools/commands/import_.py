"""``relay-xdsl import FILE``: Relay text (or MLIR) → relay-dialect MLIR."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from relay_xdsl.tools.commands.arguments import Subcommands, add_input, add_output
from relay_xdsl.tools.io import input_source, load, write


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``import`` subcommand and its arguments."""
    command = commands.add_parser("import", help="Relay text to relay-dialect MLIR")
    add_input(command, "a Relay text file (or MLIR, to print it again)")
    add_output(command, "output .mlir file")
    command.add_argument("--generic", action="store_true", help="print MLIR in generic form")
    command.set_defaults(run=run, default_format="relay")


def run(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.mlir_text import mlir_text

    write(args.output, mlir_text(load(input_source(args)), args.generic))
