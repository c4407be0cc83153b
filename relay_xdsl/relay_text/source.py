"""Source text with positions, and errors that point into it.

Every user-facing input error is reported as ``file:line:col: error: message``
followed by the offending line and a caret, the way compilers do. The
"source" may be a file, a metadata section, a pass pipeline (``-p``) or a
command line: anything with a name and text.

`SourceError` is an xDSL ``ParseError``, so ``xdsl-opt --parsing-diagnostics``
prints it and goes on, as it does for its own parse errors.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span


@dataclass
class SourceFile:
    """A named text whose offsets can be turned into line and column numbers."""

    text: str
    name: str = "<input>"

    @cached_property
    def _line_starts(self) -> list[int]:
        # Found when first asked for: a text read without error never is.
        starts = [0]
        find = self.text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        return starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of `offset`."""
        line = bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def offset(self, line: int, col: int) -> int:
        """The offset of 1-based `line` and `col` (IndexError past the last line)."""
        if line < 1:
            raise IndexError(line)
        return self._line_starts[line - 1] + col - 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start : end if end >= 0 else len(self.text)].rstrip("\r")


MAX_SHOWN_LINE = 160
"""Longer offending lines are shown as a window around the caret."""


def format_diagnostic(
    name: str, line: int, col: int, line_text: str, width: int, message: str
) -> str:
    """``name:line:col: error: message``, the line and a caret under `width` characters.

    The message and the line are kept to one line each, with newlines and
    other control characters escaped, so that the caret stays under the culprit.
    """
    message = _one_line(message)
    line_text = "".join(" " if c == "\t" else c if c.isprintable() else "?" for c in line_text)
    shown, caret_col = line_text, col
    if len(line_text) > MAX_SHOWN_LINE:
        # Hostile inputs put a whole program on one line; show the part that matters.
        start = max(0, min(col - 1 - MAX_SHOWN_LINE // 2, len(line_text) - MAX_SHOWN_LINE))
        shown = line_text[start : start + MAX_SHOWN_LINE]
        caret_col = col - start
        if start > 0:
            shown, caret_col = "..." + shown, caret_col + 3
        if start + MAX_SHOWN_LINE < len(line_text):
            shown += "..."
    width = max(1, min(width, len(shown) - caret_col + 1))
    caret = " " * (caret_col - 1) + "^" + "~" * (width - 1)
    return f"{name}:{line}:{col}: error: {message}\n{shown}\n{caret}"


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class SourceError(ParseError):
    """An error at a position in a source file."""

    def __init__(self, source: SourceFile, start: int, message: str, end: int | None = None):
        self.source = source
        self.start = min(max(start, 0), len(source.text))
        self.end = self.start + 1 if end is None else max(end, self.start + 1)
        self.message = message
        Exception.__init__(self, message)
        # What xDSL's drivers expect of a ParseError.
        self.span = Span(
            self.start, min(self.end, len(source.text)), Input(source.text, source.name)
        )
        self.msg = message

    @property
    def line_col(self) -> tuple[int, int]:
        return self.source.line_col(self.start)

    def format(self) -> str:
        line, col = self.line_col
        return format_diagnostic(
            self.source.name,
            line + self.span.line_offset,
            col,
            self.source.line_text(line),
            self.end - self.start,
            self.message,
        )

    def __str__(self) -> str:
        return self.format()

    __hash__ = Exception.__hash__
