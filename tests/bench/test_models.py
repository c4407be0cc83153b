"""bench.models: errors against the interpreter, dtype tolerances, the table and --update,
and the weights it draws for what a text leaves untyped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.models import (
    MODELS,
    UNTYPED_WEIGHTS,
    Run,
    compare,
    previous_report,
    rows,
    table,
    untyped_weights,
)
from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.assumed_types import assume_constant_types
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter.params import bind_params, read_params


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


@pytest.mark.parametrize("name", sorted(UNTYPED_WEIGHTS))
def test_the_drawn_weights_complete_the_types_their_text_leaves_open(name: str, tmp_path: Path):
    module = parse_relay(MODELS[name].read_text(), MODELS[name].name)
    params = untyped_weights(name, tmp_path)
    assert params is not None
    bind_params(module, read_params(params))
    assume_constant_types(module)  # what --random-constants then draws
    module.verify()
    for op in module.walk():
        for result in op.results:
            assert not isinstance(result.type, relay.IncompleteType), op.name
