"""How many threads compiled models run on by default: this process's physical cores.

`default_threads` is PyTorch's default: the physical cores among the CPUs this
process may run on (a core's hyperthreads count once), read from Linux's CPU
topology; the CPUs themselves where Linux does not say. IREE's task runtime
(compiler/iree_runtime.py) and the OpenMP loops of libraries compiled with
upstream MLIR (compiler/schedule.py) both take it.
"""

from __future__ import annotations

import os
from pathlib import Path

CPU_TOPOLOGY = Path("/sys/devices/system/cpu")
"""Where Linux says which core of which package each CPU is."""


def default_threads() -> int:
    """The physical cores among the CPUs this process may run on, as PyTorch's default
    (hyperthreads of one core count once); the CPUs themselves where Linux does not say."""
    cpus = os.sched_getaffinity(0)
    try:
        cores = {
            tuple(
                (CPU_TOPOLOGY / f"cpu{cpu}" / "topology" / name).read_text().strip()
                for name in ("physical_package_id", "core_id")
            )
            for cpu in cpus
        }
    except OSError:
        return len(cpus)
    return len(cores)
