"""Progress on stderr: only on a terminal, only for steps over a second."""

from __future__ import annotations

import io
import sys
import time

import pytest

from relay_xdsl.tools import progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_nothing_is_shown_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch):
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    with progress.step("working", total=2) as advance:
        advance(2)
    assert stderr.getvalue() == ""


def test_a_step_over_the_delay_is_shown_on_a_terminal(monkeypatch: pytest.MonkeyPatch):
    pytest.importorskip("tqdm")
    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(progress, "DELAY", 0.05)
    monkeypatch.setattr(progress, "REFRESH", 0.01)
    with progress.step("exporting the model"):
        time.sleep(0.2)
    assert "relay-xdsl: exporting the model 00:00" in stderr.getvalue()
    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    with progress.step("importing", total=4) as advance:
        for _ in range(4):
            time.sleep(0.03)
            advance(1)
    assert "relay-xdsl: importing 100%|" in stderr.getvalue()
    assert "4/4" in stderr.getvalue()


def test_a_short_step_is_not_shown(monkeypatch: pytest.MonkeyPatch):
    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    with progress.step("quick"):
        pass
    assert stderr.getvalue() == ""
