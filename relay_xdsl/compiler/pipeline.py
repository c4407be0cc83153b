"""The mlir-opt pass pipeline that takes a lowered program (TOSA on tensors) to the LLVM dialect.

The pipeline is data: named `Stage` s, each a few passes of mlir-opt's
textual pipeline at module level. `BASELINE` is the verified one, plain
loops for every linalg op::

    tosa-to-linalg  func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor)
    schedule        (empty: where a vectorising schedule runs, on tensors)
    bufferize       one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline,
                    convert-bufferization-to-memref
    loops           convert-linalg-to-loops
    to-llvm         convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-to-llvm,
                    reconcile-unrealized-casts

A `Schedule` plugs in a transform-dialect script: the build writes its
`script` to a file and the schedule's stages replace baseline stages by
name, typically ``schedule`` (with ``transform-preload-library`` naming
`SCRIPT` and ``transform-interpreter``) and ``loops`` (lowering the vectors
and what the script left as linalg). `stages` applies one; `pass_pipeline`
gives mlir-opt's ``--pass-pipeline`` text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Stage:
    """A named step of the pipeline: passes of mlir-opt's textual pipeline, at module level."""

    name: str
    passes: tuple[str, ...]

    def text(self) -> str:
        return ",".join(self.passes)


DEALLOCATION = "buffer-deallocation-pipeline"
"""Bufferization's deallocation: frees each buffer at the end of its block."""


BASELINE: tuple[Stage, ...] = (
    Stage(
        "tosa-to-linalg",
        ("func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor)",),
    ),
    Stage("schedule", ()),
    Stage(
        "bufferize",
        (
            "one-shot-bufferize{bufferize-function-boundaries}",
            DEALLOCATION,
            "convert-bufferization-to-memref",
        ),
    ),
    Stage("loops", ("convert-linalg-to-loops",)),
    Stage(
        "to-llvm",
        (
            "convert-scf-to-cf",
            "expand-strided-metadata",
            "lower-affine",
            "convert-to-llvm",
            # math.erf (tosa.erf) has no LLVM lowering: a call of libm's erff
            "convert-math-to-libm",
            "convert-to-llvm",
            "reconcile-unrealized-casts",
        ),
    ),
)
"""TOSA to the LLVM dialect with plain loops (see the module docstring)."""

SCRIPT = "@SCRIPT@"
"""Stands for the path of the schedule's script file in a stage's passes."""


@dataclass(frozen=True)
class Schedule:
    """A transform-dialect script and the stages that run it.

    `script` is a module ``attributes {transform.with_named_sequence}``
    holding ``@__transform_main``; `replacing` maps baseline stage names
    to the stages that run instead (a stage of `SCRIPT` passes:
    ``transform-preload-library{transform-library-paths=@SCRIPT@}``,
    ``transform-interpreter``). `threads` is how many threads the compiled
    code's parallel loops run on: above 1, the stages lower them to OpenMP
    and the library links LLVM's OpenMP runtime (toolchain.py).
    """

    name: str
    script: str
    replacing: dict[str, tuple[Stage, ...]] = field(default_factory=dict)
    threads: int = 1


def stages(schedule: Schedule | None = None) -> tuple[Stage, ...]:
    """`BASELINE` with `schedule` 's replacements (none: the baseline)."""
    if schedule is None:
        return BASELINE
    unknown = set(schedule.replacing) - {stage.name for stage in BASELINE}
    if unknown:
        raise ValueError(f"schedule {schedule.name} replaces unknown stages {sorted(unknown)}")
    result: list[Stage] = []
    for stage in BASELINE:
        result.extend(schedule.replacing.get(stage.name, (stage,)))
    return tuple(result)


def without_deallocation(pipeline: Iterable[Stage]) -> tuple[Stage, ...]:
    """`pipeline` without `DEALLOCATION`: for a function that frees its buffers itself
    (a model's function of calls only, units.py's ``on_buffers``), where the pass would
    reject its frees."""
    return tuple(
        Stage(stage.name, tuple(p for p in stage.passes if p != DEALLOCATION)) for stage in pipeline
    )


def pass_pipeline(pipeline: Iterable[Stage], script_path: str | None = None) -> str:
    """mlir-opt's ``--pass-pipeline`` text for `pipeline`; `script_path` replaces `SCRIPT`."""
    text = ",".join(stage.text() for stage in pipeline if stage.passes)
    if SCRIPT in text:
        if script_path is None:
            raise ValueError("the pipeline runs a schedule's script: give its path")
        text = text.replace(SCRIPT, script_path)
    return f"builtin.module({text})"


def describe(pipeline: Iterable[Stage]) -> str:
    """One line per stage, ``name: passes``, as ``--verbose`` states the pipeline."""
    return "".join(f"  {stage.name}: {stage.text()}\n" for stage in pipeline if stage.passes)
