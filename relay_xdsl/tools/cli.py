"""The ``relay-xdsl`` command.

Subcommands (``relay-xdsl`` alone lists them, ``--version`` says which
relay-xdsl and xDSL this is):

* ``import FILE [-o OUT.mlir]``: Relay text → relay dialect (MLIR);
* ``export FILE.mlir --to relay [-o OUT]``: relay dialect → Relay text (with
  ``--params`` or ``--random-constants``, the weights in its ``#[metadata]``);
* ``defuse FILE [--composite A,B] [--inline-globals] [-o OUT]``: run
  ``relay-defuse`` on Relay text or MLIR, writing the same format;
* ``compare A B``: are two programs the same dataflow graph, whatever their
  binding style and names (graph_equivalence.py)? With ``--text``: are two
  Relay texts the same up to whitespace, comments and temp numbering? Exit
  status 0 if so, else 1 and a diff;
* ``view FILE [B] [-o OUT.svg|.html|.dot] [--collapse] [--explorer]``: a
  picture of the module's fused groups, or two side by side (see view.py);
* ``run FILE [--input NAME=FILE.npy ...] [--random-inputs SEED]
  [--random-constants SEED] [-o OUT.npz]``: run a function with the
  reference interpreter and print (or save) its outputs (see run.py; needs
  numpy, the ``interp`` extra); ``--backend mlir`` compiles it with upstream
  MLIR instead, ``--backend tvm`` with TVM;
* ``compile FILE -o model.so [--emit tosa|llvm|runner|so] [--verbose]``:
  lower to TOSA and compile with upstream MLIR (mlir-opt-22, mlir-translate-22,
  clang-22) into a shared library, or stop at the lowered module, the LLVM IR
  or an ``mlir-runner`` module that prints the outputs (see compile.py).

Input and output as in MLIR tools: ``-`` reads stdin, ``-o -`` (the
default, except for ``import-torch``) writes stdout. Whether the input is
Relay text or MLIR follows ``--from relay|mlir``, else the file name
(``.relay``, ``.mlir``), else its first words (Relay text starts with
``#[version``, ``def``, ``fn``, ``type`` or ``free_var``).

With the ``tvm`` and ``torch`` extras installed:

* ``import-torch MODEL [--input-shape 1,3,224,224] [--fuse conv2d-add-relu|fuse-ops]
  [--fuser relay-xdsl|tvm] [-o OUT.mlir]``: a torchvision model
  (``weights=None``) through ``torch.export`` and TVM's Relax frontend into
  the relay dialect. ``--fuse`` folds batch norms and constants, then
  outlines the seed's conv2d(+add)(+relu) groups (with our
  ``relay-merge-composite``, or TVM's ``FuseOpsByPattern`` with
  ``--fuser tvm``) or groups operators as TVM's FuseOps (``relay-fuse-ops``).
  The module is tens of megabytes of MLIR, so, as LLVM's tools do with
  bitcode, it is not printed on a terminal unless asked for with ``-o -``;
* ``export FILE.mlir --to relax-script [--random-constants SEED] [--show-meta]``:
  print the module as TVMScript, with the constants' values under
  ``--show-meta``;
* ``check FILE --against-torch MODEL [--random-constants SEED]
  [--backend tvm|mlir|interpreter]``: build the module with TVM (``llvm``; or
  compile it with upstream MLIR, or interpret it), run it and PyTorch's
  model on the same input, and compare.

``run``, ``compile``, ``check`` and ``export`` take a model's weights with
``--params FILE`` (TVM's ``save_param_dict`` format or ``.npz``; arrays bind
parameters of ``main`` by name, and ``meta[relay.Constant][i]`` by that
name), and ``--random-constants SEED`` gives the constants still known only
as ``meta[relay.Constant][i]`` (Relay text without its ``#[metadata]``
section, as the seed) random values drawn from ``SEED`` by role (see
relay_xdsl/interpreter/params.py and random_values.py).

User mistakes (missing files, bad input, bad arguments) are reported as
``file:line:col: error: ...`` with the offending line and a caret, and exit
status 1, never as a traceback: Relay text and metadata errors at their place
in the file, MLIR syntax and verifier errors at the op (see diagnostics.py),
argument errors at their place on the command line, before any work is done.
Deeply nested programs (up to ``depth.MAX_NESTING`` levels) are processed on
a large stack. Steps that take more than a second show their progress on
stderr when it is a terminal (progress.py).

Each subcommand is one module of relay_xdsl/tools/commands/, with its
``add_parser`` and its ``run`` (and ``check_arguments`` where the command
line alone can be wrong); inputs, outputs and errors are io.py's, and what
talks to TVM is tvm_bridge.py's. This module only dispatches.

The command owns its process, so it sets it up for relay-xdsl's work: xDSL
gets relay-xdsl's changes (xdsl_patches.py), deeply nested programs run on a
large stack (support/depth.py), glibc keeps freed buffers for compiled
models (compiler/schedule.py), and relay-xdsl's steps run with the cyclic
garbage collector paused (support/gc_pause.py); TVM's and PyTorch's steps
run with it on.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from relay_xdsl.compiler.schedule import keep_freed_buffers
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import NestingTooDeepError, run_deep
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.support.xdsl_internals import installed_xdsl_version
from relay_xdsl.tools import xdsl_patches
from relay_xdsl.tools.commands import COMMANDS
from relay_xdsl.tools.commands.arguments import ArgumentError
from relay_xdsl.tools.io import STDIO, CommandError, Diagnostic


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but bad arguments are a diagnostic with exit status 1, not 2."""

    def error(self, message: str) -> NoReturn:
        raise ArgumentError(message, self.format_usage())


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _argument_parser(argv)
    if not argv:
        sys.stderr.write(parser.format_help())
        return 1
    try:
        args = parser.parse_args(argv)
        _check_arguments(args)
    except ArgumentError as error:
        print(_argument_diagnostic(argv, error), file=sys.stderr)
        return 1
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except SystemExit as exit:  # --help, --version
        return exit.code if isinstance(exit.code, int) else 1
    xdsl_patches.apply()
    keep_freed_buffers()  # this process may run compiled models
    try:
        run_deep(_run, args, what=str(getattr(args, "input", "the program")))
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except Diagnostic as error:
        print(error, file=sys.stderr)
        return 1
    except ParseError as error:  # SourceError included
        from relay_xdsl.tools.diagnostics import describe_parse_error

        print(describe_parse_error(error), file=sys.stderr)
        return 1
    except (VerifyException, DiagnosticException) as error:
        from relay_xdsl.tools.diagnostics import describe_diagnostic

        print(describe_diagnostic(error), file=sys.stderr)
        return 1
    except NestingTooDeepError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 1
    return 0


def _run(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.diagnostics import pass_warnings_printed

    with pass_warnings_printed():
        if args.with_tvm:
            args.run(args)  # pauses the collector around its own steps
        else:
            with gc_paused():
                args.run(args)


def _argument_diagnostic(argv: Sequence[str], error: ArgumentError) -> str:
    """An argparse error shown on the command line, with a caret at the culprit."""
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


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("relay-xdsl")
    except PackageNotFoundError:
        ours = "(not installed)"
    return f"relay-xdsl {ours} (xdsl {installed_xdsl_version() or 'not installed'})"


def _argument_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The command line's parser, one subcommand a module of `COMMANDS`."""
    parser = _ArgumentParser(
        prog="relay-xdsl",
        description="TVM Relay graphs in MLIR tooling: import, export, defuse and compare.",
    )
    parser.add_argument("--version", action="version", version=_version())
    parser.set_defaults(with_tvm=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS.values():
        command.add_parser(commands, argv)
    return parser


def _check_arguments(args: argparse.Namespace) -> None:
    """What can be checked on the command line alone, before any work."""
    check = getattr(COMMANDS[args.command], "check_arguments", None)
    if check is not None:
        check(args, f"usage: relay-xdsl {args.command} ...")
    for name in ("input", "expected", "actual", "params"):
        path = getattr(args, name, None)
        if path is not None and path != STDIO:
            try:
                with open(path, "rb"):
                    pass
            except OSError as error:
                raise CommandError(f"cannot read {path}: {error.strerror}") from None


if __name__ == "__main__":
    # `python -m` runs this file as __main__: the commands import relay_xdsl.tools.io,
    # whose CommandError is the one `main` must catch.
    import importlib

    sys.exit(importlib.import_module("relay_xdsl.tools.cli").main())
