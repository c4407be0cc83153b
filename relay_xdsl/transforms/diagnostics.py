"""What the relay passes tell their user: bad option values, runs that did nothing,
and errors at a place in the input.

* `PassOptionError`: an option value out of its range, raised when the pass
  is built (``relay-fuse-ops{max-depth=-1}``), so that ``xdsl-opt`` reports
  it at the option before it reads any input.
* `RelayPassWarning`: the options asked for something the module does not
  have (a ``composite=`` name no function carries, a pattern that matches
  nothing). The pass still succeeds; the commands print the warning on
  stderr as ``warning: ...``, and Python shows it as any ``UserWarning``.
* `PassFailedAtError`: the pass failed on an op that came from a known
  place of the input (a ``FileLineColLoc``, as the Relay importer records
  where it defers a check): ``file:line:col: error: message``.
"""

from __future__ import annotations

import warnings

from xdsl.dialects.builtin import FileLineColLoc, NameLoc
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import PassFailedException


class PassOptionError(ValueError):
    """Option `option` (spelled as on the command line) of pass `pass_name` is invalid."""

    def __init__(self, pass_name: str, option: str, message: str):
        super().__init__(f"option '{option}' of {pass_name} {message}")
        self.pass_name = pass_name
        self.option = option


def check_at_least(pass_name: str, option: str, value: int, minimum: int) -> None:
    """Raise `PassOptionError` unless ``value >= minimum``."""
    if value < minimum:
        raise PassOptionError(pass_name, option, f"must be at least {minimum}, found {value}")


class RelayPassWarning(UserWarning):
    """A relay pass ran as asked, but its options matched nothing in the module."""


def warn(pass_name: str, message: str) -> None:
    """Warn that `pass_name`'s options matched nothing (`RelayPassWarning`)."""
    warnings.warn(f"{pass_name}: {message}", RelayPassWarning, stacklevel=3)


class PassFailedAtError(PassFailedException):
    """A pass failed at ``file:line:col`` of its input (see the module docstring)."""

    def __init__(self, message: str, file: str, line: int, column: int):
        super().__init__(f"{file}:{line}:{column}: error: {message}")
        self.message = message
        self.file, self.line, self.column = file, line, column


def source_position(op: Operation | None) -> tuple[str, int, int] | None:
    """``(file, line, column)`` of the nearest of `op` and its ancestors whose
    location is a ``FileLineColLoc`` (possibly inside a ``NameLoc``), if any."""
    while op is not None:
        location: Attribute = op.location
        while isinstance(location, NameLoc):
            location = location.location
        if isinstance(location, FileLineColLoc):
            return location.filename.data, location.line.data, location.column.data
        op = op.parent_op()
    return None
