"""``relay-xdsl import-torch MODEL``: a torchvision model through TVM Relax into the relay dialect."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.tools.commands.arguments import ArgumentError, Subcommands, add_output
from relay_xdsl.tools.io import CommandError, write
from relay_xdsl.tools.progress import step
from relay_xdsl.tools.tvm_bridge import check_model, tvm_models


def add_parser(commands: Subcommands, argv: Sequence[str]) -> None:
    """The ``import-torch`` subcommand and its arguments."""
    command = commands.add_parser(
        "import-torch", help="a torchvision model through TVM Relax into the relay dialect"
    )
    command.add_argument("model", help="torchvision model name, e.g. resnet18")
    command.add_argument(
        "--input-shape", default="1,3,224,224", help="input shape (default: 1,3,224,224)"
    )
    command.add_argument(
        "--fuse",
        choices=["conv2d-add-relu", "fuse-ops"],
        help="conv2d-add-relu: outline conv2d(+add)(+relu) groups into Composite functions; "
        "fuse-ops: group operators into Primitive functions as TVM's FuseOps does",
    )
    command.add_argument(
        "--fuser",
        choices=["relay-xdsl", "tvm"],
        help="with --fuse conv2d-add-relu, who fuses: our relay-merge-composite, or TVM's "
        "FuseOpsByPattern (default: relay-xdsl)",
    )
    add_output(
        command, "output .mlir file", default="none: the MLIR goes to a terminal only with -o -"
    )
    command.set_defaults(run=run, with_tvm=True)


def run(args: argparse.Namespace) -> None:
    with step("loading TVM and PyTorch"):
        models = tvm_models()
    with step(f"exporting {args.model} with torch.export and TVM's Relax frontend"):
        mod = models.relax_module(args.model, args.shape)
    if args.fuse:
        with step("folding batch norms and constants"):
            mod = models.fold(mod)
    if args.fuse == "conv2d-add-relu" and args.fuser == "tvm":
        with step("fusing conv2d(+add)(+relu) with TVM's FuseOpsByPattern"):
            mod = models.fuse(mod)
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.tools.mlir_text import mlir_text, relay_context

    with gc_paused():
        with step("importing into the relay dialect"):
            module = import_relax(mod)
        if args.fuse == "conv2d-add-relu" and args.fuser != "tvm":
            from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass

            with step("fusing conv2d(+add)(+relu) with relay-merge-composite"):
                RelayMergeCompositePass(table="conv2d-add-relu").apply(relay_context(), module)
        elif args.fuse == "fuse-ops":
            from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

            with step("grouping operators with relay-fuse-ops"):
                RelayFuseOpsPass().apply(relay_context(), module)
        module.verify()
        with step("writing the MLIR"):
            write(args.output, mlir_text(module))


def input_shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(d) for d in text.split(","))
    except ValueError:
        shape = ()
    if not shape or any(d <= 0 for d in shape):
        raise CommandError(f"expected positive integers separated by commas, found '{text}'")
    return shape


def is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # closed
        return False


def check_arguments(args: argparse.Namespace, usage: str) -> None:
    """What the command line alone shows wrong, before any work."""
    try:
        check_model(args.model)
    except CommandError as error:
        raise ArgumentError(str(error), usage) from None
    if args.fuser is not None and args.fuse != "conv2d-add-relu":
        given = "without --fuse" if args.fuse is None else f"with --fuse {args.fuse}"
        raise ArgumentError(
            f"argument --fuser: '{args.fuser}' does nothing {given}; "
            "it chooses who fuses --fuse conv2d-add-relu",
            usage,
        )
    try:
        args.shape = input_shape(args.input_shape)
    except CommandError as error:
        raise ArgumentError(f"argument --input-shape: {error}", usage) from None
    if args.output is None and is_terminal(sys.stdout):
        raise ArgumentError(
            f"argument -o: '{args.model}' is tens of megabytes of MLIR: give -o FILE.mlir, "
            "or -o - to print it on the terminal anyway",
            usage,
        )
