"""Input, output and errors of the ``relay-xdsl`` commands.

An input is Relay text or MLIR, read from a file or stdin (``-``): its
format is ``--from``, else the file's suffix (``.relay``, ``.mlir``), else
its first words (`sniffed_format`). Outputs go to a file or stdout. A
`CommandError` is a user mistake, printed as ``error: ...`` without a
traceback; a `Diagnostic` is one already written as ``file:line:col: error:``.
Weights come from ``--params`` and ``--random-constants`` (`give_weights`).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xdsl.utils.exceptions import DiagnosticException

from relay_xdsl.relay_text.source import SourceFile

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

STDIO = "-"
"""The file name that stands for stdin (an input) or stdout (``-o``)."""

FORMATS = ("relay", "mlir")


class CommandError(Exception):
    """A user-facing failure with a message and no traceback."""


class Diagnostic(Exception):
    """A user-facing failure already written as a diagnostic."""


@dataclass(frozen=True)
class Source:
    """An input: its text, its name in diagnostics, and whether it is Relay text or MLIR."""

    text: str
    name: str
    format: str


RELAY_START = re.compile(r"(#\[version|def\s+@|fn\s*[(<]|type\s|free_var\b|let\s|v0\.0\.)")


def read_source(path: str, given_format: str | None, default_format: str = "mlir") -> Source:
    """Read `path` (``-``: stdin); its format from `given_format`, its name or its first words."""
    if path == STDIO:
        text, name = sys.stdin.read(), "<stdin>"
    else:
        text, name = read_text(Path(path)), path
    format_ = given_format
    if format_ is None:
        suffix = Path(path).suffix
        if suffix in (".relay", ".mlir"):
            format_ = suffix[1:]
        else:
            format_ = sniffed_format(text) or default_format
    return Source(text, name, format_)


def sniffed_format(text: str) -> str | None:
    """``relay`` or ``mlir`` from the first words of `text`, past comments; None if unsure."""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        return "relay" if RELAY_START.match(line) else "mlir"
    return None


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text") from None


def write(path: str | Path | None, text: str | Iterable[str]) -> None:
    """Write `text`, or its pieces one after another, to `path` or stdout (None or ``-``)."""
    pieces = [text] if isinstance(text, str) else text
    if path is None or str(path) == STDIO:
        sys.stdout.writelines(pieces)
        sys.stdout.flush()
        return
    try:
        with open(path, "w", encoding="utf-8") as output:
            output.writelines(pieces)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror}") from None


def load_module(path: str, given_format: str | None = None) -> ModuleOp:
    """A module from Relay text or MLIR (see `read_source` for which), verified."""
    return load(read_source(path, given_format))


def read_input(path: str) -> Source:
    """The text of input `path` (``-``: stdin) and whether it is Relay text or MLIR."""
    return read_source(path, None)


def load_input(source: Source) -> ModuleOp:
    """The module `source` (from `read_input`) holds, verified."""
    return load(source)


def load(source: Source) -> ModuleOp:
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


def input_source(args: argparse.Namespace) -> Source:
    return read_source(args.input, args.input_format, args.default_format)


def relay_text(module: ModuleOp, source: Source) -> Iterator[str]:
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
        raise Diagnostic(describe_op_error(str(error), module, culprit, text)) from None


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


def check_constants_have_values(module: ModuleOp, random_constants: int | None) -> None:
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
