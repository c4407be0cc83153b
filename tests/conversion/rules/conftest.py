"""The `lowered_cases` fixture: a test module's small relay functions (its
``CASES``) lowered into one module, checked by upstream MLIR's TOSA validation,
compiled once with upstream MLIR and clang, and run through ctypes, each
function's results compared with the interpreter's on the same inputs.

It needs ``mlir-opt-22``, ``mlir-translate-22`` and ``clang-22`` (the tests
skip without them).
"""

from __future__ import annotations

import ctypes
import io
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.parser import Parser
from xdsl.printer import Printer

from relay_xdsl.conversion import lower_module
from relay_xdsl.conversion.tosa import numpy_dtype
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.tools.mlir_text import relay_context

TOOLS = ("mlir-opt-22", "mlir-translate-22", "clang-22")
PIPELINE = (
    "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),"
    "one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,convert-linalg-to-loops,convert-scf-to-cf,"
    "expand-strided-metadata,lower-affine,convert-to-llvm,convert-math-to-libm,convert-to-llvm,"
    "reconcile-unrealized-casts)"
)
RUNNER_UTILS = Path("/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1")


def parse(text: str) -> ModuleOp:
    """A module from relay-dialect MLIR (``func.func``...) or Relay text (``def @main``...)."""
    if text.lstrip().startswith("def "):
        return parse_relay(f'#[version = "0.0.5"]\n{text}', "test")
    return Parser(relay_context(), text).parse_module()


Case = tuple[str, dict[str, np.ndarray]]
"""A small relay program (text for `parse`, its function ``main``) and its inputs by name."""

TOLERANCE = 1e-5


@dataclass
class _Lowered:
    module: ModuleOp
    arguments: list[np.ndarray]
    outputs: list[TensorType]


def _lower(name: str, case: Case) -> _Lowered:
    """The case's main lowered, as a function named `name`, with its arguments."""
    text, inputs = case
    program = lower_module(parse(text))
    (function,) = program.module.ops
    assert isinstance(function, func.FuncOp)
    function.sym_name = StringAttr(name)
    arguments = [*inputs.values(), *program.weights]
    return _Lowered(program.module, [np.ascontiguousarray(a) for a in arguments], program.outputs)


def _descriptor_type(rank: int) -> type[ctypes.Structure]:
    class Descriptor(ctypes.Structure):
        _fields_ = [
            ("allocated", ctypes.c_void_p),
            ("aligned", ctypes.c_void_p),
            ("offset", ctypes.c_int64),
            ("sizes", ctypes.c_int64 * rank),
            ("strides", ctypes.c_int64 * rank),
        ]

    return Descriptor


def _descriptor(array: np.ndarray) -> ctypes.Structure:
    rank = array.ndim
    return _descriptor_type(rank)(
        array.ctypes.data,
        array.ctypes.data,
        0,
        (ctypes.c_int64 * rank)(*array.shape),
        (ctypes.c_int64 * rank)(*[s // array.itemsize for s in array.strides]),
    )


def _read(descriptor: ctypes.Structure, type_: TensorType) -> np.ndarray:
    dtype = numpy_dtype(type_.get_element_type())
    shape = tuple(type_.get_shape())
    strides = [descriptor.strides[i] * dtype.itemsize for i in range(len(shape))]
    span = sum((n - 1) * s for n, s in zip(shape, strides)) + dtype.itemsize
    base = descriptor.aligned + descriptor.offset * dtype.itemsize
    buffer = (ctypes.c_char * span).from_address(base)
    return np.ndarray(shape, dtype, buffer=buffer, strides=strides).copy()


def _call(library: ctypes.CDLL, name: str, lowered: _Lowered) -> list[np.ndarray]:
    """Call the C interface of function `name`: results first (a struct of
    descriptors when there are several), then the arguments' descriptors."""
    descriptors = [_descriptor(a) for a in lowered.arguments]
    results = [_descriptor_type(len(t.get_shape()))() for t in lowered.outputs]
    if len(results) == 1:
        result_struct: ctypes.Structure = results[0]
    else:

        class Results(ctypes.Structure):
            _fields_ = [(f"r{i}", type(r)) for i, r in enumerate(results)]

        result_struct = Results()
    getattr(library, f"_mlir_ciface_{name}")(
        ctypes.byref(result_struct), *[ctypes.byref(d) for d in descriptors]
    )
    if len(results) > 1:
        results = [getattr(result_struct, f"r{i}") for i in range(len(results))]
    return [_read(d, t) for d, t in zip(results, lowered.outputs)]


def _generic(module: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream, print_generic_format=True).print_op(module)
    return stream.getvalue()


def compile_cases(cases: Mapping[str, Case], workdir: Path) -> dict[str, list[np.ndarray]]:
    """Each case's main lowered into one module (a function per case, by name),
    validated, compiled and run on its inputs: the results by case."""
    lowered = {name: _lower(name, case) for name, case in cases.items()}
    module = ModuleOp([op.clone() for item in lowered.values() for op in item.module.ops])
    source = workdir / "tosa.mlir"
    source.write_text(_generic(module))
    validation = subprocess.run(
        ["mlir-opt-22", "--tosa-validate", str(source), "-o", "/dev/null"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert validation.returncode == 0, validation.stderr
    llvm = workdir / "llvm.mlir"
    subprocess.run(
        ["mlir-opt-22", f"--pass-pipeline={PIPELINE}", str(source), "-o", str(llvm)], check=True
    )
    ir = subprocess.run(
        ["mlir-translate-22", "--mlir-to-llvmir", str(llvm)], check=True, capture_output=True
    ).stdout
    library_path = workdir / "cases.so"
    subprocess.run(
        ["clang-22", "-O1", "-w", "-shared", "-fPIC", "-x", "ir", "-", "-x", "none"]
        + ["-o", str(library_path), "-Wl,-rpath," + str(RUNNER_UTILS.parent), str(RUNNER_UTILS)],
        input=ir,
        check=True,
    )
    library = ctypes.CDLL(str(library_path))
    return {name: _call(library, name, item) for name, item in lowered.items()}


class LoweredCases:
    """The cases of a test module (its ``CASES``), compiled together once."""

    def __init__(self, cases: Mapping[str, Case], workdir: Path):
        self.cases = cases
        self.workdir = workdir
        self._results: dict[str, list[np.ndarray]] | None = None

    def check(self, name: str) -> None:
        """Case `name` gives the interpreter's results within `TOLERANCE`."""
        if self._results is None:
            self._results = compile_cases(self.cases, self.workdir)
        text, inputs = self.cases[name]
        expected = run(parse(text), inputs)
        actual = self._results[name]
        assert len(actual) == len(expected)
        for got, want in zip(actual, expected):
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=TOLERANCE, atol=TOLERANCE)


@pytest.fixture(scope="module")
def lowered_cases(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> LoweredCases:
    """The ``CASES`` of the requesting test module (name to `Case`: text and
    inputs), compiled together the first time one is checked."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing or not RUNNER_UTILS.exists():
        pytest.skip(f"upstream MLIR tools missing: {', '.join(missing) or RUNNER_UTILS}")
    return LoweredCases(request.module.CASES, tmp_path_factory.mktemp("lowered"))
