"""User-facing errors in one format, including the ones xDSL raises.

relay-xdsl reports every input error as ``file:line:col: error: message``,
the offending line and a caret, and exits with status 1. Its own errors are
`SourceError`s already; this module brings xDSL's into the same shape:

* `describe_parse_error`: MLIR syntax errors (``ParseError``), with what was
  found where something else was expected;
* `locate_verify_error`: verifier errors, pointed at the failing op's place
  in the MLIR text (xDSL does not keep op positions, so the text is parsed
  again with a parser that records them);
* `check_pass_pipeline`: ``-p`` pipelines, naming unknown passes, unknown
  options and bad values together with the valid ones;
* `install_xdsl_opt_excepthook`: ``xdsl-opt`` lets these errors escape as
  tracebacks; in runs that involve relay (see tools/universe.py) they are
  printed as diagnostics instead (``RELAY_XDSL_TRACEBACK=1`` restores
  tracebacks). Errors that are not about the input, i.e. bugs, keep their
  traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import NoneType, TracebackType, UnionType
from typing import TYPE_CHECKING, Any, NoReturn, Union, get_args, get_origin, get_type_hints

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError

from relay_xdsl.relay_text.source import SourceError, SourceFile, format_diagnostic
from relay_xdsl.support.depth import MAX_NESTING, NestingTooDeepError, walk_ops
from relay_xdsl.transforms.diagnostics import PassFailedAtError

if TYPE_CHECKING:
    from xdsl.utils.arg_spec import PipelineLexer, SpecToken

PIPELINE_SOURCE = "<pass pipeline>"
"""The name under which ``-p`` pipelines appear in diagnostics."""


# -- MLIR syntax ----------------------------------------------------------------


def describe_parse_error(error: ParseError) -> str:
    """`error` as ``file:line:col: error: ...`` with its line and a caret."""
    if isinstance(error, SourceError):
        return str(error)
    span = error.span
    content = span.input.content
    if isinstance(content, bytes):
        content = content.decode("utf-8", errors="replace")
    start = min(span.start, len(content))
    line_start = content.rfind("\n", 0, start) + 1
    line_end = content.find("\n", start)
    line_text = content[line_start : line_end if line_end >= 0 else len(content)]
    line = content.count("\n", 0, start) + 1 + span.line_offset
    message = error.msg.strip()
    if "expected" in message and not re.search(r"\b(found|got|but)\b", message):
        message += f", found {_found(content, span.start, span.end)}"
    return format_diagnostic(
        span.input.name,
        line,
        start - line_start + 1,
        line_text.rstrip("\r"),
        max(1, span.end - span.start),
        message,
    ) + _hint(message)


def _hint(message: str) -> str:
    """A note on what to do, for errors whose usual cause is known."""
    if message.startswith("undefined symbol alias '#loc"):
        return (
            "\nnote: mlir-opt prints location aliases after the module, where xDSL's parser "
            "cannot read them; read mlir-opt's output with `xdsl-opt -f upstream-mlir`"
        )
    return ""


def _found(content: str, start: int, end: int) -> str:
    if start >= len(content) or not content[start:].strip():
        return "the end of the input"
    text = content[start:end].strip()
    if not text or len(text) > 24 or "\n" in text:
        word = content[start:].split(None, 1)[0]
        text = word if len(word) <= 24 else word[:24] + "..."
    return repr(text)


class _LocatingParser(Parser):
    """An MLIR parser that remembers where each operation starts."""

    def __init__(self, ctx: Context, text: str, name: str):
        super().__init__(ctx, text, name)
        self.op_starts: dict[Operation, int] = {}

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self.op_starts[op] = start
        return op


def parse_mlir(ctx: Context, text: str, name: str) -> tuple[ModuleOp, dict[Operation, int]]:
    """Parse MLIR text, also returning each operation's offset in it.

    xDSL checks attributes as it builds them and lets their errors escape
    without a position (``VerifyException: Data length of array ...``);
    those become ``ParseError``s where the parser stopped.
    """
    parser = _LocatingParser(ctx, text, name)
    try:
        module = parser.parse_module()
    except ParseError:
        raise
    except (
        DiagnosticException,
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        NotImplementedError,
        OverflowError,
    ) as error:
        span = parser._current_token.span
        raise ParseError(span, f"invalid attribute or type before this point: {error}") from None
    return module, parser.op_starts


def locate_verify_error(
    module: ModuleOp, op_starts: Mapping[Operation, int], source: SourceFile
) -> SourceError | None:
    """The first operation of `module` that fails to verify, as a `SourceError`.

    Operations are checked parents first: xDSL verifies nested ops before
    their parent, and some of its verifiers crash (``KeyError``) on children
    of an invalid parent instead of reporting the parent.
    """
    for op in walk_ops(module):
        try:
            op.verify(verify_nested_ops=False)
        except Exception as error:  # noqa: BLE001
            start = op_starts.get(op)
            if start is None:
                return None
            message = str(error).removeprefix("Operation does not verify: ")
            if not isinstance(error, DiagnosticException):
                message = f"is invalid ({type(error).__name__}: {message})"
            name_end = source.text.find("(", start)
            line_end = source.text.find("\n", start)
            end = min(e for e in (name_end, line_end, len(source.text)) if e >= 0)
            return SourceError(source, start, f"'{op.name}' op {message}", end)
    return None


def describe_diagnostic(error: BaseException, source_name: str = "") -> str:
    """A verifier or pass error without a position: message and the IR around it."""
    prefix = f"{source_name}: " if source_name else ""
    lines = [f"{prefix}error: {error}"]
    for note in getattr(error, "__notes__", ()):
        lines.extend(_excerpt(note))
    return "\n".join(lines)


def _excerpt(note: str, context: int = 2) -> list[str]:
    """The lines of a diagnostic note around its ``^^^`` marker."""
    lines = note.splitlines()
    for index, line in enumerate(lines):
        if line.strip().startswith("^"):
            return lines[max(0, index - context) : index + 3]
    return lines[:5]


# -- pass pipelines -----------------------------------------------------------------


def check_pass_pipeline(
    text: str, available: Mapping[str, Callable[[], type]]
) -> SourceError | None:
    """The first problem in the pass pipeline `text`, or None if it is valid.

    Unknown passes, unknown options and badly typed values are reported at
    their place in the pipeline, with the valid names or the expected type.
    """
    from xdsl.utils.arg_spec import PipelineLexer, SpecTokenKind

    source = SourceFile(text, PIPELINE_SOURCE)
    lexer = PipelineLexer(text)
    last_end = 0

    def lex():
        nonlocal last_end
        try:
            token = lexer.lex()
        except ArgSpecParseError:
            raise SourceError(
                source, last_end, f"unexpected character {text[last_end : last_end + 1]!r}"
            ) from None
        last_end = token.span.end
        return token

    def peek():
        try:
            return lexer.peek()
        except ArgSpecParseError:
            raise SourceError(
                source, last_end, f"unexpected character {text[last_end : last_end + 1]!r}"
            ) from None

    def found(token: SpecToken) -> str:
        if token.kind is SpecTokenKind.EOF:
            return "the end of the pipeline"
        return repr(token.span.text)

    try:
        while peek().kind is not SpecTokenKind.EOF:
            name = lex()
            if name.kind is not SpecTokenKind.IDENT:
                raise SourceError(
                    source,
                    name.span.start,
                    f"expected a pass name, found {found(name)}",
                    name.span.end,
                )
            options: list[tuple[Any, tuple, int, int]] = []
            if peek().kind is SpecTokenKind.L_BRACE:
                lex()
                while True:
                    key = lex()
                    if key.kind is SpecTokenKind.R_BRACE:
                        break
                    if key.kind is not SpecTokenKind.IDENT:
                        raise SourceError(
                            source,
                            key.span.start,
                            f"expected an option name or '}}', found {found(key)}",
                            key.span.end,
                        )
                    after = lex()
                    if after.kind in (SpecTokenKind.SPACE, SpecTokenKind.R_BRACE):
                        options.append((key, (), key.span.start, key.span.end))
                        if after.kind is SpecTokenKind.R_BRACE:
                            break
                        continue
                    if after.kind is not SpecTokenKind.EQUALS:
                        raise SourceError(
                            source,
                            after.span.start,
                            f"expected '=', a space or '}}' after option '{key.span.text}', "
                            f"found {found(after)}",
                            after.span.end,
                        )
                    value_start = peek().span.start
                    values = _option_values(lexer, lex, peek, source, found)
                    options.append((key, values, value_start, peek().span.start))
                    after = lex()
                    if after.kind is SpecTokenKind.R_BRACE:
                        break
                    if after.kind is not SpecTokenKind.SPACE:
                        raise SourceError(
                            source,
                            after.span.start,
                            f"expected a space or '}}' after the value of "
                            f"'{key.span.text}', found {found(after)}",
                            after.span.end,
                        )
            elif peek().kind is SpecTokenKind.MLIR_PIPELINE:
                lex()
                options = []
            error = _check_pass(source, name, options, available)
            if error is not None:
                return error
            separator = lex()
            if separator.kind is SpecTokenKind.EOF:
                break
            if separator.kind is not SpecTokenKind.COMMA:
                raise SourceError(
                    source,
                    separator.span.start,
                    f"expected ',' between passes, found {found(separator)}",
                    separator.span.end,
                )
    except SourceError as error:
        return error
    return None


def _option_values(
    lexer: PipelineLexer,
    lex: Callable[[], SpecToken],
    peek: Callable[[], SpecToken],
    source: SourceFile,
    found: Callable[[SpecToken], str],
) -> tuple:
    from xdsl.utils.arg_spec import SpecTokenKind, _parse_parameter_value_element

    values = []
    while True:
        token = peek()
        if token.kind not in (SpecTokenKind.STRING_LIT, SpecTokenKind.NUMBER, SpecTokenKind.IDENT):
            raise SourceError(
                source,
                token.span.start,
                f"expected an option value, found {found(token)}",
                token.span.end,
            )
        values.append(_parse_parameter_value_element(lexer))
        if peek().kind is not SpecTokenKind.COMMA:
            return tuple(values)
        lex()


def _check_pass(
    source: SourceFile,
    name: SpecToken,
    options: Sequence[tuple[Any, tuple, int, int]],
    available: Mapping[str, Callable[[], type]],
) -> SourceError | None:
    pass_name = name.span.text
    factory = available.get(pass_name)
    if factory is None:
        close = difflib.get_close_matches(pass_name, list(available), n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return SourceError(
            source,
            name.span.start,
            f"unknown pass '{pass_name}'{hint} ({valid_passes(available)})",
            name.span.end,
        )
    if pass_name == "mlir-opt":
        return None
    pass_class = factory()
    if not dataclasses.is_dataclass(pass_class):
        return None
    fields = {f.name: f for f in dataclasses.fields(pass_class) if f.init and f.name != "name"}
    hints = get_type_hints(pass_class)
    seen: set[str] = set()
    given: dict[str, Any] = {}
    spans: dict[str, tuple[int, int]] = {}
    for key, values, value_start, value_end in options:
        key_name = key.span.text.replace("-", "_")
        spelled = key.span.text
        if key_name not in fields:
            spellings = [name.replace("_", "-") for name in fields]
            close = difflib.get_close_matches(spelled, spellings, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            return SourceError(
                source,
                key.span.start,
                f"{pass_name} has no option '{spelled}'{hint} ({valid_options(pass_class)})",
                key.span.end,
            )
        seen.add(key_name)
        expected = hints.get(key_name)
        if expected is not None and not _accepts(values, expected):
            shown = ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)
            return SourceError(
                source,
                value_start if values else key.span.start,
                f"option '{spelled}' of {pass_name} expects {describe_type(expected)}, "
                f"found {shown!r}"
                if values
                else f"option '{spelled}' of {pass_name} needs a value: {describe_type(expected)}",
                value_end if values else key.span.end,
            )
        if expected is not None:
            from xdsl.utils.arg_spec import _convert_arg_to_type

            given[key_name] = _convert_arg_to_type(values, expected)
            spans[spelled] = (value_start, value_end) if values else (key.span.start, key.span.end)
    for field_name, field in fields.items():
        if (
            field_name not in seen
            and field.default is dataclasses.MISSING
            and field.default_factory is dataclasses.MISSING
        ):
            return SourceError(
                source,
                name.span.start,
                f"{pass_name} needs option '{field_name.replace('_', '-')}'; "
                f"{valid_options(pass_class)}",
                name.span.end,
            )
    return _check_values(source, name, pass_class, given, spans)


def _check_values(
    source: SourceFile,
    name: SpecToken,
    pass_class: type,
    given: dict[str, Any],
    spans: Mapping[str, tuple[int, int]],
) -> SourceError | None:
    """Build the pass: a value out of range is reported at the option that gives it."""
    from relay_xdsl.transforms.diagnostics import PassOptionError

    try:
        pass_class(**given)
    except PassOptionError as error:
        start, end = spans.get(error.option, (name.span.start, name.span.end))
        return SourceError(source, start, str(error), end)
    except (TypeError, ValueError):
        return None  # left to xDSL, which builds the pass itself
    return None


def valid_passes(available: Mapping[str, object]) -> str:
    """``valid passes: ...``: relay-xdsl's, then how many others there are."""
    relay = sorted(name for name in available if name.startswith(("relay-", "convert-relay-")))
    others = len(available) - len(relay)
    listed = ", ".join(relay) if relay else "none"
    if not others:
        return f"valid passes: {listed}"
    return f"valid passes: {listed}, and {others} of xDSL's, listed by `xdsl-opt --help`"


def _accepts(values: tuple, expected: Any) -> bool:
    from xdsl.utils.arg_spec import _convert_arg_to_type

    try:
        _convert_arg_to_type(values, expected)
    except (ValueError, TypeError):
        return False
    return True


def valid_options(pass_class: type) -> str:
    """``valid options: a=<type> (default: x), ...`` for a pass class."""
    hints = get_type_hints(pass_class)
    parts = []
    for field in dataclasses.fields(pass_class):
        if not field.init or field.name == "name":
            continue
        spelled = field.name.replace("_", "-")
        part = f"{spelled}=<{describe_type(hints.get(field.name))}>"
        if field.default is not dataclasses.MISSING:
            part += f" (default: {_show_default(field.default)})"
        parts.append(part)
    return "valid options: " + (", ".join(parts) if parts else "none")


def _show_default(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return ",".join(map(str, value)) if value else "none"
    if value is None:
        return "none"
    return str(value)


def describe_type(type_: Any) -> str:
    """A pass option type in words."""
    if type_ is bool:
        return "true or false"
    if type_ is int:
        return "an integer"
    if type_ is float:
        return "a number"
    if type_ is str:
        return "a string"
    origin = get_origin(type_)
    if origin in (Union, UnionType):
        others = [t for t in get_args(type_) if t is not NoneType]
        return " or ".join(describe_type(t) for t in others) + " (optional)"
    if origin is tuple:
        element = get_args(type_)[0]
        return f"comma-separated {describe_type(element).removeprefix('a ').removeprefix('an ')}s"
    return str(type_)


# -- errors of a printer ------------------------------------------------------------


def culprit_op(tb: TracebackType | None) -> Operation | None:
    """The op the innermost frame of `tb` that has one was working on (``op``/``func``)."""
    found = None
    while tb is not None:
        for name in ("op", "func"):
            value = tb.tb_frame.f_locals.get(name)
            if isinstance(value, Operation):
                found = value
                break
        tb = tb.tb_next
    return found


def describe_op_error(
    message: str,
    module: ModuleOp,
    op: Operation | None,
    source: SourceFile | None,
    op_starts: Mapping[Operation, int] | None = None,
) -> str:
    """`message` about `op`, at its place in `source` (the MLIR `module` was read from).

    Without `op_starts`, `source` is parsed again and `op` found by its
    position in the walk, which holds as long as no pass changed the module.
    """
    name = source.name if source is not None else "<input>"
    if op is None:
        return f"{name}: error: {message}"
    if source is not None and op_starts is None:
        try:
            reparsed, starts = parse_mlir(relay_context_for(module), source.text, source.name)
            index = next(i for i, o in enumerate(walk_ops(module)) if o is op)
            same = next(o for i, o in enumerate(walk_ops(reparsed)) if i == index)
            if same.name == op.name:
                op, op_starts = same, starts
        except Exception:  # noqa: BLE001
            op_starts = None
    start = (op_starts or {}).get(op)
    if source is None or start is None:
        # Not in the input as read (stdin, or a pass made it): the op as it is now.
        text = str(op).partition("\n")[0]
        return f"{name}: error: '{op.name}' op: {message}\n  {text}"
    line_end = source.text.find("\n", start)
    end = line_end if line_end >= 0 else len(source.text)
    return str(SourceError(source, start, f"'{op.name}' op: {message}", end))


def relay_context_for(module: ModuleOp) -> Context:
    """A context that reads back what `module` holds: every dialect xDSL knows, and relay."""
    from xdsl.universe import Universe

    ctx = Context(allow_unregistered=True)
    for dialect_name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(dialect_name, factory)
    return ctx


# -- pass warnings -------------------------------------------------------------------


@contextlib.contextmanager
def pass_warnings_printed() -> Iterator[None]:
    """Print the relay passes' warnings (`RelayPassWarning`) on stderr as
    ``warning: ...``, each time, without Python's file and line; other warnings
    are shown as Python shows them."""
    from relay_xdsl.transforms.diagnostics import RelayPassWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RelayPassWarning)
        try:
            yield
        finally:
            for warning in caught:
                if issubclass(warning.category, RelayPassWarning):
                    sys.stderr.write(f"warning: {warning.message}\n")
                else:
                    warnings.showwarning(
                        warning.message,
                        warning.category,
                        warning.filename,
                        warning.lineno,
                        warning.file,
                        warning.line,
                    )


# -- xdsl-opt ------------------------------------------------------------------------


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


@dataclasses.dataclass(frozen=True)
class XdslOptCommandLine:
    """The arguments of an ``xdsl-opt`` command line that say what it reads and runs."""

    input: str | None = None
    frontend: str | None = None
    target: str | None = None
    passes: str | None = None

    @property
    def frontend_name(self) -> str:
        """The frontend xdsl-opt picks: ``-f`` without its options, else the input's extension."""
        if self.frontend is not None:
            return self.frontend.partition("{")[0]
        if self.input is None:
            return "mlir"
        return os.path.splitext(self.input)[1].removeprefix(".")

    @property
    def target_name(self) -> str:
        return (self.target or "mlir").partition("{")[0]


class _CommandLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


def read_xdsl_opt_command_line(argv: Sequence[str]) -> XdslOptCommandLine:
    """Input, frontend, target and pass pipeline of ``xdsl-opt`` command line `argv`
    (as xdsl-opt's own parser reads them; all None if it cannot be read)."""
    parser = _CommandLineParser(add_help=False, exit_on_error=False)
    parser.add_argument("input", nargs="?")
    parser.add_argument("-f", "--frontend")
    parser.add_argument("-t", "--target")
    parser.add_argument("-p", "--passes")
    parser.add_argument("-o", "--output-file")
    try:
        args, _ = parser.parse_known_args(list(argv[1:]))
    except (ValueError, argparse.ArgumentError):
        return XdslOptCommandLine()
    return XdslOptCommandLine(args.input, args.frontend, args.target, args.passes)


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


def is_xdsl_opt(argv: Sequence[str]) -> bool:
    """Whether `argv` (``sys.argv``) is an ``xdsl-opt`` command line."""
    return bool(argv) and "xdsl-opt" in os.path.basename(argv[0])


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
