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

Where a batch fails to compile, it is split in halves until the cases that break
it are found, so one bad case costs a few recompilations and blames only itself.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr

from relay_xdsl.interpreter import run

from .cases import Case, disagreement, main

BACKENDS = ("mlir", "relax")
"""The backends compared with the interpreter."""

MLIR_TOOLS = ("mlir-opt-22", "mlir-translate-22", "clang-22")

AGREES = "agrees"
DIFFERS = "differs"
UNSUPPORTED = "unsupported"
"""Lowering or export refused the case: no rule, no export, a limit of the bridge."""
FAILED = "failed"
"""The backend accepted the case but failed to compile or run it."""


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
    reference: dict[str, list[np.ndarray] | str] = field(default_factory=dict)
    """The interpreter's outputs, or why it failed."""
    outcomes: dict[str, dict[str, Outcome]] = field(default_factory=dict)
    """Backend → case name → outcome."""

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
            for backend in BACKENDS:
                outcome = self.outcomes[backend][name]
                if outcome.verdict != AGREES:
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


def build_in_halves(
    names: list[str], build: Callable[[list[str]], Artifact]
) -> tuple[list[tuple[list[str], Artifact]], dict[str, str]]:
    """`build` of all `names` at once or, where that fails, of halves until the
    failing names are alone: the built batches and each failing name's error."""
    try:
        return [(names, build(names))], {}
    except Exception as error:  # any failure of the tools: blame it below  # noqa: BLE001
        if len(names) == 1:
            return [], {names[0]: _message(error)}
    middle = len(names) // 2
    built, failed = build_in_halves(names[:middle], build)
    more_built, more_failed = build_in_halves(names[middle:], build)
    return built + more_built, failed | more_failed


def symbol(index: int) -> str:
    """A case's function name in the shared module."""
    return f"case_{index}"


def copied(inputs: dict[str, Any]) -> dict[str, Any]:
    """Fresh arrays: no backend may change another's inputs."""
    return {
        k: tuple(map(np.copy, v)) if isinstance(v, tuple) else v.copy() for k, v in inputs.items()
    }


# ---------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------


def run_interpreter(cases: Sequence[Case], results: Results) -> None:
    for case in cases:
        try:
            results.reference[case.name] = run(case.module(), copied(case.inputs()))
        except Exception as error:  # the kernel's refusal is the finding  # noqa: BLE001
            results.reference[case.name] = _message(error)


# ---------------------------------------------------------------------------
# MLIR
# ---------------------------------------------------------------------------


def run_mlir(cases: Sequence[Case], results: Results, workdir: Path) -> None:
    from relay_xdsl.compiler import build
    from relay_xdsl.compiler.artifact import Signature
    from relay_xdsl.compiler.pipeline import stages
    from relay_xdsl.compiler.runtime import CompiledModel
    from relay_xdsl.compiler.toolchain import run_tool
    from relay_xdsl.conversion import LoweredProgram, lower_module

    outcomes = results.outcomes.setdefault("mlir", {})
    missing = [tool for tool in MLIR_TOOLS if shutil.which(tool) is None]
    if missing:
        for case in cases:
            outcomes[case.name] = Outcome(FAILED, f"missing tools: {', '.join(missing)}")
        return
    programs: dict[str, LoweredProgram] = {}
    for index, case in enumerate(cases):
        try:
            program = lower_module(case.module())
        except Exception as error:  # noqa: BLE001
            outcomes[case.name] = Outcome(UNSUPPORTED, f"not lowered: {_message(error)}")
            continue
        (lowered,) = [op for op in program.module.ops if isinstance(op, func.FuncOp)][-1:]
        lowered.sym_name = StringAttr(symbol(index))
        for op in program.module.ops:  # outlined groups: unique in the shared module
            if isinstance(op, func.FuncOp) and op is not lowered:
                outcomes[case.name] = Outcome(FAILED, "a case with relay.fn groups")
                break
        else:
            program.function = symbol(index)
            programs[case.name] = program

    libraries: list[Path] = []

    def compile_batch(names: list[str]) -> Path:
        module = ModuleOp([op.clone() for n in names for op in programs[n].module.ops])
        text = build.module_text(module)
        run_tool("mlir-opt", ["--tosa-validate", "-o", "/dev/null"], text)
        library = workdir / f"cases_{len(libraries)}.so"
        llvm = build.lower_to_llvm_dialect(text, stages(None))
        build.compile_library(build.translate_to_llvm_ir(llvm), library)
        libraries.append(library)
        return library

    built, failed = build_in_halves(list(programs), compile_batch)
    for name, error in failed.items():
        outcomes[name] = Outcome(FAILED, f"not compiled: {error}")
    by_name = {name: case for name, case in results.cases.items()}
    for names, library in built:
        for name in names:
            reference = results.reference[name]
            try:
                program = programs[name]
                model = CompiledModel(library, Signature.of(program), program.weights)
                outputs = model.run(copied(by_name[name].inputs()))
            except Exception as error:  # noqa: BLE001
                outcomes[name] = Outcome(FAILED, f"not run: {_message(error)}")
                continue
            if isinstance(reference, str):
                outcomes[name] = Outcome(FAILED, "no reference")
            else:
                outcomes[name] = compare(by_name[name].operator, outputs, reference)


# ---------------------------------------------------------------------------
# Relax
# ---------------------------------------------------------------------------


def _relax_outputs(value: Any) -> list[np.ndarray]:
    if hasattr(value, "numpy"):
        return [value.numpy()]
    return [array for field_ in value for array in _relax_outputs(field_)]


def _relax_arguments(value: Any, tvm: Any) -> Any:
    if isinstance(value, tuple):
        return tvm.runtime.convert([_relax_arguments(v, tvm) for v in value])
    return tvm.runtime.tensor(value)


def run_relax(cases: Sequence[Case], results: Results) -> None:
    outcomes = results.outcomes.setdefault("relax", {})
    try:
        import tvm
        from tvm import relax

        from relay_xdsl.exporters.relax import export_relax
    except ImportError as error:
        for case in cases:
            outcomes[case.name] = Outcome(FAILED, f"no TVM: {error}")
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

    built, failed = build_in_halves(list(exported), build_batch)
    for name, error in failed.items():
        outcomes[name] = Outcome(FAILED, f"not built: {error}")
    for names, vm in built:
        for name in names:
            case = results.cases[name]
            reference = results.reference[name]
            try:
                arguments = [_relax_arguments(v, tvm) for v in copied(case.inputs()).values()]
                outputs = _relax_outputs(vm[symbols[name]](*arguments))
            except Exception as error:  # noqa: BLE001
                outcomes[name] = Outcome(FAILED, f"not run: {_message(error)}")
                continue
            if isinstance(reference, str):
                outcomes[name] = Outcome(FAILED, "no reference")
            else:
                outcomes[name] = compare(case.operator, outputs, reference)


def run_all(cases: Sequence[Case], workdir: Path) -> Results:
    """Every case on the interpreter, then compiled with MLIR, then built with Relax."""
    results = Results({case.name: case for case in cases})
    run_interpreter(cases, results)
    run_mlir(cases, results, workdir)
    run_relax(cases, results)
    return results
