"""`make demo`'s seed section: original -> fused -> defused, counts at each step, and the numeric check."""

from __future__ import annotations

import pytest

from relay_xdsl.tools import demo


def test_the_seed_section_shows_each_step_and_passes(capsys: pytest.CaptureFixture[str]):
    assert demo.seed_original_pipeline()
    printed = capsys.readouterr().out
    assert "original: nn.conv2d 3, nn.batch_norm 3, nn.relu 2, nn.max_pool2d 1, add 1" in printed
    for step in (
        "relay-simplify-inference",
        "relay-fold-scale-axis",
        "relay-fold-constant",
        "relay-merge-composite",
        "relay-defuse",
    ):
        assert f"after {step} (" in printed
    assert "nn.max_pool2d 1; relay.fn 3" in printed
    assert "matches the fused module TVM printed" in printed
    assert "matches TVM's DefuseOps output" in printed
    assert printed.count("against original: max abs error") == 2
    assert "MISMATCH" not in printed and "above 1e-4" not in printed


def test_tvms_own_fused_text_defuses_to_its_defuse_ops_output(capsys: pytest.CaptureFixture[str]):
    assert demo.seed_text_pipeline()
    assert "relay.fn: 3 created by TVM, 3 removed" in capsys.readouterr().out
