"""The ``relay-xdsl`` command.

Subcommands:

* ``import FILE.relay [-o OUT.mlir]``: Relay text → relay dialect (MLIR);
* ``export FILE.mlir --to relay [-o OUT]``: relay dialect → Relay text;
* ``defuse FILE [--composite A,B] [--inline-globals] [-o OUT]``: run
  ``relay-defuse`` on Relay text or MLIR, writing the same format;
* ``compare A.relay B.relay``: are two Relay texts the same program up to
  whitespace, comments, temp numbering and the order of the bindings (texts
  that import are compared as the printer writes them, in TVM's order)?
  Exit status 0 if so, else 1 and a diff.

With the ``tvm`` and ``torch`` extras installed:

* ``import-torch MODEL [--input-shape 1,3,224,224] [--fuse conv2d-add-relu|fuse-ops]
  [--fuser relay-xdsl|tvm] [-o OUT.mlir]``: a torchvision model
  (``weights=None``) through ``torch.export`` and TVM's Relax frontend into
  the relay dialect. ``--fuse`` folds batch norms and constants, then
  outlines the seed's conv2d(+add)(+relu) groups (with our
  ``relay-merge-composite``, or TVM's ``FuseOpsByPattern`` with
  ``--fuser tvm``) or groups operators as TVM's FuseOps (``relay-fuse-ops``);
* ``export FILE.mlir --to relax-script``: print the module as TVMScript;
* ``check FILE.mlir --against-torch MODEL``: build the module with TVM
  (``llvm``), run it and PyTorch's model on the same input, and compare.

User mistakes (missing files, bad input, bad arguments) are reported as
``file:line:col: error: ...`` with the offending line and a caret, and exit
status 1, never as a traceback: Relay text and metadata errors at their place
in the file, MLIR syntax and verifier errors at the op (see diagnostics.py),
argument errors at their place on the command line. Deeply nested programs
(up to ``depth.MAX_NESTING`` levels) are processed on a large stack.

The command owns its process, so it sets it up for relay-xdsl's work: xDSL
gets relay-xdsl's changes (xdsl_patches.py), and relay-xdsl's steps run with
the cyclic garbage collector paused (support/gc_pause.py); TVM's and
PyTorch's steps run with it on.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from relay_xdsl.relay_text.metadata import MetadataError
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import NestingTooDeepError, run_deep
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.tools import xdsl_patches
from relay_xdsl.tools.diagnostics import (
    describe_diagnostic,
    describe_parse_error,
    locate_verify_error,
    parse_mlir,
)
from relay_xdsl.tools.mlir_text import hoist_location_aliases, mlir_text, relay_context

if TYPE_CHECKING:
    import tvm


class CommandError(Exception):
    """A user-facing failure with a message and no traceback."""


class _ArgumentError(Exception):
    """A bad command line; `message` is argparse's, `usage` the subcommand's."""

    def __init__(self, message: str, usage: str):
        super().__init__(message)
        self.message = message
        self.usage = usage


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but bad arguments are a diagnostic with exit status 1, not 2."""

    def error(self, message: str) -> NoReturn:
        raise _ArgumentError(message, self.format_usage())


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _argument_parser()
    try:
        args = parser.parse_args(argv)
    except _ArgumentError as error:
        print(_argument_diagnostic(argv, error), file=sys.stderr)
        return 1
    xdsl_patches.apply()
    try:
        run_deep(_run, args, what=str(getattr(args, "input", "the program")))
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except ParseError as error:  # SourceError included
        print(describe_parse_error(error), file=sys.stderr)
        return 1
    except (VerifyException, DiagnosticException) as error:
        print(describe_diagnostic(error), file=sys.stderr)
        return 1
    except NestingTooDeepError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 1
    return 0


def _run(args: argparse.Namespace) -> None:
    if args.with_tvm:
        args.run(args)  # pauses the collector around its own steps
    else:
        with gc_paused():
            args.run(args)


def _argument_diagnostic(argv: Sequence[str], error: _ArgumentError) -> str:
    """An argparse error shown on the command line, with a caret at the culprit."""
    import re
    import shlex

    message = error.message
    choice = re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:
        options = ", ".join(o.strip("'") for o in choice[3].split(", "))
        message = f"argument {choice[1]}: expected one of {options}, found '{choice[2]}'"
    words = ["relay-xdsl", *argv]
    line = " ".join(shlex.quote(w) for w in words)
    culprit = re.search(r"'([^']*)'", message) or re.search(r"arguments: (\S+)", message)
    start, width = len(line), 1
    if culprit:
        for index, word in enumerate(words):
            if index and word == culprit[1]:
                start = len(" ".join(shlex.quote(w) for w in words[:index])) + 1
                width = len(shlex.quote(word))
                break
    source = SourceFile(line, "<command line>")
    return f"{SourceError(source, start, message, start + width)}\n{error.usage.rstrip()}"


def _argument_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog="relay-xdsl",
        description="TVM Relay graphs in MLIR tooling: import, export, defuse and compare.",
    )
    parser.set_defaults(with_tvm=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    command = commands.add_parser("import", help="Relay text to relay-dialect MLIR")
    command.add_argument("input", type=Path, help="a .relay file")
    command.add_argument("-o", "--output", type=Path, help="output .mlir file (default: stdout)")
    command.add_argument("--generic", action="store_true", help="print MLIR in generic form")
    command.set_defaults(run=_import)

    command = commands.add_parser("export", help="relay-dialect MLIR to another format")
    command.add_argument("input", type=Path, help="a .mlir file")
    command.add_argument(
        "--to",
        choices=["relay", "relax-script"],
        default="relay",
        help="output format: Relay text, or TVM Relax as TVMScript (default: relay)",
    )
    command.add_argument("-o", "--output", type=Path, help="output file (default: stdout)")
    command.set_defaults(run=_export)

    command = commands.add_parser(
        "defuse", help="inline fused and composite functions (relay-defuse)"
    )
    command.add_argument("input", type=Path, help="a .relay or .mlir file")
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
    command.add_argument(
        "-o",
        "--output",
        type=Path,
        help="output file, same format as the input (default: stdout)",
    )
    command.set_defaults(run=_defuse)

    command = commands.add_parser(
        "compare",
        help="compare two Relay texts up to whitespace, comments, temp numbering and binding order",
    )
    command.add_argument("expected", type=Path)
    command.add_argument("actual", type=Path)
    command.set_defaults(run=_compare)
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
        default="relay-xdsl",
        help="who fuses conv2d-add-relu: our relay-merge-composite, or TVM's FuseOpsByPattern "
        "(default: relay-xdsl)",
    )
    command.add_argument("-o", "--output", type=Path, help="output .mlir file (default: stdout)")
    command.set_defaults(run=_import_torch, with_tvm=True)

    command = commands.add_parser(
        "check", help="run a module in TVM and compare it with the PyTorch model"
    )
    command.add_argument("input", type=Path, help="a .mlir or .relay file")
    command.add_argument(
        "--against-torch", required=True, metavar="MODEL", help="torchvision model name"
    )
    command.add_argument(
        "--atol", type=float, default=1e-4, help="largest accepted absolute error (default: 1e-4)"
    )
    command.set_defaults(run=_check, with_tvm=True)
    return parser


class _Progress:
    """Reports a step on stderr when it takes more than a second."""

    def __init__(self, what: str):
        self.what = what

    def __enter__(self) -> None:
        import time

        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        import time

        elapsed = time.perf_counter() - self.start
        if elapsed > 1.0 and exc[0] is None:
            print(f"relay-xdsl: {self.what} ({elapsed:.1f} s)", file=sys.stderr)


def _tvm_models() -> ModuleType:
    try:
        from relay_xdsl.tvm import models as tvm_models
    except ImportError as error:
        raise CommandError(
            f"this command needs TVM and PyTorch ({error.name} is missing): "
            "pip install torch==2.14.1 torchvision==0.29.1 && pip install 'relay-xdsl[tvm]'"
        ) from None
    return tvm_models


def _input_shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(d) for d in text.split(","))
    except ValueError:
        shape = ()
    if not shape or any(d <= 0 for d in shape):
        raise CommandError(
            f"--input-shape must be positive integers separated by commas, got '{text}'"
        )
    return shape


def _import_torch(args: argparse.Namespace) -> None:
    models = _tvm_models()
    if not models.is_torchvision_model(args.model):
        raise CommandError(f"'{args.model}' is not a torchvision model")
    shape = _input_shape(args.input_shape)
    with _Progress(f"exported {args.model} with torch.export and TVM's Relax frontend"):
        mod = models.relax_module(args.model, shape)
    if args.fuse:
        with _Progress("folded batch norms and constants"):
            mod = models.fold(mod)
    if args.fuse == "conv2d-add-relu" and args.fuser == "tvm":
        with _Progress("fused conv2d(+add)(+relu) with TVM's FuseOpsByPattern"):
            mod = models.fuse(mod)
    from relay_xdsl.importers.relax import import_relax

    with gc_paused():
        with _Progress("imported into the relay dialect"):
            module = import_relax(mod)
        if args.fuse == "conv2d-add-relu" and args.fuser == "relay-xdsl":
            from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass

            RelayMergeCompositePass(table="conv2d-add-relu").apply(relay_context(), module)
        elif args.fuse == "fuse-ops":
            if args.fuser == "tvm":
                raise CommandError("--fuse fuse-ops is done by relay-xdsl; TVM's FuseOps needs TIR")
            from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

            RelayFuseOpsPass().apply(relay_context(), module)
        module.verify()
        _write(args.output, mlir_text(module))


def _relax_module(module: ModuleOp) -> tvm.IRModule:
    from relay_xdsl.exporters.relax import RelaxExportError, export_relax

    try:
        return export_relax(module)
    except RelaxExportError as error:
        raise CommandError(str(error)) from None


def _check(args: argparse.Namespace) -> None:
    import numpy as np

    models = _tvm_models()
    if not models.is_torchvision_model(args.against_torch):
        raise CommandError(f"'{args.against_torch}' is not a torchvision model")
    with gc_paused():
        mod = _relax_module(load_module(args.input))
    shape = models.main_input_shape(mod)
    with _Progress(f"ran {args.against_torch} in PyTorch"):
        expected = models.torch_output(args.against_torch, shape)
    with _Progress("built with relax.build(target='llvm') and ran on the Relax VM"):
        (actual,) = models.run(mod, models.example_input(shape).numpy())
    if actual.shape != expected.shape:
        raise CommandError(f"output shape {actual.shape} differs from PyTorch's {expected.shape}")
    error = float(np.max(np.abs(actual - expected)))
    verdict = "OK" if error <= args.atol else "MISMATCH"
    print(
        f"{args.input} vs PyTorch {args.against_torch}: max abs error {error:.3g} (atol {args.atol:g}): {verdict}"
    )
    if error > args.atol:
        raise CommandError(f"max abs error {error:.3g} exceeds {args.atol:g}")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text") from None


def _write(path: Path | None, text: str | Iterable[str]) -> None:
    """Write `text`, or its pieces one after another, to `path` or stdout."""
    pieces = [text] if isinstance(text, str) else text
    if path is None:
        sys.stdout.writelines(pieces)
        return
    try:
        with path.open("w", encoding="utf-8") as output:
            output.writelines(pieces)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror}") from None


def load_module(path: Path) -> ModuleOp:
    """A module from a ``.relay`` or ``.mlir`` file, verified.

    MLIR may come from upstream ``mlir-opt``, which prints location aliases
    after the module; they are moved in front, where xDSL's parser wants them.
    """
    text = _read(path)
    if path.suffix == ".relay":
        from relay_xdsl.importers.relay_text import parse_relay

        module = parse_relay(text, str(path))
        module.verify()
        return module
    text = hoist_location_aliases(text)
    module, op_starts = parse_mlir(relay_context(), text, str(path))
    try:
        module.verify()
    except Exception as error:
        # Also xDSL verifiers that crash on invalid input: find the culprit op.
        located = locate_verify_error(module, op_starts, SourceFile(text, str(path)))
        if located is not None:
            raise located from None
        if isinstance(error, DiagnosticException):
            raise
        raise CommandError(f"{path}: invalid IR ({type(error).__name__}: {error})") from None
    return module


def _relay_text(module: ModuleOp) -> Iterator[str]:
    from relay_xdsl.exporters.relay_text import RelayExportError, relay_chunks

    try:
        return relay_chunks(module)
    except RelayExportError as error:
        raise CommandError(str(error)) from None


def _import(args: argparse.Namespace) -> None:
    _write(args.output, mlir_text(load_module(args.input), args.generic))


def _export(args: argparse.Namespace) -> None:
    module = load_module(args.input)
    if args.to == "relax-script":
        _tvm_models()
        _write(args.output, _relax_module(module).script() + "\n")
    else:
        _write(args.output, _relay_text(module))


def _defuse(args: argparse.Namespace) -> None:
    from relay_xdsl.transforms.defuse import RelayDefusePass

    module = load_module(args.input)
    composites = tuple(name for name in args.composite.split(",") if name)
    RelayDefusePass(composite=composites, inline_globals=args.inline_globals).apply(
        relay_context(), module
    )
    module.verify()
    _write(
        args.output,
        _relay_text(module) if args.input.suffix == ".relay" else mlir_text(module),
    )


def _in_print_order(text: str, path: Path) -> str:
    """`text` as the printer writes it, whose order is TVM's whatever order the
    bindings had; `text` itself if it does not import or print."""
    from relay_xdsl.exporters.relay_text import RelayExportError, print_relay
    from relay_xdsl.importers.relay_text import RelayTextError, parse_relay

    try:
        return run_deep(lambda: print_relay(parse_relay(text, str(path))), what=str(path))
    except (RelayTextError, RelayExportError, NestingTooDeepError, VerifyException):
        return text


def _compare(args: argparse.Namespace) -> None:
    from relay_xdsl.relay_text.equivalence import canonical_relay, relay_text_diff

    texts = []
    for path in (args.expected, args.actual):
        text = _read(path)
        try:
            canonical_relay(text, str(path))
        except MetadataError as error:
            at = text.find("#[metadata]")
            start = at + len("#[metadata]") + (error.offset or 0) if at >= 0 else 0
            raise SourceError(
                SourceFile(text, str(path)), start, f"bad #[metadata] section: {error.message}"
            ) from None
        texts.append(_in_print_order(text, path))
    diff = relay_text_diff(*texts)
    if diff:
        raise CommandError(f"{args.actual} differs from {args.expected}:\n{diff}")
    print(f"{args.actual} and {args.expected} are the same program")


if __name__ == "__main__":
    sys.exit(main())
