"""What an ``xdsl-opt`` command line reads and runs, read as xdsl-opt reads it."""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Sequence
from typing import NoReturn


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


def is_xdsl_opt(argv: Sequence[str]) -> bool:
    """Whether `argv` (``sys.argv``) is an ``xdsl-opt`` command line."""
    return bool(argv) and "xdsl-opt" in os.path.basename(argv[0])
