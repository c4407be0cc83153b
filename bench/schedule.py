"""``python -m bench.schedule``: resnet18 in TOSA, compiled with and without the schedule.

Compiles ``bench/tosa_resnet18.py``'s network with ``mlir-opt-22`` (the stages of
``relay_xdsl.compiler.schedule``), ``mlir-translate-22`` and ``clang-22``, checks its
output against PyTorch (max abs error within 1e-4), and times it through ctypes
against PyTorch eager on one thread, on the same numbers. Prints one line per
variant: compile time, the median of ``--runs`` runs, and the ratio to PyTorch.

Options: ``--variants plain,scheduled`` (``plain`` is the loop-only baseline, slow),
``--runs N``, ``--keep DIR`` (keep the .mlir/.ll/.so files), ``--generic-cpu`` (clang
without ``-march=native``), ``--no-mallopt`` (without ``schedule.keep_freed_buffers()``).
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench.tosa_resnet18 import random_arguments, reference, resnet18_tosa, torch_model
from relay_xdsl.compiler import schedule


def compile_shared(mlir: str, pipeline: str, workdir: Path, clang_flags: list[str]) -> Path:
    """mlir-opt-22 with ``pipeline``, then mlir-translate-22 and clang-22 into a .so."""
    source = workdir / "model.mlir"
    source.write_text(mlir)
    lowered = workdir / "model.llvm.mlir"
    ll = workdir / "model.ll"
    so = workdir / "model.so"
    steps = [
        ["mlir-opt-22", f"--pass-pipeline={pipeline}", str(source), "-o", str(lowered)],
        ["mlir-translate-22", "--mlir-to-llvmir", str(lowered), "-o", str(ll)],
        [
            "clang-22",
            *clang_flags,
            "-Wno-override-module",
            "-shared",
            "-fPIC",
            "-x",
            "ir",
            str(ll),
            "-o",
            str(so),
        ],
    ]
    for step in steps:
        start = time.perf_counter()
        subprocess.run(step, check=True)
        print(f"  {step[0]}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return so


def _descriptor(rank: int) -> type[ctypes.Structure]:
    class MemRef(ctypes.Structure):
        _fields_ = [
            ("allocated", ctypes.c_void_p),
            ("aligned", ctypes.c_void_p),
            ("offset", ctypes.c_int64),
            ("sizes", ctypes.c_int64 * rank),
            ("strides", ctypes.c_int64 * rank),
        ]

    return MemRef


def _to_descriptor(array: np.ndarray) -> ctypes.Structure:
    desc = _descriptor(array.ndim)()
    desc.allocated = desc.aligned = array.ctypes.data
    desc.offset = 0
    for i, (size, stride) in enumerate(zip(array.shape, array.strides, strict=True)):
        desc.sizes[i] = size
        desc.strides[i] = stride // array.itemsize
    return desc


class Compiled:
    """A compiled ``@main`` (``llvm.emit_c_interface``) returning one f32 memref."""

    def __init__(self, so: Path, args: list[np.ndarray], result_shape: tuple[int, ...]):
        self.lib = ctypes.CDLL(str(so))
        self.fn = self.lib._mlir_ciface_main
        self.args = [np.ascontiguousarray(a, dtype=np.float32) for a in args]
        self.descs = [_to_descriptor(a) for a in self.args]
        self.result = _descriptor(len(result_shape))()
        self.shape = result_shape
        self.pointers = [ctypes.byref(self.result)] + [ctypes.byref(d) for d in self.descs]
        self.free = ctypes.CDLL(None).free
        self.free.argtypes = [ctypes.c_void_p]

    def __call__(self) -> np.ndarray:
        self.fn(*self.pointers)
        count = int(np.prod(self.shape))
        buffer = (ctypes.c_float * count).from_address(self.result.aligned + 4 * self.result.offset)
        out = np.ctypeslib.as_array(buffer).reshape(self.shape).copy()
        self.free(self.result.allocated)
        return out


def median_time(fn: Callable[[], object], runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.schedule", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--variants", default="scheduled")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--generic-cpu", action="store_true")
    parser.add_argument(
        "--no-mallopt", action="store_true", help="leave glibc's malloc thresholds alone"
    )
    parser.add_argument(
        "--ohwi", action="store_true", help="conv weights as OHWI arguments (runtime transposes)"
    )
    options = parser.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    if not options.no_mallopt:
        schedule.keep_freed_buffers()
    hwio = not options.ohwi
    text, args = resnet18_tosa(hwio=hwio)
    values = random_arguments(args)
    expected = reference(values, hwio)
    model = torch_model(values, hwio)
    x = torch.from_numpy(np.ascontiguousarray(values[0].transpose(0, 3, 1, 2)))
    with torch.no_grad():
        torch_time = median_time(lambda: model(x), options.runs)
    print(f"pytorch eager, 1 thread: {torch_time * 1e3:.1f} ms (median of {options.runs})")

    flags = ["-O3"] if options.generic_cpu else schedule.CLANG_FLAGS
    for variant in options.variants.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            workdir = options.keep / variant if options.keep else Path(tmp)
            workdir.mkdir(parents=True, exist_ok=True)
            library = schedule.write_schedule(workdir)
            pipeline = schedule.pass_pipeline(library if variant == "scheduled" else None)
            start = time.perf_counter()
            so = compile_shared(
                text,
                pipeline,
                workdir,
                flags if variant == "scheduled" else schedule.PLAIN_CLANG_FLAGS,
            )
            compile_time = time.perf_counter() - start
            compiled = Compiled(so, values, expected.shape)
            error = float(np.abs(compiled() - expected).max())
            runs = options.runs if variant != "plain" else 3
            t = median_time(compiled, runs)
            print(
                f"{variant}: compile {compile_time:.1f} s, run {t * 1e3:.1f} ms (median of {runs}), "
                f"{t / torch_time:.2f}x pytorch, max abs error {error:.1e}"
            )
            if error > 1e-4:
                print(f"{variant}: output differs from PyTorch", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
