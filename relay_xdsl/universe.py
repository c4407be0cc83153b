"""What `xdsl-opt` sees of relay-xdsl: the dialect, the passes, and Relay text in and out.

Registered through the ``xdsl.universe`` entry point, so that
``xdsl-opt model.relay -p relay-defuse -t relay`` works once the package is
installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.frontend import Frontend
from xdsl.utils.target import Target


def _relay_dialect() -> Dialect:
    from relay_xdsl.dialects.relay import Relay

    return Relay


def _defuse_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.defuse import RelayDefusePass

    return RelayDefusePass


@dataclass(frozen=True)
class RelayTextFrontend(Frontend):
    """Reads TVM Relay text (`.relay` files) into the relay dialect."""

    name: ClassVar[str] = "relay"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        from relay_xdsl.importers.relay_text import RelayTextError, parse_relay

        text = input.read().decode("utf-8", errors="replace")
        try:
            return parse_relay(text, source_name=input_name)
        except RelayTextError as error:
            # A user mistake: report it like a compiler, without a traceback.
            raise SystemExit(f"{error}") from None


@dataclass(frozen=True)
class RelayTextTarget(Target):
    """Prints the module as TVM Relay text (`-t relay`)."""

    name: ClassVar[str] = "relay"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from relay_xdsl.exporters.relay_text import RelayExportError, print_relay

        try:
            output.write(print_relay(module))
        except RelayExportError as error:
            raise SystemExit(f"error: {error}") from None


RELAY_UNIVERSE = Universe(
    all_dialects={"relay": _relay_dialect},
    all_passes={"relay-defuse": _defuse_pass},
    all_frontends={"relay": lambda: RelayTextFrontend},
    all_targets={"relay": lambda: RelayTextTarget},
)
