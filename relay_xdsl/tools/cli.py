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

The command owns its process, so it sets it up for relay-xdsl's work: xDSL
gets relay-xdsl's changes (xdsl_patches.py), and relay-xdsl's steps run with
the cyclic garbage collector paused (support/gc_pause.py); TVM's and
PyTorch's steps run with it on.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn

from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from relay_xdsl.compiler.schedule import keep_freed_buffers
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import NestingTooDeepError, run_deep
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.tools import xdsl_patches
from relay_xdsl.tools.progress import step

if TYPE_CHECKING:
    import tvm
    from xdsl.dialects.builtin import ModuleOp

STDIO = "-"
"""The file name that stands for stdin (an input) or stdout (``-o``)."""

FORMATS = ("relay", "mlir")

BACKENDS = ("interpreter", "mlir", "tvm")
"""Who runs a program for ``run`` and ``check``."""


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
    parser = _argument_parser(argv)
    if not argv:
        sys.stderr.write(parser.format_help())
        return 1
    try:
        args = parser.parse_args(argv)
        _check_arguments(args)
    except _ArgumentError as error:
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
    except _Diagnostic as error:
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


def _argument_diagnostic(argv: Sequence[str], error: _ArgumentError) -> str:
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
    return f"relay-xdsl {ours} (xdsl {xdsl_patches._xdsl_version() or 'not installed'})"


def _add_input(command: argparse.ArgumentParser, what: str) -> None:
    command.add_argument("input", help=f"{what}, or - for stdin")
    command.add_argument(
        "--from",
        dest="input_format",
        choices=FORMATS,
        help="the input's format (default: by its name, .relay or .mlir, else by its first words)",
    )


def _add_output(command: argparse.ArgumentParser, what: str, default: str = "stdout") -> None:
    command.add_argument(
        "-o", "--output", metavar="FILE", help=f"{what}, - for stdout (default: {default})"
    )


def _add_weights(command: argparse.ArgumentParser) -> None:
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


def give_weights(module: ModuleOp, args: argparse.Namespace, function: str = "main") -> None:
    """Give `module` the weights of ``--params FILE`` (binding parameters of
    @`function` and constants by name), then random values
    (``--random-constants SEED``) to the constants still without one."""
    params, seed = getattr(args, "params", None), getattr(args, "random_constants", None)
    if params is None and seed is None:
        return
    from relay_xdsl.interpreter import InterpreterError
    from relay_xdsl.interpreter.params import bind_params, constants_without_values, read_params
    from relay_xdsl.interpreter.random_values import give_random_values
    from relay_xdsl.relay_text.types import relay_type

    if params is not None:
        try:
            arrays = read_params(params)  # its errors name the file
        except InterpreterError as error:
            raise CommandError(str(error)) from None
        try:
            bind_params(module, arrays, function)
        except InterpreterError as error:
            raise CommandError(f"--params {params}: {error}") from None
        missing = constants_without_values(module)
        if missing and seed is None:
            index, type_ = next(iter(missing.items()))
            what, them = (
                (f" and {len(missing) - 1} more constants without values", "them")
                if len(missing) > 1
                else (", a constant without a value", "it")
            )
            raise CommandError(
                f"--params {params} has no array for meta[relay.Constant][{index}] "
                f"({relay_type(type_)}){what}; add {them} to the file, or give "
                f"--random-constants SEED to draw {them}"
            )
    if seed is not None:
        try:
            give_random_values(module, seed)
        except InterpreterError as error:
            raise CommandError(f"--random-constants {seed}: {error}") from None


def _argument_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The command line's parser; a subcommand's options only where `argv` may name it."""
    parser = _ArgumentParser(
        prog="relay-xdsl",
        description="TVM Relay graphs in MLIR tooling: import, export, defuse and compare.",
    )
    parser.add_argument("--version", action="version", version=_version())
    parser.set_defaults(with_tvm=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    command = commands.add_parser("import", help="Relay text to relay-dialect MLIR")
    _add_input(command, "a Relay text file (or MLIR, to print it again)")
    _add_output(command, "output .mlir file")
    command.add_argument("--generic", action="store_true", help="print MLIR in generic form")
    command.set_defaults(run=_import, default_format="relay")

    command = commands.add_parser("export", help="relay-dialect MLIR to another format")
    _add_input(command, "a .mlir file")
    command.add_argument(
        "--to",
        choices=["relay", "relax-script"],
        default="relay",
        help="output format: Relay text, or TVM Relax as TVMScript (default: relay)",
    )
    _add_output(command, "output file")
    _add_weights(command)
    command.add_argument(
        "--show-meta",
        action="store_true",
        help="with --to relax-script: print the constants' values (metadata) too",
    )
    command.set_defaults(run=_export, default_format="mlir")

    command = commands.add_parser(
        "defuse", help="inline fused and composite functions (relay-defuse)"
    )
    _add_input(command, "a .relay or .mlir file")
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
    _add_output(command, "output file, same format as the input")
    command.set_defaults(run=_defuse, default_format="mlir")

    command = commands.add_parser(
        "compare",
        help="are two programs the same dataflow graph (--text: the same Relay text)?",
    )
    command.add_argument("expected", help="a .relay or .mlir file, or - for stdin")
    command.add_argument("actual", help="a .relay or .mlir file, or - for stdin")
    command.add_argument(
        "--text",
        action="store_true",
        help="compare Relay texts up to whitespace, comments and temp numbering instead",
    )
    command.add_argument(
        "--from",
        dest="input_format",
        choices=FORMATS,
        help="the inputs' format (default: by their names, else by their first words)",
    )
    command.set_defaults(run=_compare, default_format="relay")

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
    command.set_defaults(run=_view)

    command = commands.add_parser(
        "run", help="run a program with the reference interpreter (or --backend mlir|tvm)"
    )
    _add_input(command, "a .relay or .mlir file")
    command.add_argument(
        "--function", default="main", help="the global function to run (default: main)"
    )
    command.add_argument(
        "--input",
        dest="inputs",
        action="append",
        default=[],
        type=_input_spec,
        metavar="NAME=FILE.npy",
        help="the array of parameter NAME (repeat for each parameter)",
    )
    command.add_argument(
        "--random-inputs",
        type=int,
        metavar="SEED",
        help="give the parameters without --input random arrays drawn from SEED",
    )
    _add_weights(command)
    _add_output(command, "save the outputs to an .npz file", "print them")
    command.add_argument(
        "--backend",
        choices=BACKENDS,
        default="interpreter",
        help="interpreter: the reference interpreter (default); mlir: compiled with upstream "
        "MLIR; tvm: built with TVM's relax.build for llvm",
    )
    from relay_xdsl.tools.compile import (
        add_compile_arguments,
        add_schedule_argument,
        compile_program,
    )

    add_schedule_argument(command)
    command.set_defaults(run=_run_program, default_format="mlir")

    command = commands.add_parser(
        "compile", help="lower to TOSA and compile with upstream MLIR into a shared library"
    )
    _add_input(command, "a .relay or .mlir file")
    _add_output(command, "output file (a shared library with --emit so)")
    add_compile_arguments(command)
    _add_weights(command)
    command.add_argument(
        "--input",
        dest="inputs",
        action="append",
        default=[],
        type=_input_spec,
        metavar="NAME=FILE.npy",
        help="with --emit runner: the array of parameter NAME (repeat for each parameter)",
    )
    command.add_argument(
        "--random-inputs",
        type=int,
        metavar="SEED",
        help="with --emit runner: random arrays for the parameters without --input",
    )
    command.set_defaults(run=compile_program, default_format="mlir")

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
    _add_output(
        command, "output .mlir file", default="none: the MLIR goes to a terminal only with -o -"
    )
    command.set_defaults(run=_import_torch, with_tvm=True)

    command = commands.add_parser(
        "check",
        help="run a module in TVM (or --backend mlir|interpreter) and compare it with PyTorch",
    )
    _add_input(command, "a .mlir or .relay file")
    command.add_argument(
        "--against-torch", required=True, metavar="MODEL", help="torchvision model name"
    )
    command.add_argument(
        "--atol", type=float, default=1e-4, help="largest accepted absolute error (default: 1e-4)"
    )
    _add_weights(command)
    command.add_argument(
        "--backend",
        choices=BACKENDS,
        default="tvm",
        help="who runs the module: tvm (relax.build for llvm, the default), mlir (compiled "
        "with upstream MLIR) or interpreter",
    )
    add_schedule_argument(command)
    command.set_defaults(run=_check, with_tvm=True, default_format="mlir")
    return parser


def _view_defaults() -> tuple[int, float]:
    from relay_xdsl.viz.dot import DEFAULT_MAX_NODES, DEFAULT_TIMEOUT

    return DEFAULT_MAX_NODES, DEFAULT_TIMEOUT


def _check_arguments(args: argparse.Namespace) -> None:
    """What can be checked on the command line alone, before any work."""
    usage = f"usage: relay-xdsl {args.command} ..."
    for model in ("model", "against_torch"):
        if args.command in ("import-torch", "check") and hasattr(args, model):
            try:
                _check_model(getattr(args, model))
            except CommandError as error:
                raise _ArgumentError(str(error), usage) from None
    if args.command == "import-torch":
        if args.fuser is not None and args.fuse != "conv2d-add-relu":
            given = "without --fuse" if args.fuse is None else f"with --fuse {args.fuse}"
            raise _ArgumentError(
                f"argument --fuser: '{args.fuser}' does nothing {given}; "
                "it chooses who fuses --fuse conv2d-add-relu",
                usage,
            )
        try:
            args.shape = _input_shape(args.input_shape)
        except CommandError as error:
            raise _ArgumentError(f"argument --input-shape: {error}", usage) from None
        if args.output is None and _is_terminal(sys.stdout):
            raise _ArgumentError(
                f"argument -o: '{args.model}' is tens of megabytes of MLIR: give -o FILE.mlir, "
                "or -o - to print it on the terminal anyway",
                usage,
            )
    if args.command == "run" and args.backend == "tvm":
        args.with_tvm = True  # TVM's steps run with the collector on
    if args.command == "compile" and args.emit != "runner":
        for given, option in ((args.inputs, "--input"), (args.random_inputs, "--random-inputs")):
            if given not in (None, []):
                raise _ArgumentError(f"argument {option}: '{option}' needs --emit runner", usage)
    if getattr(args, "show_meta", False) and args.to != "relax-script":
        raise _ArgumentError("argument --show-meta: only with '--to relax-script'", usage)
    for name in ("input", "expected", "actual", "params"):
        path = getattr(args, name, None)
        if path is not None and path != STDIO:
            try:
                with open(path, "rb"):
                    pass
            except OSError as error:
                raise CommandError(f"cannot read {path}: {error.strerror}") from None


def _is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # closed
        return False


def _tvm_models() -> ModuleType:
    try:
        from relay_xdsl.tvm import models as tvm_models
    except ImportError as error:
        raise CommandError(
            f"this command needs TVM and PyTorch ({error.name} is missing): "
            "pip install torch==2.14.1 torchvision==0.29.1 && pip install 'relay-xdsl[tvm]'"
        ) from None
    return tvm_models


def _check_model(name: str) -> None:
    """Reject a name torchvision does not know, without importing it (torchvision_names.py)."""
    from relay_xdsl.tools import torchvision_names

    if torchvision_names.installed_torchvision() is None:
        _tvm_models()  # the message that says what to install
    names = torchvision_names.model_names()
    if name not in names:
        raise CommandError(torchvision_names.unknown_model_message(name, names))


def _input_shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(d) for d in text.split(","))
    except ValueError:
        shape = ()
    if not shape or any(d <= 0 for d in shape):
        raise CommandError(f"expected positive integers separated by commas, found '{text}'")
    return shape


def _import_torch(args: argparse.Namespace) -> None:
    with step("loading TVM and PyTorch"):
        models = _tvm_models()
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
            _write(args.output, mlir_text(module))


def _relax_module(module: ModuleOp, random_constants: int | None = None) -> tvm.IRModule:
    from relay_xdsl.exporters.relax import RelaxExportError, export_relax

    _check_constants_have_values(module, random_constants)
    try:
        return export_relax(module, random_constants=random_constants)
    except RelaxExportError as error:
        raise CommandError(str(error)) from None


def _check_constants_have_values(module: ModuleOp, random_constants: int | None) -> None:
    """Before TVM builds anything: a constant without a value needs --random-constants."""
    if random_constants is not None:
        return
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    from relay_xdsl.dialects import relay

    for op in module.walk():
        if (
            isinstance(op, relay.ConstantOp)
            and not isinstance(op.value, DenseIntOrFPElementsAttr)
            and op.meta_index is not None
        ):
            raise CommandError(
                f"constant meta[relay.Constant][{op.meta_index.value.data}] has no value "
                "(the Relay text had no #[metadata] section); "
                "give --params FILE for its weights or --random-constants SEED for random ones"
            )


def _check(args: argparse.Namespace) -> None:
    import numpy as np

    source = _input(args)
    with gc_paused():
        module = _load(source)
        give_weights(module, args)
    _check_constants_have_values(module, args.random_constants)
    with step("loading TVM and PyTorch"):
        models = _tvm_models()
    if args.backend == "tvm":
        with gc_paused():
            mod = _relax_module(module, args.random_constants)
        shape = models.main_input_shape(mod)
        with step(f"running {args.against_torch} in PyTorch"):
            expected = models.torch_output(args.against_torch, shape)
        with step("building with relax.build(target='llvm') and running on the Relax VM"):
            (actual,) = models.run(mod, models.example_input(shape).numpy())
    else:
        from relay_xdsl.tools.compile import run_for_check

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


# -- input and output ------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """An input: its text, its name in diagnostics, and whether it is Relay text or MLIR."""

    text: str
    name: str
    format: str


_RELAY_START = re.compile(r"(#\[version|def\s+@|fn\s*[(<]|type\s|free_var\b|let\s|v0\.0\.)")


def _source(path: str, given_format: str | None, default_format: str = "mlir") -> _Source:
    """Read `path` (``-``: stdin); its format from `given_format`, its name or its first words."""
    if path == STDIO:
        text, name = sys.stdin.read(), "<stdin>"
    else:
        text, name = _read(Path(path)), path
    format_ = given_format
    if format_ is None:
        suffix = Path(path).suffix
        if suffix in (".relay", ".mlir"):
            format_ = suffix[1:]
        else:
            format_ = _sniffed_format(text) or default_format
    return _Source(text, name, format_)


def _sniffed_format(text: str) -> str | None:
    """``relay`` or ``mlir`` from the first words of `text`, past comments; None if unsure."""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        return "relay" if _RELAY_START.match(line) else "mlir"
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text") from None


def _write(path: str | None, text: str | Iterable[str]) -> None:
    """Write `text`, or its pieces one after another, to `path` or stdout (None or ``-``)."""
    pieces = [text] if isinstance(text, str) else text
    if path is None or path == STDIO:
        sys.stdout.writelines(pieces)
        sys.stdout.flush()
        return
    try:
        with open(path, "w", encoding="utf-8") as output:
            output.writelines(pieces)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror}") from None


def load_module(path: str, given_format: str | None = None) -> ModuleOp:
    """A module from Relay text or MLIR (see `_source` for which), verified."""
    return _load(_source(path, given_format))


def read_input(path: str) -> _Source:
    """The text of input `path` (``-``: stdin) and whether it is Relay text or MLIR."""
    return _source(path, None)


def load_input(source: _Source) -> ModuleOp:
    """The module `source` (from `read_input`) holds, verified."""
    return _load(source)


def _load(source: _Source) -> ModuleOp:
    """`source` as a verified module.

    MLIR may come from upstream ``mlir-opt``, which prints location aliases
    after the module; they are moved in front, where xDSL's parser wants them.
    """
    if source.format == "relay":
        from relay_xdsl.importers.relay_text import parse_relay

        module = parse_relay(source.text, source.name)
        module.verify()
        return module
    from relay_xdsl.tools.diagnostics import locate_verify_error, parse_mlir
    from relay_xdsl.tools.mlir_text import hoist_location_aliases, relay_context

    text = hoist_location_aliases(source.text)
    module, op_starts = parse_mlir(relay_context(), text, source.name)
    try:
        module.verify()
    except Exception as error:
        # Also xDSL verifiers that crash on invalid input: find the culprit op.
        located = locate_verify_error(module, op_starts, SourceFile(text, source.name))
        if located is not None:
            raise located from None
        if isinstance(error, DiagnosticException):
            raise
        raise CommandError(f"{source.name}: invalid IR ({type(error).__name__}: {error})") from None
    return module


def _input(args: argparse.Namespace) -> _Source:
    return _source(args.input, args.input_format, args.default_format)


class _Diagnostic(Exception):
    """A user-facing failure already written as a diagnostic."""


def _relay_text(module: ModuleOp, source: _Source) -> Iterator[str]:
    from relay_xdsl.exporters.relay_text import RelayExportError, relay_chunks
    from relay_xdsl.tools.diagnostics import culprit_op, describe_op_error
    from relay_xdsl.tools.mlir_text import hoist_location_aliases

    try:
        return relay_chunks(module)
    except RelayExportError as error:
        culprit = culprit_op(error.__traceback__)
        if source.format != "mlir" or culprit is None:
            raise CommandError(str(error)) from None
        text = SourceFile(hoist_location_aliases(source.text), source.name)
        raise _Diagnostic(describe_op_error(str(error), module, culprit, text)) from None


# -- the commands ------------------------------------------------------------------


def _import(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.mlir_text import mlir_text

    _write(args.output, mlir_text(_load(_input(args)), args.generic))


def _export(args: argparse.Namespace) -> None:
    source = _input(args)
    module = _load(source)
    give_weights(module, args)
    if args.to == "relax-script":
        _check_constants_have_values(module, args.random_constants)
        with step("loading TVM"):
            _tvm_models()
        _write(
            args.output, _relax_script(_relax_module(module, args.random_constants), args.show_meta)
        )
    else:
        _write(args.output, _relay_text(module, source))


def _relax_script(mod: tvm.IRModule, show_meta: bool) -> str:
    """TVMScript of `mod`; with `show_meta`, followed by the values of its constants.

    TVM 0.27's ``script(show_meta=True)`` (and ``tvm.ir.save_json``) crash on
    modules with constants, so the values are printed here, as comments
    under the names the script gives them: ``metadata["ir.GenericConst"][i]``
    numbers constants in the order the script first shows them, which is
    the order of the functions it prints and, in each, of its expressions.
    """
    import numpy as np
    import tvm

    script = mod.script() + "\n"
    if not show_meta:
        return script
    # TVM's note that the metadata is omitted, and how to show it: here it is shown.
    script = re.sub(r"^# Metadata omitted\..*\n", "", script, flags=re.MULTILINE)
    constants: list[tvm.ir.GenericConst] = []

    def visit(expr: object) -> None:
        if isinstance(expr, tvm.ir.GenericConst) and not any(expr.same_as(c) for c in constants):
            constants.append(expr)

    for _, function in sorted(mod.functions.items(), key=lambda item: item[0].name_hint):
        tvm.relax.analysis.post_order_visit(function, visit)
    referenced = set(re.findall(r'metadata\["ir\.GenericConst"\]\[(\d+)\]', script))
    if len(referenced) != len(constants):
        raise CommandError(
            f"the script names {len(referenced)} constants and the module holds "
            f"{len(constants)}: cannot tell which is which for --show-meta"
        )
    lines = ["", "# Metadata: the constants the script names metadata[...]"]
    with np.printoptions(threshold=sys.maxsize, linewidth=100):
        for index, constant in enumerate(constants):
            value = constant.value.numpy()
            lines.append(
                f'# metadata["ir.GenericConst"][{index}]: {value.dtype}{list(value.shape)}'
            )
            lines.extend(f"#   {line}" for line in np.array2string(value).splitlines())
    return script + "\n".join(lines) + "\n"


def _defuse(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.mlir_text import mlir_text, relay_context
    from relay_xdsl.transforms.defuse import RelayDefusePass

    source = _input(args)
    module = _load(source)
    composites = tuple(name for name in args.composite.split(",") if name)
    RelayDefusePass(composite=composites, inline_globals=args.inline_globals).apply(
        relay_context(), module
    )
    module.verify()
    _write(
        args.output,
        _relay_text(module, source) if source.format == "relay" else mlir_text(module),
    )


def _compare(args: argparse.Namespace) -> None:
    if args.expected == STDIO and args.actual == STDIO:
        raise CommandError("only one of the two programs can be read from stdin")
    expected, actual = (
        _source(path, args.input_format, "relay") for path in (args.expected, args.actual)
    )
    if args.text:
        diff = _text_diff(expected, actual)
        what = "program (as Relay text)"
    else:
        from relay_xdsl.tools.graph_equivalence import graph_diff

        diff = graph_diff(_load(expected), _load(actual), (expected.name, actual.name))
        what = "program (the same dataflow graph)"
    if diff:
        raise CommandError(f"{actual.name} differs from {expected.name}:\n{diff}")
    print(f"{actual.name} and {expected.name} are the same {what}")


def _text_diff(expected: _Source, actual: _Source) -> str:
    from relay_xdsl.relay_text.equivalence import canonical_relay, relay_text_diff
    from relay_xdsl.relay_text.metadata import MetadataError

    for source in (expected, actual):
        if source.format != "relay":
            raise CommandError(f"--text compares Relay text; {source.name} is MLIR")
        try:
            canonical_relay(source.text, source.name)
        except MetadataError as error:
            at = source.text.find("#[metadata]")
            start = at + len("#[metadata]") + (error.offset or 0) if at >= 0 else 0
            raise SourceError(
                SourceFile(source.text, source.name),
                start,
                f"bad #[metadata] section: {error.message}",
            ) from None
    return relay_text_diff(expected.text, actual.text)


def _input_spec(text: str) -> tuple[str, str]:
    from relay_xdsl.tools.run import input_spec

    return input_spec(text)


def _run_program(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.run import run_program

    run_program(args)


def _view(args: argparse.Namespace) -> None:
    from relay_xdsl.tools.view import run_view

    run_view(args)


if __name__ == "__main__":
    # `python -m` runs this file as __main__: the subcommands' modules import
    # relay_xdsl.tools.cli, whose CommandError is the one `main` must catch.
    import importlib

    sys.exit(importlib.import_module("relay_xdsl.tools.cli").main())
