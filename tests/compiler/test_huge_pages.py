from __future__ import annotations

import mmap
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler import huge_pages
from relay_xdsl.compiler.huge_pages import HUGE_PAGE, LINE, PAGE, huge_page_copies


def _arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [
        rng.standard_normal((3, 3, 64, 80)).astype(np.float32),  # 184 KiB
        rng.standard_normal(7).astype(np.float32),
        np.arange(5, dtype=np.int64),
        np.array(2.5, dtype=np.float64),
        np.zeros((0, 4), np.float32),
        np.array([True, False, True]),
        rng.standard_normal((4, 1024)).astype(np.float16),  # exactly two pages
    ]


def test_copies_are_equal_read_only_and_contiguous() -> None:
    arrays = _arrays()
    copies = huge_page_copies(arrays)
    assert len(copies) == len(arrays)
    for array, copy in zip(arrays, copies):
        assert copy.shape == array.shape and copy.dtype == array.dtype
        np.testing.assert_array_equal(copy, array)
        assert copy.flags.c_contiguous and not copy.flags.writeable
        assert not np.shares_memory(copy, array)
    with pytest.raises(ValueError, match="read-only"):
        copies[0][0, 0, 0, 0] = 1.0


def test_copies_share_one_mapping_from_a_huge_page() -> None:
    # an empty array has no memory to place
    copies = [copy for copy in huge_page_copies(_arrays()) if copy.nbytes]
    addresses = [copy.ctypes.data for copy in copies]
    first = addresses[0]
    assert first % HUGE_PAGE == 0
    for copy, address in zip(copies, addresses):
        assert address % (PAGE if copy.nbytes >= PAGE else LINE) == 0
    # side by side, in order, none overlapping, none further apart than an alignment
    ends = [address + copy.nbytes for address, copy in zip(addresses, copies)]
    assert all(end <= start < end + PAGE for end, start in zip(ends, addresses[1:]))


@pytest.mark.skipif(not hasattr(mmap, "MADV_HUGEPAGE"), reason="no transparent huge pages")
def test_the_mapping_is_advised_for_huge_pages() -> None:
    (copy,) = huge_page_copies([np.ones(HUGE_PAGE // 4, np.float32)])
    start = copy.ctypes.data
    with open("/proc/self/smaps") as smaps:
        lines = smaps.read().splitlines()
    for index, line in enumerate(lines):
        fields = line.split()
        if "-" in fields[0] and ":" not in fields[0]:
            low, high = (int(bound, 16) for bound in fields[0].split("-"))
            if low <= start < high:
                flags = next(entry for entry in lines[index + 1 :] if entry.startswith("VmFlags"))
                assert " hg" in flags
                return
    pytest.fail("the copy's mapping is not in /proc/self/smaps")


def test_no_arrays_no_mapping() -> None:
    assert huge_page_copies([]) == []


def test_a_kernel_refusing_the_advice_still_gets_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing(mmap.mmap):
        def madvise(self, *arguments: int) -> None:
            raise OSError(22, "Invalid argument")

    fake = SimpleNamespace(
        mmap=Refusing,
        MAP_PRIVATE=mmap.MAP_PRIVATE,
        MAP_ANONYMOUS=mmap.MAP_ANONYMOUS,
        MADV_HUGEPAGE=14,
    )
    monkeypatch.setattr(huge_pages, "mmap", fake)
    arrays = _arrays()
    for array, copy in zip(arrays, huge_pages.huge_page_copies(arrays)):
        np.testing.assert_array_equal(copy, array)
