"""``relay-xdsl export FILE --to relay|relax-script``: relay-dialect MLIR → Relay text or TVMScript."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from relay_xdsl.tools.commands.arguments import (
    ArgumentError,
    Subcommands,
    add_input,
    add_output,
    add_weights,
)
from relay_xdsl.tools.io import (
    check_constants_have_values,
    give_weights,
    input_source,
    load,
    relay_text,
    write,
)
from relay_xdsl.tools.progress import step
from relay_xdsl.tools.tvm_bridge import relax_module, relax_script, tvm_models


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``export`` subcommand and its arguments."""
    command = commands.add_parser("export", help="relay-dialect MLIR to another format")
    add_input(command, "a .mlir file")
    command.add_argument(
        "--to",
        choices=["relay", "relax-script"],
        default="relay",
        help="output format: Relay text, or TVM Relax as TVMScript (default: relay)",
    )
    add_output(command, "output file")
    add_weights(command)
    command.add_argument(
        "--show-meta",
        action="store_true",
        help="with --to relax-script: print the constants' values (metadata) too",
    )
    command.set_defaults(run=run, default_format="mlir")


def run(args: argparse.Namespace) -> None:
    source = input_source(args)
    module = load(source)
    give_weights(module, args)
    if args.to == "relax-script":
        check_constants_have_values(module, args.random_constants)
        with step("loading TVM"):
            tvm_models()
        write(
            args.output, relax_script(relax_module(module, args.random_constants), args.show_meta)
        )
    else:
        write(args.output, relay_text(module, source))


def check_arguments(args: argparse.Namespace, usage: str) -> None:
    """What the command line alone shows wrong, before any work."""
    if args.show_meta and args.to != "relax-script":
        raise ArgumentError("argument --show-meta: only with '--to relax-script'", usage)
