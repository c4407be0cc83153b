"""The `lowered_run` fixture: a relay function lowered, checked by upstream MLIR's
TOSA validation, compiled with upstream MLIR and clang, and run through ctypes,
its results compared with the interpreter's on the same inputs.

It needs ``mlir-opt-22``, ``mlir-translate-22`` and ``clang-22`` (the tests
skip without them).
"""

from __future__ import annotations

import ctypes
import io
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType
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


def tosa_text(module: ModuleOp) -> tuple[str, list[np.ndarray], list[TensorType]]:
    """`module`'s main lowered to TOSA in generic form, with its weights and result types."""
    program = lower_module(module)
    stream = io.StringIO()
    Printer(stream, print_generic_format=True).print_op(program.module)
    return stream.getvalue(), program.weights, program.outputs


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


def compile_and_run(
    module: ModuleOp, inputs: Mapping[str, np.ndarray], workdir: Path
) -> list[np.ndarray]:
    """`module`'s main lowered, validated, compiled and run on `inputs` (by name, in order)."""
    text, weights, outputs = tosa_text(module)
    source = workdir / "tosa.mlir"
    source.write_text(text)
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
    library = workdir / "main.so"
    subprocess.run(
        ["clang-22", "-O1", "-shared", "-fPIC", "-x", "ir", "-", "-x", "none", "-o", str(library)]
        + ["-Wl,-rpath," + str(RUNNER_UTILS.parent), str(RUNNER_UTILS)],
        input=ir,
        check=True,
    )
    arguments = [np.ascontiguousarray(a) for a in [*inputs.values(), *weights]]
    descriptors = [_descriptor(a) for a in arguments]
    results = [_descriptor_type(len(t.get_shape()))() for t in outputs]
    if len(results) == 1:
        result_struct: ctypes.Structure = results[0]
    else:

        class Results(ctypes.Structure):
            _fields_ = [(f"r{i}", type(r)) for i, r in enumerate(results)]

        result_struct = Results()
    function = ctypes.CDLL(str(library))._mlir_ciface_main
    function(ctypes.byref(result_struct), *[ctypes.byref(d) for d in descriptors])
    if len(results) > 1:
        results = [getattr(result_struct, f"r{i}") for i in range(len(results))]
    return [_read(d, t) for d, t in zip(results, outputs)]


@pytest.fixture
def lowered_run(tmp_path: Path) -> Callable[..., None]:
    """Check that `text` (parsed by `parse`) gives the interpreter's results when
    lowered, compiled and run on `inputs`, within `tolerance`."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing or not RUNNER_UTILS.exists():
        pytest.skip(f"upstream MLIR tools missing: {', '.join(missing) or RUNNER_UTILS}")

    def check(text: str, tolerance: float = 1e-5, **inputs: np.ndarray) -> None:
        module = parse(text)
        expected = run(module, inputs)
        actual = compile_and_run(module, inputs, tmp_path)
        assert len(actual) == len(expected)
        for got, want in zip(actual, expected):
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)

    return check
