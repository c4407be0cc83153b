"""Running every case on every backend, in as few compilations as possible.

* ``interpreter``: the reference, :func:`relay_xdsl.interpreter.run`, case by case.
* ``mlir``: each case lowered to TOSA (:func:`relay_xdsl.conversion.lower_module`),
  all of them one module, validated (``--tosa-validate``) and compiled once
  (mlir-opt-22, mlir-translate-22, clang-22), then each function called through
  ctypes. It is compiled to plain loops: with the vectorising schedule, whose
  vectors are fully unrolled, the LLVM IR of a module of every case is some 20
  times larger and clang takes minutes (tests/compiler covers the schedule).
* ``relax``: each case exported (:func:`relay_xdsl.exporters.relax.export_relax`),
  all of them one IRModule, ``relax.build(target="llvm")`` once, each function
  called on the Relax VM.

A case that upstream MLIR rejects is found first by running mlir-opt once over
every case as a split input (``--split-input-file``: its errors name lines, hence
cases). Where a batch still fails to build, it is split in parts until the cases
that break it are found, so a bad case costs a few rebuilds and blames only itself.
"""

from __future__ import annotations

import bisect
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr

from relay_xdsl.interpreter import run

from .cases import INTERPRETER_ONLY, Case, disagreement, main

BACKENDS = ("mlir", "relax")
"""The backends compared with the interpreter."""

MLIR_TOOLS = ("mlir-opt-22", "mlir-translate-22", "clang-22")

AGREES = "agrees"
DIFFERS = "differs"
UNSUPPORTED = "unsupported"
"""Lowering or export refused the case: no rule, no export, a limit of the bridge."""
FAILED = "failed"
"""The backend accepted the case but failed to compile or run it."""
UNAVAILABLE = "unavailable"
"""The backend's tools are not installed (TVM, or LLVM 22's MLIR tools and clang):
nothing to compare, and no failure (the tests of those tools say what to install)."""


@dataclass(frozen=True)
class Outcome:
    """What one backend did with one case."""

    verdict: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.verdict}: {self.detail}" if self.detail else self.verdict


@dataclass
class Results:
    """The reference outputs and every backend's outcome, by case name."""

    cases: dict[str, Case]
    inputs: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    """Each case's inputs, drawn once (`Case.inputs`); a backend takes copies."""
    reference: dict[str, list[np.ndarray] | str] = field(default_factory=dict)
    """The interpreter's outputs, or why it failed."""
    outcomes: dict[str, dict[str, Outcome]] = field(default_factory=dict)
    """Backend → case name → outcome."""

    def fresh_inputs(self, name: str) -> dict[str, np.ndarray]:
        """Copies of case `name`'s inputs: no backend may change another's."""
        if name not in self.inputs:
            self.inputs[name] = self.cases[name].inputs()
        return {key: array.copy() for key, array in self.inputs[name].items()}

    def record_runs(
        self, backend: str, names: Sequence[str], call: Callable[[str, dict[str, np.ndarray]], Any]
    ) -> None:
        """The outcome on `backend` of each of `names` (built), run by ``call(name, inputs)``."""
        outcomes = self.outcomes.setdefault(backend, {})
        for name in names:
            try:
                outputs = call(name, self.fresh_inputs(name))
            except Exception as error:  # noqa: BLE001
                outcomes[name] = Outcome(FAILED, f"not run: {_message(error)}")
                continue
            reference = self.reference[name]
            if isinstance(reference, str):
                outcomes[name] = Outcome(FAILED, "no reference")
            else:
                outcomes[name] = compare(self.cases[name].operator, outputs, reference)

    def problems(self, operator: str) -> list[str]:
        """Each backend's failure or disagreement on `operator`'s cases, one line each."""
        lines = []
        for name, case in self.cases.items():
            if case.operator != operator:
                continue
            reference = self.reference[name]
            if isinstance(reference, str):
                lines.append(f"interpreter  {name}: {reference}")
                continue
            if operator in INTERPRETER_ONLY:
                continue  # the reference runs; no backend is compared (see the reason)
            for backend in BACKENDS:
                outcome = self.outcomes[backend][name]
                if outcome.verdict not in (AGREES, UNAVAILABLE):
                    lines.append(f"{backend:<12} {name}: {outcome}")
        return lines


def _message(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return f"{type(error).__name__}: {text[:300]}"


def compare(operator: str, actual: Sequence[np.ndarray], expected: list[np.ndarray]) -> Outcome:
    """The outcome of outputs `actual` against the reference."""
    if len(actual) != len(expected):
        return Outcome(DIFFERS, f"{len(actual)} outputs, expected {len(expected)}")
    for index, (got, want) in enumerate(zip(actual, expected)):
        why = disagreement(operator, got, want)
        if why is not None:
            where = f"output {index}: " if len(expected) > 1 else ""
            return Outcome(DIFFERS, where + why)
    return Outcome(AGREES)


Artifact = TypeVar("Artifact")


def build_in_parts(
    names: list[str], build: Callable[[list[str]], Artifact], parts: int = 8
) -> tuple[list[tuple[list[str], Artifact]], dict[str, str]]:
    """`build` of all `names` at once or, where that fails, of `parts` parts of
    them, and so on until the failing names are alone: the built batches and each
    failing name's error. (Eight parts rather than halves: a few failures spread
    over many cases cost fewer rebuilds of the rest.)"""
    try:
        return [(names, build(names))], {}
    except Exception as error:  # any failure of the tools: blame it below  # noqa: BLE001
        if len(names) == 1:
            return [], {names[0]: _message(error)}
    size = -(-len(names) // parts)
    built: list[tuple[list[str], Artifact]] = []
    failed: dict[str, str] = {}
    for start in range(0, len(names), size):
        more_built, more_failed = build_in_parts(names[start : start + size], build, parts)
        built += more_built
        failed |= more_failed
    return built, failed


def symbol(index: int) -> str:
    """A case's function name in the shared module."""
    return f"case_{index}"


# ---------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------


def run_interpreter(cases: Sequence[Case], results: Results) -> None:
    for case in cases:
        try:
            results.reference[case.name] = run(case.module(), results.fresh_inputs(case.name))
        except Exception as error:  # the kernel's refusal is the finding  # noqa: BLE001
            results.reference[case.name] = _message(error)


# ---------------------------------------------------------------------------
# MLIR
# ---------------------------------------------------------------------------


def run_mlir(cases: Sequence[Case], results: Results, workdir: Path) -> None:
    from relay_xdsl.compiler import build
    from relay_xdsl.compiler.artifact import Signature
    from relay_xdsl.compiler.pipeline import pass_pipeline, stages
    from relay_xdsl.compiler.runtime import CompiledModel
    from relay_xdsl.conversion import LoweredProgram, lower_module

    outcomes = results.outcomes.setdefault("mlir", {})
    missing = [tool for tool in MLIR_TOOLS if shutil.which(tool) is None]
    if missing:
        for case in cases:
            outcomes[case.name] = Outcome(UNAVAILABLE, f"missing tools: {', '.join(missing)}")
        return
    programs: dict[str, LoweredProgram] = {}
    for index, case in enumerate(cases):
        try:
            program = lower_module(case.module())
        except Exception as error:  # noqa: BLE001
            outcomes[case.name] = Outcome(UNSUPPORTED, f"not lowered: {_message(error)}")
            continue
        # One function: a case has no relay.fn, whose groups lower to functions
        # of their own, named uniquely in a module of one case only.
        (lowered,) = program.module.ops
        assert isinstance(lowered, func.FuncOp)
        lowered.sym_name = StringAttr(symbol(index))
        program.function = symbol(index)
        programs[case.name] = program

    texts = {name: build.module_text(program.module) for name, program in programs.items()}
    pipeline = f"--pass-pipeline={pass_pipeline(stages(None))}"
    for what, arguments in (("invalid TOSA", ["--tosa-validate"]), ("not compiled", [pipeline])):
        for name, error in split_input_errors(texts, arguments).items():
            outcomes[name] = Outcome(FAILED, f"{what}: {error}")
            del programs[name], texts[name]
    libraries: list[Path] = []

    def compile_batch(names: list[str]) -> Path:
        module = ModuleOp([op.clone() for n in names for op in programs[n].module.ops])
        text = build.module_text(module)
        library = workdir / f"cases_{len(libraries)}.so"
        llvm = build.lower_to_llvm_dialect(text, stages(None))
        build.compile_library(build.translate_to_llvm_ir(llvm), library)
        libraries.append(library)
        return library

    built, failed = build_in_parts(list(programs), compile_batch)
    for name, error in failed.items():
        outcomes[name] = Outcome(FAILED, f"not compiled: {error}")
    for names, library in built:

        def call(name: str, inputs: dict[str, np.ndarray], library: Path = library) -> Any:
            program = programs[name]
            return CompiledModel(library, Signature.of(program), program.weights).run(inputs)

        results.record_runs("mlir", names, call)


_ERROR = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$", re.MULTILINE)


def split_input_errors(texts: dict[str, str], arguments: list[str]) -> dict[str, str]:
    """The first error of each of `texts` (MLIR modules, by name) that ``mlir-opt
    <arguments>`` fails on, from one run over all of them as a split input."""
    from relay_xdsl.compiler.toolchain import tool

    names, starts, chunks, line = list(texts), [], [], 1
    for name in names:
        starts.append(line)
        chunks.append(texts[name])
        line += texts[name].count("\n") + 1  # and the separator's line
    completed = subprocess.run(
        [tool("mlir-opt"), "--split-input-file", *arguments, "-o", "/dev/null"],
        input="\n// -----\n".join(chunks).replace("\n\n// -----", "\n// -----"),
        capture_output=True,
        text=True,
        check=False,
    )
    errors: dict[str, str] = {}
    for match in _ERROR.finditer(completed.stderr):
        name = names[bisect.bisect_right(starts, int(match.group(1))) - 1]
        errors.setdefault(name, " ".join(match.group(2).split())[:300])
    return errors


# ---------------------------------------------------------------------------
# Relax
# ---------------------------------------------------------------------------


def _relax_outputs(value: Any) -> list[np.ndarray]:
    if hasattr(value, "numpy"):
        return [value.numpy()]
    return [array for field_ in value for array in _relax_outputs(field_)]


def run_relax(cases: Sequence[Case], results: Results) -> None:
    outcomes = results.outcomes.setdefault("relax", {})
    try:
        import tvm
        from tvm import relax

        from relay_xdsl.exporters.relax import export_relax
    except ImportError as error:
        for case in cases:
            outcomes[case.name] = Outcome(UNAVAILABLE, f"no TVM: {error}")
        return
    exported: dict[str, Any] = {}
    for index, case in enumerate(cases):
        try:
            module = case.module()
            main(module).sym_name = StringAttr(symbol(index))
            exported[case.name] = export_relax(module)
        except Exception as error:  # noqa: BLE001
            outcomes[case.name] = Outcome(UNSUPPORTED, f"not exported: {_message(error)}")
    symbols = {case.name: symbol(index) for index, case in enumerate(cases)}

    def build_batch(names: list[str]) -> Any:
        merged = tvm.IRModule()
        for name in names:
            for global_var, function in exported[name].functions.items():
                merged[global_var.name_hint] = function
        executable = relax.build(merged, target="llvm")
        return relax.VirtualMachine(executable, tvm.cpu())

    built, failed = build_in_parts(list(exported), build_batch)
    for name, error in failed.items():
        outcomes[name] = Outcome(FAILED, f"not built: {error}")
    for names, vm in built:

        def call(name: str, inputs: dict[str, np.ndarray], vm: Any = vm) -> Any:
            arguments = [tvm.runtime.tensor(array) for array in inputs.values()]
            return _relax_outputs(vm[symbols[name]](*arguments))

        results.record_runs("relax", names, call)


def run_all(cases: Sequence[Case], workdir: Path) -> Results:
    """Every case on the interpreter, then compiled with MLIR, then built with Relax."""
    results = Results({case.name: case for case in cases})
    run_interpreter(cases, results)
    run_mlir(cases, results, workdir)
    run_relax(cases, results)
    return results
