"""``relay-xdsl view FILE --explorer``: Model Explorer's server with relay-xdsl's adapter."""

from __future__ import annotations

import gc
from pathlib import Path

from relay_xdsl.tools.io import CommandError, load_module

EXTENSION = "relay_xdsl.tools.explorer"
"""What Model Explorer's ``--extensions`` names: this package."""

INSTALL_HINT = "pip install 'relay-xdsl[viz]' (ai-edge-model-explorer)"


def launch(files: list[Path], *, host: str, port: int, open_browser: bool) -> None:
    """Serve `files` (two are compared side by side) until interrupted."""
    try:
        import model_explorer
    except ImportError:
        raise CommandError(f"--explorer needs Google's Model Explorer: {INSTALL_HINT}") from None
    from relay_xdsl.tools.explorer.main import ADAPTER_ID

    for path in files:
        load_module(str(path))  # errors as diagnostics here, not in the browser
    config = model_explorer.config()
    for path in files:
        # By id: Model Explorer's own MLIR adapter also claims `.mlir`.
        config.add_model_from_path(str(path), adapterId=ADAPTER_ID)
    # The server runs until interrupted and converts a module per request:
    # the collector must run meanwhile.
    gc.enable()
    model_explorer.visualize_from_config(
        config=config,
        host=host,
        port=port,
        extensions=[EXTENSION],
        no_open_in_browser=not open_browser,
    )
