"""relay-xdsl: TVM Relay and Relax graphs in MLIR tooling, built on xDSL.

The public Python API (docs/python-api.md):

* :func:`parse_relay` (Relay text → module of the relay dialect) and
  :func:`print_relay` (back to Relay text, as TVM prints it);
* :func:`run`: the reference interpreter;
* :func:`lower_module`: lowering to TOSA and linalg, for upstream MLIR;
* :func:`import_relax` and :func:`export_relax`: live TVM Relax modules
  (the ``tvm`` extra);
* :func:`run_deep`: the opt-in for deeply nested programs (the calls above
  recurse on the caller's stack and change nothing process-wide);
* :mod:`relay_xdsl.dataflow_pattern`: the pattern language of pattern tables.

Each name is imported on first use, so ``import relay_xdsl`` stays cheap and
needs neither numpy nor TVM.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from relay_xdsl.conversion import lower_module
    from relay_xdsl.exporters.relax import export_relax
    from relay_xdsl.exporters.relay_text import print_relay
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.importers.relay_text import parse_relay
    from relay_xdsl.interpreter import run
    from relay_xdsl.support.depth import run_deep

_HOMES = {
    "parse_relay": "relay_xdsl.importers.relay_text",
    "print_relay": "relay_xdsl.exporters.relay_text",
    "run": "relay_xdsl.interpreter",
    "lower_module": "relay_xdsl.conversion",
    "import_relax": "relay_xdsl.importers.relax",
    "export_relax": "relay_xdsl.exporters.relax",
    "run_deep": "relay_xdsl.support.depth",
}
"""Each public name (``__all__``) and the module that defines it."""

__all__ = [
    "export_relax",
    "import_relax",
    "lower_module",
    "parse_relay",
    "print_relay",
    "run",
    "run_deep",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'relay_xdsl' has no attribute '{name}'")
    return getattr(importlib.import_module(home), name)
