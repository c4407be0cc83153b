"""What the relay passes tell their user: bad option values and runs that did nothing.

* `PassOptionError`: an option value out of its range, raised when the pass
  is built (``relay-fuse-ops{max-depth=-1}``), so that ``xdsl-opt`` reports
  it at the option before it reads any input.
* `RelayPassWarning`: the options asked for something the module does not
  have (a ``composite=`` name no function carries, a pattern that matches
  nothing). The pass still succeeds; the commands print the warning on
  stderr as ``warning: ...``, and Python shows it as any ``UserWarning``.
"""

from __future__ import annotations

import warnings


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
