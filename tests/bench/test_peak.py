"""bench.peak: its kernel is independent FMAs on the CPU's widest vectors; it measures one
thread and every thread count asked for, and N cores' peak is N times the core's."""

from __future__ import annotations

import platform
import re
from pathlib import Path

import pytest

from bench.peak import CHAINS, CLANG_FLAGS, KERNEL, FmaKernel, measure_peak
from relay_xdsl.compiler.toolchain import run_tool

X86 = platform.machine() in ("x86_64", "AMD64")


def _cpu_flags() -> set[str]:
    text = Path("/proc/cpuinfo").read_text()
    return set(re.search(r"^flags\s*:(.*)$", text, re.MULTILINE)[1].split())


@pytest.mark.skipif(not X86, reason="the FMA instructions checked are x86's")
def test_the_kernel_loop_is_fmas_on_the_widest_vectors(tmp_path):
    assembly = run_tool("clang", [*CLANG_FLAGS, "-", "-S", "-o", "-"], input=KERNEL).decode()
    flags = _cpu_flags()
    register = "zmm" if "avx512f" in flags else "ymm" if "avx" in flags else "xmm"
    fmas = re.findall(r"vfmadd\w*ps\s+%([a-z]+)\d+, %\w+, %\w+", assembly)
    assert len(fmas) >= CHAINS
    assert set(fmas) == {register}
    lanes = {"zmm": 16, "ymm": 8, "xmm": 4}[register]
    kernel = FmaKernel(tmp_path)
    assert kernel.lanes == lanes
    assert kernel.flops(1000) == 2 * CHAINS * lanes * 1000


def test_the_peak_is_measured_on_one_thread_and_each_thread_count():
    peak = measure_peak((2,), repeats=2, iterations=100_000)
    assert set(peak.measured) == {1, 2}
    assert all(rate > 0 for rate in peak.measured.values())
    assert peak.per_core == peak.measured[1]
    assert peak.at(3) == 3 * peak.per_core
