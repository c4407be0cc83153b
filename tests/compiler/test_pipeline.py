"""The pass pipeline as data: the baseline's text, and a schedule's replacements."""

from __future__ import annotations

import pytest

from relay_xdsl.compiler.pipeline import (
    BASELINE,
    SCRIPT,
    Schedule,
    Stage,
    describe,
    pass_pipeline,
    stages,
    without_deallocation,
)

VERIFIED = (
    "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),"
    "one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,convert-linalg-to-loops,convert-scf-to-cf,"
    "expand-strided-metadata,lower-affine,convert-to-llvm,convert-math-to-libm,convert-to-llvm,"
    "reconcile-unrealized-casts)"
)


def test_the_baseline_is_the_verified_pipeline():
    assert pass_pipeline(BASELINE) == VERIFIED
    assert stages() == BASELINE


def test_a_function_that_frees_its_buffers_runs_no_deallocation_pass():
    assert pass_pipeline(without_deallocation(BASELINE)) == VERIFIED.replace(
        "buffer-deallocation-pipeline,", ""
    )
    assert [stage.name for stage in without_deallocation(BASELINE)] == [
        stage.name for stage in BASELINE
    ]


def test_describe_names_the_stages_that_run():
    text = describe(BASELINE)
    assert text.splitlines()[0] == (
        "  tosa-to-linalg: func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
        "tosa-to-tensor)"
    )
    assert "schedule" not in text  # empty in the baseline
    assert "  loops: convert-linalg-to-loops\n" in text


def test_a_schedule_replaces_stages_and_names_its_script():
    schedule = Schedule(
        "vectorize",
        "module {}",
        {
            "schedule": (
                Stage(
                    "vectorize",
                    (
                        f"transform-preload-library{{transform-library-paths={SCRIPT}}}",
                        "transform-interpreter",
                    ),
                ),
            ),
            "loops": (Stage("loops", ("convert-vector-to-scf", "convert-linalg-to-loops")),),
        },
    )
    pipeline = stages(schedule)
    assert [s.name for s in pipeline] == [
        "tosa-to-linalg",
        "vectorize",
        "bufferize",
        "loops",
        "to-llvm",
    ]
    text = pass_pipeline(pipeline, "/tmp/s.mlir")
    assert "tosa-to-tensor),transform-preload-library{transform-library-paths=/tmp/s.mlir}," in text
    assert "convert-vector-to-scf,convert-linalg-to-loops,convert-scf-to-cf" in text
    with pytest.raises(ValueError, match="give its path"):
        pass_pipeline(pipeline)


def test_a_schedule_cannot_replace_an_unknown_stage():
    with pytest.raises(ValueError, match=r"unknown stages \['tiling'\]"):
        stages(Schedule("bad", "", {"tiling": ()}))
