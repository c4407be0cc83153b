"""A compiled model's weights in memory backed by transparent huge pages.

A library reads every weight on every call, and a CNN's weights (resnet50's
100 MB) come from memory each time: read through 4 KiB pages, each new page
is a TLB miss, and in a virtual machine each miss is a two-level page walk.
`huge_page_copies` puts the weights, once, in one anonymous mapping advised
for 2 MiB pages (``madvise(MADV_HUGEPAGE)``: the kernel's
``transparent_hugepage`` setting ``madvise``, Debian's default, backs only
advised memory with them; figures in docs/compiler.md, "Calling a
library").  Where the system has no transparent huge pages (``never``), or the
platform no ``madvise``, the copies are ordinary pages and as fast as before.
"""

from __future__ import annotations

import contextlib
import mmap
from collections.abc import Sequence

import numpy as np

HUGE_PAGE = 2 << 20
"""The size of an x86-64 transparent huge page; the mapping's arrays start at one."""
PAGE = 4096
"""Arrays of a page or more start at a page (where a fresh allocation's would:
the filters' cache-set padding, conversion/rules/convolutions.py, assumes
nothing more); smaller ones at a cache line, `LINE`."""
LINE = 64


def _aligned(offset: int, nbytes: int) -> int:
    """`offset` rounded up to the alignment of an array of `nbytes` bytes."""
    alignment = PAGE if nbytes >= PAGE else LINE
    return -(-offset // alignment) * alignment


def huge_page_copies(arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Read-only, C-contiguous copies of `arrays` (same shapes, dtypes and
    values), side by side in one anonymous mapping advised for transparent
    huge pages; the copies keep the mapping alive.  No arrays, no mapping."""
    offsets = []
    end = 0
    for array in arrays:
        start = _aligned(end, array.nbytes)
        offsets.append(start)
        end = start + array.nbytes
    if not arrays:
        return []
    # One huge page more than needed, so that the arrays can start at one.
    mapping = mmap.mmap(-1, end + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        # a kernel built without transparent huge pages refuses the advice
        with contextlib.suppress(OSError):
            mapping.madvise(mmap.MADV_HUGEPAGE)
    memory = np.frombuffer(mapping, dtype=np.uint8)
    base = -memory.ctypes.data % HUGE_PAGE
    copies = []
    for array, offset in zip(arrays, offsets):
        start = base + offset
        copy = memory[start : start + array.nbytes].view(array.dtype).reshape(array.shape)
        copy[...] = array
        copy.flags.writeable = False
        copies.append(copy)
    return copies
