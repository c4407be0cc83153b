"""The CPU's measured peak: float32 fused multiply-adds per second, per core and on several.

`measure_peak` compiles a small C kernel (`KERNEL`) with ``clang-22 -O3
-march=native``: `CHAINS` independent chains of ``acc = acc * scale + step``
on the widest vectors the CPU has (AVX-512's 16 floats, AVX's 8, else 4),
which clang contracts into one FMA each. Independent chains hide the FMA
latency, so the loop runs at the FMA units' throughput: the most float32
arithmetic a core does, two FLOPs per lane per FMA. The chains converge to
1 (no overflow nor denormals), and their sum is returned so that nothing is
optimised away.

The core's peak is the kernel's rate on one thread; the peak of N cores is N
times that (`Peak.at`). The kernel runs through ctypes, which releases the
GIL, so it is also measured on N threads at once (the work of all over the
wall time of the slowest): on a machine shared with other work that falls
short of N times the core's, and says how busy the machine was. Each
measurement is the best of `repeats` short runs (a peak is what the machine
can do, so the fastest run is the one that measures it): about a millisecond
each, so that on a machine shared with other work some run whole between
the scheduler's interruptions.
"""

from __future__ import annotations

import ctypes
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from relay_xdsl.compiler.toolchain import run_tool

CHAINS = 12
"""Independent accumulators: more than FMA latency x FMA units (4 x 2 on current x86
cores), few enough to stay in AVX2's 16 vector registers with the two constants."""
KERNEL = f"""
#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX__)
#define LANES 8
#else
#define LANES 4
#endif
#define CHAINS {CHAINS}
typedef float vector __attribute__((vector_size(LANES * sizeof(float))));

int lanes(void) {{ return LANES; }}

float fma_chains(long iterations, float scale, float step) {{
    vector acc[CHAINS];
    vector s = (vector){{}} + scale, t = (vector){{}} + step;
    for (int c = 0; c < CHAINS; ++c) acc[c] = (vector){{}} + (float)c;
    for (long n = 0; n < iterations; ++n)
        for (int c = 0; c < CHAINS; ++c) acc[c] = acc[c] * s + t;
    float total = 0;
    for (int c = 0; c < CHAINS; ++c)
        for (int l = 0; l < LANES; ++l) total += acc[c][l];
    return total;
}}
"""


CLANG_FLAGS = ("-O3", "-march=native", "-mprefer-vector-width=512", "-ffp-contract=fast", "-x", "c")
"""How `KERNEL` is compiled (then ``-shared -fPIC``), reading C from stdin.  On
Intel CPUs of AVX-512 clang prefers 256-bit vectors for C code (a Rocket Lake
or Sapphire Rapids core gets ymm FMAs, half the peak) unless told otherwise; the
models' code, vectorised by MLIR to 16 floats, uses zmm regardless."""


@dataclass(frozen=True)
class Peak:
    lanes: int
    """float32 lanes per FMA instruction."""
    per_core: float
    """FLOP/s of the kernel on one thread."""
    measured: dict[int, float]
    """Thread count -> FLOP/s of that many threads running the kernel at once."""

    def at(self, threads: int) -> float:
        """The peak FLOP/s of `threads` cores: `threads` times the core's."""
        return threads * self.per_core


class FmaKernel:
    """`KERNEL`, compiled into a shared library in `directory`."""

    def __init__(self, directory: Path):
        library = directory / "fma_chains.so"
        run_tool("clang", [*CLANG_FLAGS, "-", "-shared", "-fPIC", "-o", str(library)], input=KERNEL)
        handle = ctypes.CDLL(str(library))
        self._chains = handle.fma_chains
        self._chains.argtypes = [ctypes.c_long, ctypes.c_float, ctypes.c_float]
        self._chains.restype = ctypes.c_float
        self.lanes = int(handle.lanes())

    def flops(self, iterations: int) -> int:
        """The FLOPs of one call of `iterations` iterations."""
        return 2 * CHAINS * self.lanes * iterations

    def run(self, iterations: int, threads: int) -> float:
        """Wall seconds of `threads` threads each running `iterations` iterations at once."""
        barrier = threading.Barrier(threads + 1)

        def work() -> None:
            barrier.wait()
            self._chains(iterations, 0.999, 0.001)

        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        barrier.wait()
        start = time.perf_counter()
        for worker in workers:
            worker.join()
        return time.perf_counter() - start


def measure_peak(
    thread_counts: tuple[int, ...], repeats: int = 100, iterations: int = 1_000_000
) -> Peak:
    """The core's FMA peak, and the rate measured on each of `thread_counts` (and 1), the
    best of `repeats` runs each."""
    with tempfile.TemporaryDirectory(prefix="bench-peak-") as directory:
        kernel = FmaKernel(Path(directory))
        kernel.run(iterations // 10, 1)  # warm up: page in, clock up
        measured = {
            threads: threads
            * kernel.flops(iterations)
            / min(kernel.run(iterations, threads) for _ in range(repeats))
            for threads in sorted({1, *thread_counts})
        }
    return Peak(kernel.lanes, measured[1], measured)
