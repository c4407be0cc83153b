"""Input errors that escape ``xdsl-opt``, printed as diagnostics.

``xdsl-opt`` lets parse, verifier and pipeline errors escape as tracebacks;
in runs that involve relay (see :mod:`relay_xdsl.tools.xdsl_opt.universe`)
`install_xdsl_opt_excepthook` prints them as ``file:line:col: error:``
diagnostics instead (``RELAY_XDSL_TRACEBACK=1`` restores tracebacks). Errors
that are not about the input, i.e. bugs, keep their traceback.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from xdsl.context import Context
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError

from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import MAX_NESTING, NestingTooDeepError
from relay_xdsl.tools.diagnostics import (
    describe_diagnostic,
    describe_parse_error,
    locate_verify_error,
    parse_mlir,
)
from relay_xdsl.tools.pass_pipeline import check_pass_pipeline
from relay_xdsl.tools.xdsl_opt.command_line import is_xdsl_opt, read_xdsl_opt_command_line
from relay_xdsl.transforms.diagnostics import PassFailedAtError


def describe_xdsl_opt_error(
    error: BaseException, argv: Sequence[str], tb: TracebackType | None = None
) -> str | None:
    """What xdsl-opt should print for an uncaught `error`; None for a genuine bug."""
    if isinstance(error, ParseError):
        return describe_parse_error(error)
    if isinstance(error, (RecursionError, NestingTooDeepError)):
        return (
            f"{_input_name(argv)}: error: the program nests too deeply for xdsl-opt's stack; "
            f"relay-xdsl handles up to {MAX_NESTING} levels"
        )
    if isinstance(error, PassFailedAtError):
        return _at_position(error)
    if isinstance(error, DiagnosticException):
        located = _locate_in_input(error, argv)
        return located or describe_diagnostic(error, _input_name(argv))
    if _raised_in_verifier(tb):
        # xDSL verifiers sometimes crash on invalid input instead of reporting it.
        return _locate_in_input(error, argv)
    if isinstance(error, OSError) and error.filename is not None:
        return f"error: cannot read {error.filename}: {error.strerror}"
    if isinstance(error, ArgSpecParseError) or (
        isinstance(error, ValueError) and _raised_in(tb, ("passes.py", "arg_spec.py"))
    ):
        pipeline = read_xdsl_opt_command_line(argv).passes
        if pipeline is not None:
            from xdsl.universe import Universe

            problem = check_pass_pipeline(pipeline, Universe.get_multiverse().all_passes)
            if problem is not None:
                return str(problem)
        return f"error: invalid pass pipeline: {error}"
    if isinstance(error, ValueError) and str(error).startswith("Unrecognized file extension"):
        command_line = read_xdsl_opt_command_line(argv)
        if command_line.frontend is None:
            return f"error: {str(error).lower()}; use -f to choose a frontend"
        # xDSL 0.75.0 rejects an input file whose extension names no frontend, even with -f.
        return (
            f"error: {str(error).lower()}: xdsl-opt reads a file only if its extension names "
            f"a frontend, even with -f; read it from stdin "
            f"(-f {command_line.frontend_name} < {command_line.input}) or rename it"
        )
    return None


def _at_position(error: PassFailedAtError) -> str:
    """`error` with the line it points at, when its file can be read."""
    try:
        source = SourceFile(Path(error.file).read_text(encoding="utf-8"), error.file)
        start = source.offset(error.line, error.column)
    except (OSError, UnicodeDecodeError, IndexError):
        return str(error)
    return str(SourceError(source, start, error.message))


def _raised_in_verifier(tb: TracebackType | None) -> bool:
    while tb is not None:
        if tb.tb_frame.f_code.co_name in ("verify", "verify_"):
            return True
        tb = tb.tb_next
    return False


def _raised_in(tb: TracebackType | None, files: tuple[str, ...]) -> bool:
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if "xdsl" in filename and filename.endswith(files):
            return True
        tb = tb.tb_next
    return False


def _input_name(argv: Sequence[str]) -> str:
    path = read_xdsl_opt_command_line(argv).input
    return path if path is not None else "<stdin>"


def _locate_in_input(error: BaseException, argv: Sequence[str]) -> str | None:
    """A verifier error of the input file itself, at its op's position."""
    command_line = read_xdsl_opt_command_line(argv)
    path = command_line.input
    if path is None or not path.endswith(".mlir"):
        return None
    if command_line.passes:
        return None  # the error may come from a pass, not from the text
    try:
        from xdsl.universe import Universe

        from relay_xdsl.tools.mlir_text import hoist_location_aliases

        text = hoist_location_aliases(Path(path).read_text(encoding="utf-8"))
        chunks = text.split("// -----") if "--split-input-file" in argv else [text]
        line_offset = 0
        for chunk in chunks:
            ctx = Context(allow_unregistered="--allow-unregistered-dialect" in argv)
            for dialect_name, factory in Universe.get_multiverse().all_dialects.items():
                ctx.register_dialect(dialect_name, factory)
            try:
                module, starts = parse_mlir(ctx, chunk, path)
            except ParseError as parse_error:
                parse_error.span = dataclasses.replace(parse_error.span, line_offset=line_offset)
                return describe_parse_error(parse_error)
            located = locate_verify_error(module, starts, SourceFile(chunk, path))
            if located is not None:
                located.span = dataclasses.replace(located.span, line_offset=line_offset)
                return str(located)
            line_offset += chunk.count("\n")
    except Exception:  # noqa: BLE001
        return None
    return None


_installed = False


def install_xdsl_opt_excepthook(argv: Sequence[str] | None = None) -> None:
    """In ``xdsl-opt``, print input errors as diagnostics instead of tracebacks.

    Does nothing in any other program, when ``RELAY_XDSL_TRACEBACK`` is set,
    or when already installed.
    """
    global _installed
    argv = sys.argv if argv is None else argv
    if _installed or not is_xdsl_opt(argv):
        return
    if os.environ.get("RELAY_XDSL_TRACEBACK"):
        return
    _installed = True
    previous = sys.excepthook

    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        try:
            message = describe_xdsl_opt_error(error, argv, tb)
        except Exception:  # noqa: BLE001
            message = None
        if message is None:
            previous(kind, error, tb)
            return
        sys.stderr.write(message.rstrip("\n") + "\n")

    sys.excepthook = hook
