"""User-facing errors in one format, including the ones xDSL raises.

relay-xdsl reports every input error as ``file:line:col: error: message``,
the offending line and a caret, and exits with status 1. Its own errors are
`SourceError`s already; this module brings xDSL's into the same shape:

* `describe_parse_error`: MLIR syntax errors (``ParseError``), with what was
  found where something else was expected;
* `locate_verify_error`: verifier errors, pointed at the failing op's place
  in the MLIR text (xDSL does not keep op positions, so the text is parsed
  again with a parser that records them);
* `describe_op_error`: an error of a printer or exporter, at the op it was
  working on;
* `pass_warnings_printed`: the relay passes' warnings as ``warning: ...``.

Pass pipelines are checked in :mod:`relay_xdsl.tools.pass_pipeline`; errors
that escape ``xdsl-opt`` are printed by :mod:`relay_xdsl.tools.xdsl_opt.excepthook`.
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterator, Mapping
from types import TracebackType

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError

from relay_xdsl.relay_text.source import SourceError, SourceFile, format_diagnostic
from relay_xdsl.support.depth import walk_ops
from relay_xdsl.support.xdsl_internals import current_token_span

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
        start = current_token_span(self).start
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
        span = current_token_span(parser)
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
