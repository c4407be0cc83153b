"""The `lowered_cases` fixture: a test module's small relay functions (its
``CASES``) lowered into one module, checked by upstream MLIR's TOSA validation,
compiled once with upstream MLIR and clang (relay_xdsl.compiler), and run, each
function's results compared with the interpreter's on the same inputs.

It needs ``mlir-opt-22``, ``mlir-translate-22`` and ``clang-22`` (the tests
skip without them).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnregisteredOp
from xdsl.parser import Parser

from relay_xdsl.compiler import build
from relay_xdsl.compiler.artifact import Signature
from relay_xdsl.compiler.pipeline import stages
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.compiler.schedule import SCHEDULE
from relay_xdsl.compiler.toolchain import run_tool
from relay_xdsl.conversion import LoweredProgram, lower_module
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.tools.mlir_text import relay_context

TOOLS = ("mlir-opt-22", "mlir-translate-22", "clang-22")


def parse(text: str) -> ModuleOp:
    """A module from relay-dialect MLIR (``func.func``...) or Relay text (``def @main``...)."""
    if text.lstrip().startswith("def "):
        return parse_relay(f'#[version = "0.0.5"]\n{text}', "test")
    return Parser(relay_context(), text).parse_module()


Case = tuple[str, dict[str, np.ndarray]]
"""A small relay program (text for `parse`, its function ``main``) and its inputs by name."""

TOLERANCE = 1e-5
"""The relative and absolute tolerance of results, but those of float16 (`HALF_TOLERANCE`)."""

HALF_TOLERANCE = 2e-2
"""float16 keeps 11 bits: sums taken in another order differ in the last few."""


def _lower(name: str, case: Case) -> LoweredProgram:
    """The case's main lowered, its function named `name`."""
    program = lower_module(parse(case[0]))
    (function,) = program.module.ops
    assert isinstance(function, func.FuncOp)
    function.sym_name = StringAttr(name)
    program.function = name
    return program


def compile_cases(cases: Mapping[str, Case], workdir: Path) -> dict[str, list[np.ndarray]]:
    """Each case's main lowered into one module (a function per case, by name),
    validated, compiled with the vectorising schedule and run on its inputs: the
    results by case."""
    programs = {name: _lower(name, case) for name, case in cases.items()}
    module = ModuleOp([op.clone() for p in programs.values() for op in p.module.ops])
    text = build.module_text(module)
    run_tool("mlir-opt", ["--tosa-validate", "-o", "/dev/null"], text)
    library = workdir / "cases.so"
    llvm = build.lower_to_llvm_dialect(text, stages(SCHEDULE), SCHEDULE)
    build.compile_library(build.translate_to_llvm_ir(llvm), library)
    return {
        name: CompiledModel(library, Signature.of(program), program.weights).run(cases[name][1])
        for name, program in programs.items()
    }


class LoweredCases:
    """The cases of a test module (its ``CASES``), compiled together once."""

    def __init__(self, cases: Mapping[str, Case], workdir: Path):
        self.cases = cases
        self.workdir = workdir
        self._results: dict[str, list[np.ndarray]] | None = None

    def check(self, name: str) -> None:
        """Case `name` gives the interpreter's results within `TOLERANCE` (`HALF_TOLERANCE`)."""
        if self._results is None:
            self._results = compile_cases(self.cases, self.workdir)
        text, inputs = self.cases[name]
        expected = run(parse(text), inputs)
        actual = self._results[name]
        assert len(actual) == len(expected)
        for got, want in zip(actual, expected):
            assert got.shape == want.shape and got.dtype == want.dtype
            tolerance = HALF_TOLERANCE if want.dtype == np.float16 else TOLERANCE
            np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)


@pytest.fixture(scope="module")
def lowered_cases(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> LoweredCases:
    """The ``CASES`` of the requesting test module (name to `Case`: text and
    inputs), compiled together the first time one is checked."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"upstream MLIR tools missing: {', '.join(missing)}")
    return LoweredCases(request.module.CASES, tmp_path_factory.mktemp("lowered"))


@pytest.fixture
def lowered_ops() -> Callable[[str], list[str]]:
    """``lowered_ops(text)``: the names of the operations that the lowering of a
    case's text (see `parse`) makes, in order."""

    def names(text: str) -> list[str]:
        module = lower_module(parse(text)).module
        return [
            op.op_name.data if isinstance(op, UnregisteredOp) else op.name for op in module.walk()
        ]

    return names
