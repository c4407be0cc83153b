"""``relay-xdsl check FILE --against-torch MODEL``: a module run by TVM (or another backend:
``--backend mlir|iree|interpreter``) against PyTorch."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.tools.commands.arguments import (
    BACKENDS,
    BACKENDS_HELP,
    ArgumentError,
    Subcommands,
    add_input,
    add_schedule_argument,
    add_threads_argument,
    add_weights,
    check_threads,
)
from relay_xdsl.tools.io import (
    CommandError,
    check_constants_have_values,
    give_weights,
    input_source,
    load,
)
from relay_xdsl.tools.progress import step
from relay_xdsl.tools.tvm_bridge import check_model, relax_module, tvm_models


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``check`` subcommand and its arguments."""
    command = commands.add_parser(
        "check",
        help="run a module in TVM (or --backend mlir|iree|interpreter) and compare it with PyTorch",
    )
    add_input(command, "a .mlir or .relay file")
    command.add_argument(
        "--against-torch", required=True, metavar="MODEL", help="torchvision model name"
    )
    command.add_argument(
        "--atol", type=float, default=1e-4, help="largest accepted absolute error (default: 1e-4)"
    )
    add_weights(command)
    command.add_argument(
        "--backend",
        choices=BACKENDS,
        default="tvm",
        help=f"who runs the module: {BACKENDS_HELP} (default: tvm)",
    )
    add_schedule_argument(command)
    add_threads_argument(command)
    command.set_defaults(run=run, with_tvm=True, default_format="mlir")


def run(args: argparse.Namespace) -> None:
    import numpy as np

    source = input_source(args)
    with gc_paused():
        module = load(source)
        give_weights(module, args)
    check_constants_have_values(module, args.random_constants)
    with step("loading TVM and PyTorch"):
        models = tvm_models()
    if args.backend == "tvm":
        with gc_paused():
            mod = relax_module(module, args.random_constants)
        shape = models.main_input_shape(mod)
        with step(f"running {args.against_torch} in PyTorch"):
            expected = models.torch_output(args.against_torch, shape)
        with step("building with relax.build(target='llvm') and running on the Relax VM"):
            (actual,) = models.run(mod, models.example_input(shape).numpy())
    else:
        from relay_xdsl.tools.commands.compile import run_for_check

        shape, actual = run_for_check(args.backend, module, models.example_input, args)
        with step(f"running {args.against_torch} in PyTorch"):
            expected = models.torch_output(args.against_torch, shape)
    if actual.shape != expected.shape:
        raise CommandError(f"output shape {actual.shape} differs from PyTorch's {expected.shape}")
    error = float(np.max(np.abs(actual - expected)))
    verdict = "OK" if error <= args.atol else "MISMATCH"
    print(
        f"{source.name} vs PyTorch {args.against_torch}: max abs error {error:.3g} (atol {args.atol:g}): {verdict}"
    )
    if error > args.atol:
        raise CommandError(f"max abs error {error:.3g} exceeds {args.atol:g}")


def check_arguments(args: argparse.Namespace, usage: str) -> None:
    """What the command line alone shows wrong, before any work."""
    check_threads(args, usage)
    try:
        check_model(args.against_torch)
    except CommandError as error:
        raise ArgumentError(str(error), usage) from None
