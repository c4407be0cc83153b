"""What `xdsl-opt` sees of relay-xdsl: the dialect, the passes, and Relay text in and out.

Registered through the ``xdsl.universe`` entry point, so that
``xdsl-opt model.relay -p relay-defuse -t relay`` works once the package is
installed. Besides the ``relay`` frontend and target, ``-t upstream-mlir``
prints generic MLIR for upstream tools (``mlir-opt``) and ``-f upstream-mlir``
reads what they print (see upstream.py).

Loading this module inside ``xdsl-opt`` also makes input errors (bad MLIR,
bad Relay text, bad pass options, invalid IR) print as
``file:line:col: error: ...`` diagnostics instead of tracebacks; see
diagnostics.py.

The frontends and targets build and print modules with Python's cyclic
garbage collector paused (support/gc_pause.py): relay-xdsl's library
functions leave the collector to the program that calls them.
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

from relay_xdsl.tools import xdsl_patches  # noqa: F401  (fixes xDSL lexer bugs)
from relay_xdsl.tools.diagnostics import install_xdsl_opt_excepthook


def _relay_dialect() -> Dialect:
    from relay_xdsl.dialects.relay import Relay

    return Relay


def _defuse_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.defuse import RelayDefusePass

    return RelayDefusePass


def _merge_composite_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass

    return RelayMergeCompositePass


def _fuse_ops_pass() -> type[ModulePass]:
    from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

    return RelayFuseOpsPass


@dataclass(frozen=True)
class RelayTextFrontend(Frontend):
    """Reads TVM Relay text (`.relay` files) into the relay dialect."""

    name: ClassVar[str] = "relay"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        from relay_xdsl.importers.relay_text import parse_relay
        from relay_xdsl.support.gc_pause import gc_paused

        text = input.read().decode("utf-8", errors="replace")
        # A RelayTextError is an xDSL ParseError: `--parsing-diagnostics`
        # prints it, and otherwise the diagnostics hook does, without a traceback.
        with gc_paused():
            return parse_relay(text, source_name=input_name)


@dataclass(frozen=True)
class RelayTextTarget(Target):
    """Prints the module as TVM Relay text (`-t relay`)."""

    name: ClassVar[str] = "relay"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from relay_xdsl.exporters.relay_text import RelayExportError, relay_chunks
        from relay_xdsl.support.gc_pause import gc_paused

        with gc_paused():
            try:
                chunks = relay_chunks(module)
            except RelayExportError as error:
                raise SystemExit(f"error: {error}") from None
            output.writelines(chunks)


@dataclass(frozen=True)
class UpstreamMLIRTarget(Target):
    """Generic MLIR for upstream MLIR tools (`-t upstream-mlir`).

    ``--print-op-generic --print-debuginfo``, with every Relay name first
    recorded as a ``NameLoc``, so that names survive ``mlir-opt`` even when
    they were only SSA names in the input or a pass has moved them.
    """

    name: ClassVar[str] = "upstream-mlir"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from relay_xdsl.support.depth import run_deep
        from relay_xdsl.tools.mlir_text import print_mlir

        run_deep(lambda: print_mlir(module, output, generic=True, ctx=ctx), what="the module")


@dataclass(frozen=True)
class UpstreamMLIRFrontend(Frontend):
    """MLIR as upstream ``mlir-opt`` prints it (`-f upstream-mlir`): location
    aliases may follow the module."""

    name: ClassVar[str] = "upstream-mlir"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        from xdsl.parser import Parser

        from relay_xdsl.tools.mlir_text import hoist_location_aliases

        text = hoist_location_aliases(input.read().decode("utf-8", errors="replace"))
        return Parser(ctx, text, input_name).parse_module()


RELAY_UNIVERSE = Universe(
    all_dialects={"relay": _relay_dialect},
    all_passes={
        "relay-defuse": _defuse_pass,
        "relay-merge-composite": _merge_composite_pass,
        "relay-fuse-ops": _fuse_ops_pass,
    },
    all_frontends={
        "relay": lambda: RelayTextFrontend,
        "upstream-mlir": lambda: UpstreamMLIRFrontend,
    },
    all_targets={"relay": lambda: RelayTextTarget, "upstream-mlir": lambda: UpstreamMLIRTarget},
)

install_xdsl_opt_excepthook()
