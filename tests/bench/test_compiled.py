"""bench.compiled's table: medians, ratios to PyTorch, to IREE and to TVM."""

from __future__ import annotations

from bench.compiled import Result, table


def test_table_gives_medians_and_ratios():
    result = Result(
        "resnet18",
        compile_seconds={"relay-xdsl": 9.64, "IREE": 2.61, "TVM relax.build": 1.5},
        run_seconds={
            "relay-xdsl": [0.030, 0.020, 0.040],
            "IREE": [0.050, 0.048, 0.060],
            "PyTorch eager": [0.040, 0.050, 0.030],
            "TVM relax.build": [0.9, 0.8, 1.0],
        },
    )
    lines = table([result]).splitlines()
    assert lines[0].startswith("| model | relay-xdsl compile (s) |")
    assert lines[2] == (
        "| resnet18 | 9.6 | 2.6 | 1.5 | 30.0 | 50.0 | 40.0 | 900.0 | 0.75 | 0.60 | 0.03 |"
    )
