"""Peak memory of ``import_relax`` on a torchvision model, against its weight bytes.

Run in a fresh process (``python -m bench.memory resnet50``), which prints
one JSON object. The model is built first (``torch.export``, TVM's
frontend, batch-norm folding); then garbage is collected, freed heap is
returned to the system (``malloc_trim``) and the kernel's peak-RSS mark is
reset (``/proc/self/clear_refs``), so that the peak measured afterwards
belongs to the import alone:

* ``peak_increase``: peak RSS during the import minus RSS just before it;
* ``retained``: RSS after the import (module alive) minus RSS before it;
* ``traced_peak``: the same import again under ``tracemalloc`` (Python and
  NumPy allocations only, not TVM's C++ heap);
* ``weight_bytes``: the bytes of all constants in the Relax module;
* ``relay_write_peak``: peak RSS increase while its Relay text is written
  to a file piece by piece (``relay_chunks``), against
  ``relay_print_peak`` for building the text as one string
  (``print_relay``); ``relay_text_bytes`` is the text's size.

Where the peak mark cannot be reset, ``peak_increase`` falls back to the
growth of ``ru_maxrss`` and may read low (the model build's own peak can
hide the import's).
"""

from __future__ import annotations

import ctypes
import gc
import json
import resource
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tvm


def _status(field: str) -> int:
    """A ``/proc/self/status`` field in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _trim() -> None:
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except OSError:
        pass


def weight_bytes(mod: tvm.IRModule) -> int:
    import tvm
    from tvm import relax

    seen: dict[object, int] = {}

    def visit(node: object) -> None:
        if isinstance(node, tvm.ir.GenericConst):
            seen[node] = node.value.numpy().nbytes

    for func in mod.functions.values():
        relax.analysis.post_order_visit(func, visit)
    return sum(seen.values())


def _peak_increase(action: Callable[[], object]) -> tuple[object, int, int, bool]:
    """`action`'s result, RSS before it, its peak RSS increase, and whether exact."""
    _trim()
    exact = _reset_peak()
    before = _status("VmRSS")
    maxrss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    result = action()
    if exact:
        peak = _status("VmHWM") - before
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - maxrss_before
    return result, before, peak, exact


def measure(name: str) -> dict[str, object]:
    from bench.graphs import model
    from relay_xdsl.exporters.relay_text import print_relay, relay_chunks
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.support.gc_pause import with_gc_paused

    # relay-xdsl's commands run these steps with the collector paused (gc_pause.py).
    import_paused = with_gc_paused(import_relax)
    print_paused = with_gc_paused(print_relay)
    write_paused = with_gc_paused(lambda output, module: output.writelines(relay_chunks(module)))

    mod = model(name).mod
    weights = weight_bytes(mod)
    module, before, peak, exact = _peak_increase(lambda: import_paused(mod))
    retained = _status("VmRSS") - before
    del module
    _trim()
    tracemalloc.start()
    module = import_paused(mod)
    traced_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    # Relay text of the module: its #[metadata] holds the weights in base64.
    with tempfile.TemporaryFile("w") as output:
        _, _, written_peak, _ = _peak_increase(lambda: write_paused(output, module))
        text_bytes = output.tell()
    _, _, printed_peak, _ = _peak_increase(lambda: len(print_paused(module)))
    return {
        "model": name,
        "weight_bytes": weights,
        "baseline_rss": before,
        "peak_increase": peak,
        "retained": retained,
        "traced_peak": traced_peak,
        "exact_peak": exact,
        "relay_text_bytes": text_bytes,
        "relay_write_peak": written_peak,
        "relay_print_peak": printed_peak,
    }


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1] if len(sys.argv) > 1 else "resnet50")))
