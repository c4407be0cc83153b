"""Model Explorer's adapter for Relay text (``.relay``) and relay-dialect MLIR (``.mlir``).

The file is read as ``relay-xdsl`` reads it (``cli.load_module``); the graph
is relay_xdsl/viz's drawing converted by ``viz/explorer.py``: each
``relay.fn`` a layer named by its Composite or Primitive operators. A file
that does not parse or verify is reported by its ``file:line:col: error:``
diagnostic, which Model Explorer shows.
"""

from __future__ import annotations

from pathlib import Path

from model_explorer.adapter import Adapter, AdapterMetadata
from model_explorer.types import ModelExplorerGraphs
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from relay_xdsl.support.depth import NestingTooDeepError, run_deep
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.tools import xdsl_patches
from relay_xdsl.tools.diagnostics import describe_diagnostic, describe_parse_error
from relay_xdsl.tools.io import CommandError, load_module
from relay_xdsl.viz.explorer import explorer_graphs

ADAPTER_ID = "relay_xdsl"


class ModelLoadError(Exception):
    """The file is not a valid module; the message is its diagnostic."""


def read_graphs(path: Path) -> ModelExplorerGraphs:
    """The Model Explorer graphs of the module in `path`."""
    xdsl_patches.apply()
    try:
        with gc_paused():
            module = run_deep(load_module, path, what=str(path))
            return explorer_graphs(module, path.name)
    except ParseError as error:
        raise ModelLoadError(describe_parse_error(error)) from None
    except (VerifyException, DiagnosticException) as error:
        raise ModelLoadError(describe_diagnostic(error)) from None
    except (CommandError, NestingTooDeepError) as error:
        raise ModelLoadError(f"error: {error}") from None


class RelayAdapter(Adapter):
    """Relay text and relay-dialect MLIR, with fused groups as layers."""

    metadata = AdapterMetadata(
        id=ADAPTER_ID,
        name="relay-xdsl",
        description="TVM Relay text and relay-dialect MLIR; relay.fn groups are layers",
        fileExts=["relay", "mlir"],
    )

    def __init__(self) -> None:
        super().__init__()

    def convert(self, model_path: str, settings: dict) -> ModelExplorerGraphs:
        return read_graphs(Path(model_path))
