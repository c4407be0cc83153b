"""Source text with positions, and errors that point into it.

Every user-facing input error is reported as ``file:line:col: error: message``
followed by the offending line and a caret, the way compilers do.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field


@dataclass
class SourceFile:
    """A named text whose offsets can be turned into line and column numbers."""

    text: str
    name: str = "<input>"
    _line_starts: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        starts = [0]
        find = self.text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of `offset`."""
        line = bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start : end if end >= 0 else len(self.text)].rstrip("\r")


class SourceError(Exception):
    """An error at a position in a source file."""

    def __init__(
        self, source: SourceFile, start: int, message: str, end: int | None = None
    ):
        self.source = source
        self.start = min(max(start, 0), len(source.text))
        self.end = self.start + 1 if end is None else max(end, self.start + 1)
        self.message = message
        super().__init__(self.format())

    @property
    def line_col(self) -> tuple[int, int]:
        return self.source.line_col(self.start)

    def format(self) -> str:
        line, col = self.line_col
        text = self.source.line_text(line)
        width = max(1, min(self.end - self.start, len(text) - col + 1))
        caret = " " * (col - 1) + "^" + "~" * (width - 1)
        return (
            f"{self.source.name}:{line}:{col}: error: {self.message}\n{text}\n{caret}"
        )
