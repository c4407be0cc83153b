"""How much memory this machine has, so that sizes are refused before they are allocated.

An array larger than the machine's memory fails in numpy's allocator with a
traceback, or worse, after minutes of swapping. Code that allocates arrays
whose sizes come from a program or a file (random inputs and constants,
weights read from a file) compares each size with `machine_memory` first
and says which array is too large.
"""

from __future__ import annotations

import os
from pathlib import Path

_CGROUP_LIMITS = (
    Path("/sys/fs/cgroup/memory.max"),  # cgroup v2
    Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"),  # cgroup v1
)


def machine_memory() -> int:
    """The bytes of memory this process can have: the machine's physical
    memory, or its control group's limit where that is lower (a container)."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):  # no sysconf names: not a POSIX system
        memory = 1 << 62
    for path in _CGROUP_LIMITS:
        try:
            limit = path.read_text().strip()
        except OSError:
            continue
        if limit.isdigit():
            memory = min(memory, int(limit))
    return memory


def memory_text(nbytes: int) -> str:
    """`nbytes` as GiB for a message: ``23.5 GiB``."""
    return f"{nbytes / 2**30:.3g} GiB"
