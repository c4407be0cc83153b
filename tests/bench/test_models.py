"""bench.models: errors against the interpreter, dtype tolerances, the table and --update."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bench.models import Run, compare, previous_report, rows, table


def _run(*outputs: np.ndarray) -> Run:
    return Run(1.0, list(outputs))


def test_errors_are_relative_to_the_interpreters_largest_output():
    reference = _run(np.array([4.0, -8.0], np.float32))
    close = _run(np.array([4.004, -8.0], np.float32))
    compare(close, reference)
    assert close.passed and np.isclose(close.abs_error, 0.004, rtol=1e-3)
    assert np.isclose(close.rel_error, 0.0005, rtol=1e-3)
    far = _run(np.array([4.1, -8.0], np.float32))
    compare(far, reference)
    assert not far.passed and "relative error" in (far.failure or "")


def test_float16_has_a_looser_tolerance():
    reference = _run(np.array([4.0, -8.0], np.float16))
    rounded = _run(np.array([4.1, -8.0], np.float16))
    compare(rounded, reference)
    assert rounded.passed


def test_update_keeps_the_rows_of_models_not_run(tmp_path: Path):
    backends = ["interpreter", "tvm"]
    reference, ours = _run(np.ones(2, np.float32)), _run(np.ones(2, np.float32))
    compare(ours, reference)
    report = tmp_path / "models.md"
    old = rows({"mnist": {"interpreter": reference, "tvm": ours}}, backends)
    report.write_text("# title\n\nMachine load (`uptime`) (mnist): x.\n\n" + table(old, backends))
    kept, notes = previous_report(report)
    assert kept == old and notes == ["Machine load (`uptime`) (mnist): x."]
    failed = Run(2.0, None, "timed out after 9 s")
    new = rows({"resnet50": {"interpreter": failed, "tvm": failed}}, backends)
    lines = table(kept | new, backends).splitlines()
    assert lines[2] == "| mnist | pass, 1 s | pass 0 (0), 1 s |"
    assert lines[3].startswith("| resnet50 | **fail**: timed out after 9 s, 2 s |")
