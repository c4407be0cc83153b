"""Smoke test of the benchmark suite (`python -m bench`): the rows, not the timings.

Runs quick mode on the smallest graph only, once per step, without the
xdsl-opt/mlir-opt and memory parts; the suite's own checks (defuse undoes
merge-composite and fuse-ops, group counts agree with FuseOpsByPattern,
round trips) run as in a full benchmark and would fail it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tvm")

pytestmark = pytest.mark.tvm

ROOT = Path(__file__).resolve().parents[2]
STEPS = [
    "relax-import",
    "relay-text-import",
    "relay-merge-composite",
    "relay-defuse",
    "relay-fuse-ops",
    "relay-text-print",
    "relax-export",
]
COUNTERPARTS = {
    "relay-merge-composite": "FuseOpsByPattern",
    "relay-defuse": "InlinePrivateFunctions",
    "relay-fuse-ops": "FuseOps",
}


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def test_quick_bench_on_the_smallest_graph_has_a_row_per_step(tmp_path: Path):
    output = tmp_path / "results.md"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "--quick",
            "--graphs",
            "chain-1k",
            "--runs",
            "1",
            "--no-e2e",
            "--no-memory",
            "--output",
            str(output),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    text = output.read_text()
    assert text in done.stdout  # the same tables on stdout
    header = next(line for line in text.splitlines() if line.startswith("| graph | step |"))
    columns = _cells(header)
    rows = [
        dict(zip(columns, _cells(line)))
        for line in text.splitlines()
        if line.startswith("| chain-1k |")
    ]
    assert [row["step"] for row in rows] == STEPS
    for row in rows:
        assert row["ops"] == "999"
        counterpart = COUNTERPARTS.get(row["step"], "none")
        assert row["TVM counterpart"] == counterpart
        if counterpart == "none":
            assert row["ours/TVM"] == "—"
        else:
            assert float(row["ours/TVM"]) > 0
    merge = rows[STEPS.index("relay-merge-composite")]
    assert merge["notes"] == "333 groups, the same as FuseOpsByPattern's"
    assert "Check failures" not in text
