"""The default thread count: the physical cores this process may run on."""

from __future__ import annotations

from pathlib import Path

import pytest

from relay_xdsl.support import cores
from relay_xdsl.support.cores import default_threads


def test_the_default_counts_physical_cores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Four CPUs, two hyperthreads on each of two cores: two threads, as PyTorch runs."""
    for cpu, core in ((0, 0), (1, 0), (2, 1), (3, 1), (4, 2)):
        topology = tmp_path / f"cpu{cpu}" / "topology"
        topology.mkdir(parents=True)
        (topology / "physical_package_id").write_text("0\n")
        (topology / "core_id").write_text(f"{core}\n")
    monkeypatch.setattr(cores, "CPU_TOPOLOGY", tmp_path)
    monkeypatch.setattr(cores.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert default_threads() == 2
    monkeypatch.setattr(cores, "CPU_TOPOLOGY", tmp_path / "missing")
    assert default_threads() == 4  # without the topology, every CPU
