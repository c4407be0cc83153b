"""What the ``relay-xdsl`` subcommands share on their command lines."""

from __future__ import annotations

import argparse

from relay_xdsl.tools.io import FORMATS

BACKENDS = ("interpreter", "mlir", "iree", "tvm")
"""Who runs a program for ``run`` and ``check``."""

BACKENDS_HELP = (
    "interpreter: the reference interpreter; mlir: compiled with upstream MLIR; iree: the "
    "same TOSA compiled by IREE (pip install 'relay-xdsl[iree]'); tvm: built with TVM's "
    "relax.build for llvm"
)

Subcommands = argparse._SubParsersAction
"""What ``ArgumentParser.add_subparsers`` returns: each command module adds its parser to it."""


class ArgumentError(Exception):
    """A bad command line; `message` is argparse's, `usage` the subcommand's."""

    def __init__(self, message: str, usage: str):
        super().__init__(message)
        self.message = message
        self.usage = usage


def add_input(command: argparse.ArgumentParser, what: str) -> None:
    command.add_argument("input", help=f"{what}, or - for stdin")
    command.add_argument(
        "--from",
        dest="input_format",
        choices=FORMATS,
        help="the input's format (default: by its name, .relay or .mlir, else by its first words)",
    )


def add_output(command: argparse.ArgumentParser, what: str, default: str = "stdout") -> None:
    command.add_argument(
        "-o", "--output", metavar="FILE", help=f"{what}, - for stdout (default: {default})"
    )


def add_weights(command: argparse.ArgumentParser) -> None:
    """``--params FILE`` and ``--random-constants SEED``: where weights come from (`give_weights`)."""
    command.add_argument(
        "--params",
        metavar="FILE",
        help="the model's weights: a TVM params file (save_param_dict) or an .npz archive; "
        "each array binds the parameter of main of its name, or the constant it names "
        "as meta[relay.Constant][i]",
    )
    command.add_argument(
        "--random-constants",
        type=int,
        metavar="SEED",
        help="give constants that have no value (meta[relay.Constant][i] without #[metadata]) "
        "random values drawn from SEED: weights scaled by their fan-in, norm scales and "
        "variances near 1, the rest small",
    )


def input_spec(text: str) -> tuple[str, str]:
    """``NAME=file.npy`` as (name, path); argparse reports a bad one."""
    name, equals, path = text.partition("=")
    if not equals or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=FILE.npy, got '{text}'")
    return name.lstrip("%"), path


def add_schedule_argument(command: argparse.ArgumentParser) -> None:
    """``--no-schedule`` and ``--no-cache``, for the commands that compile."""
    command.add_argument(
        "--no-schedule",
        action="store_true",
        help="with upstream MLIR: plain loops, without the vectorising schedule",
    )
    command.add_argument(
        "--no-cache",
        action="store_true",
        help="with upstream MLIR: compile every unit afresh, without the object cache "
        "(~/.cache/relay-xdsl, or $RELAY_XDSL_CACHE; RELAY_XDSL_CACHE=off turns it off)",
    )


def add_threads_argument(command: argparse.ArgumentParser) -> None:
    """``--threads N``, for the commands that compile or run a compiled model."""
    command.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="with upstream MLIR (--target/--backend mlir): the library runs the outer "
        "parallel loops of its heavy ops on N threads (OpenMP: libomp-22-dev); with "
        "--backend iree: IREE's runtime runs on N threads; default: every core, as PyTorch "
        "does; the outputs do not depend on N",
    )


THREADED = {"--backend": ("mlir", "iree"), "--target": ("mlir",)}
"""What ``--threads`` applies to: the backends that run, the target that compiles (an IREE
module takes its threads when it runs)."""


def check_threads(args: argparse.Namespace, usage: str, option: str = "--backend") -> None:
    """``--threads`` needs `option` (the command's ``--backend`` or ``--target``) to be
    one of `THREADED`, and upstream MLIR the schedule; it is at least 1."""
    if args.threads is None:
        return
    chosen = getattr(args, option.removeprefix("--"))
    if chosen not in THREADED[option]:
        needs = " or ".join(THREADED[option])
        raise ArgumentError(f"argument --threads: '--threads' needs {option} {needs}", usage)
    if chosen == "mlir" and args.no_schedule:
        raise ArgumentError(
            "argument --threads: --no-schedule compiles plain loops, on one thread", usage
        )
    if args.threads < 1:
        raise ArgumentError(f"argument --threads: must be at least 1, not '{args.threads}'", usage)


def add_inputs(command: argparse.ArgumentParser, condition: str = "") -> None:
    """``--input NAME=FILE.npy`` (repeated) and ``--random-inputs SEED``: the
    arrays of the function's parameters; `condition` says when they apply."""
    command.add_argument(
        "--input",
        dest="inputs",
        action="append",
        default=[],
        type=input_spec,
        metavar="NAME=FILE.npy",
        help=f"{condition}the array of parameter NAME (repeat for each parameter)",
    )
    command.add_argument(
        "--random-inputs",
        type=int,
        metavar="SEED",
        help=f"{condition}random arrays, drawn from SEED, for the parameters without --input",
    )
