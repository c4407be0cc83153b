"""The passes' output on the 1k generated graphs is the pinned one (bench/expected_ir.json)."""

from __future__ import annotations

import pytest

pytest.importorskip("tvm", reason="the generated graphs are built with TVM Relax")

from bench import expected_ir
from bench.graphs import build


@pytest.mark.parametrize("graph", ["chain-1k", "residual-1k"])
def test_pass_outputs_match_their_pinned_digests(graph: str):
    pinned = expected_ir.expected(graph)
    assert pinned is not None and set(pinned) == {
        "relax-import",
        "relay-merge-composite",
        "relay-merge-composite,relay-defuse",
        "relay-fuse-ops",
    }
    assert expected_ir.mismatches(graph, build(graph).mod) == []
    # relay-defuse gives back the import exactly.
    assert pinned["relay-merge-composite,relay-defuse"] == pinned["relax-import"]
