"""``python -m bench.compiled``: models compiled by relay-xdsl against IREE, PyTorch
eager, ONNX Runtime and TVM, on one thread and on all cores, against the CPU's peak.

For each model (``--models``; by default resnet18, resnet50, mobilenet_v2,
vit_b_16, a BERT-base encoder and GPT-2, see bench/compiled_models.py), the same
network with the same weights is built five ways, and each build is timed
(wall seconds; the first where one build per thread count follows):

* **relay-xdsl**: ``relay-xdsl compile MODEL.mlir -o MODEL.so --no-cache`` run as a
  command on the relay-dialect module that ``import_relax`` makes of the
  network's Relax module (the conversion to TOSA, ``mlir-opt-22`` with the
  vectorising schedule, ``mlir-translate-22``, ``clang-22``); the library is
  called through ctypes (relay_xdsl.compiler.runtime);
* **IREE**: ``relay-xdsl compile MODEL.mlir --target iree``, IREE compiling
  the same TOSA for this CPU, run by relay_xdsl.compiler.iree_runtime;
* **PyTorch eager**, under ``torch.no_grad()``;
* **ONNX Runtime**: ``torch.onnx.export`` (TorchScript exporter, opset 17),
  then an ``InferenceSession`` on the CPU with its default graph
  optimisations; its build time is the export's plus the first session's;
* **TVM 0.27**: ``relax.build`` for ``llvm`` (untuned), run on the Relax VM.

Each runs on one thread and on all the cores this process may use
(relay_xdsl.support.cores.default_threads; ``--threads``, comma-separated
counts, instead): ``torch.set_num_threads``,
TVM's ``runtime.config_threadpool``, one ONNX Runtime session and one IREE
model per thread count (``intra_op_num_threads``, ``threads=``). relay-xdsl gets
``--threads N`` at compile time, one library per thread count, where
``relay-xdsl compile --help`` offers that option; otherwise its one library
runs on one thread in both, and the table says so.

Each output is checked against PyTorch's before timing: the largest absolute
difference, relative to PyTorch's largest |output|, must stay within 1e-4. A
build that fails or disagrees is reported in the table and not timed. Inference
runs then alternate, ``--runs`` rounds of every (thread count, compiler) pair,
so that all see the same machine, each round's compilers in a shuffled order
(``timing_order``), so that none always follows the same one. In its turn a
compiler runs the model back to back for `TURN_SECONDS` (at least once,
`timed_turn`): the medians of those calls, each turn's first one aside, are
compared, as a model serving requests runs; the medians of the first calls,
each after another compiler's turn left its data in the caches, are
compared too, as a model called now and then runs.

Each median is also given as GFLOP/s, the model's FLOPs (bench/flops.py: its
convolutions and matrix products, counted on the relay-dialect module) over the
median, and as a fraction of the CPU's measured peak at that thread count
(bench/peak.py: independent FMAs on the widest vectors, on one thread; N times
that on N threads). The tables are printed with that peak, the FMA kernel's
rate on all threads at once and the machine's load (``uptime``) before and
after, and with ``--markdown FILE`` also written to FILE.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bench.peak import Peak

if TYPE_CHECKING:  # torch and TVM load when the benchmark runs
    from bench.compiled_models import Model

DEFAULT_MODELS = ("resnet18", "resnet50", "mobilenet_v2", "vit_b_16", "bert", "gpt2")
RELATIVE_TOLERANCE = 1e-4
"""Max |output - PyTorch's| / max |PyTorch's| for a build to be timed."""
OURS, IREE, EAGER, ORT, TVM = (
    "relay-xdsl",
    "IREE",
    "PyTorch eager",
    "ONNX Runtime",
    "TVM untuned",
)
COMPILERS = (OURS, IREE, EAGER, ORT, TVM)
"""The columns, in the order they are built."""
QUIET_SECONDS = 0.002
SETTLE_SECONDS = 1.0
"""A timed run starts once the other threads have been idle `QUIET_SECONDS`,
or after `SETTLE_SECONDS` at most (`wait_for_quiet_threads`)."""
ORDER_SEED = 0
"""The seed of the rounds' shuffled orders (`timing_order`)."""
TURN_SECONDS = 0.2
"""How long a compiler's turn runs its model, back to back (`timed_turn`).
Single calls, each after another compiler's, moved by up to a fifth between
two runs of the benchmark on the same code (mobilenet_v2 on one thread: 0.95
and 1.13 of ONNX Runtime's time, medians of 5)."""
BUILDS = {
    OURS: "relay-xdsl compile (s)",
    IREE: "relay-xdsl compile --target iree (s)",
    ORT: "torch.onnx.export + ORT session (s)",
    TVM: "TVM relax.build (s)",
}
"""The compilers that build before running (PyTorch eager does not), and what is timed."""
SINGLE_THREADED_NOTE = (
    "relay-xdsl compile has no --threads: its library runs on one thread in every row"
)

Runner = Callable[[], np.ndarray]


@dataclass
class Result:
    """One model's measurements."""

    model: str
    flops: int
    compile_seconds: dict[str, float] = field(default_factory=dict)
    """Compiler -> wall seconds of one build."""
    run_seconds: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    """(compiler, threads) -> seconds of each timed call but the first of a turn
    (that one where a turn made one call)."""
    first_seconds: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    """(compiler, threads) -> seconds of each turn's first call."""
    errors: dict[tuple[str, int], float] = field(default_factory=dict)
    """(compiler, threads) -> max |output - PyTorch's| / max |PyTorch's|."""
    failures: dict[str, str] = field(default_factory=dict)
    """Compiler -> why it was not timed."""

    def median(self, who: str, threads: int) -> float:
        return statistics.median(self.run_seconds[who, threads])

    def first_median(self, who: str, threads: int) -> float:
        return statistics.median(self.first_seconds[who, threads])


@dataclass(frozen=True)
class Machine:
    """What the rows are measured against."""

    threads: tuple[int, ...]
    """The thread counts: 1 and all cores."""
    peak: Peak
    ours_threads: bool
    """Whether ``relay-xdsl compile`` takes ``--threads``."""


def relay_xdsl_command(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``relay-xdsl ARGUMENTS`` run as a command, by this Python with this environment."""
    return subprocess.run(
        [sys.executable, "-m", "relay_xdsl.tools.cli", *arguments],
        capture_output=True,
        text=True,
        check=False,
    )


def compile_has_threads() -> bool:
    """Whether ``relay-xdsl compile --help`` offers ``--threads``."""
    return "--threads" in relay_xdsl_command("compile", "--help").stdout


def relay_xdsl_compile(source: Path, output: Path, *options: str) -> None:
    """``relay-xdsl compile SOURCE -o OUTPUT OPTIONS``; a RuntimeError with its message if
    it fails."""
    completed = relay_xdsl_command("compile", str(source), "-o", str(output), *options)
    if completed.returncode != 0:
        message = completed.stderr.strip().splitlines() or [f"exit {completed.returncode}"]
        raise RuntimeError(message[-1])


def thread_counts() -> tuple[int, ...]:
    """One thread, and all the cores this process may use (IREE's and PyTorch's default)."""
    from relay_xdsl.support.cores import default_threads

    return tuple(sorted({1, default_threads()}))


def thread_counts_argument(text: str) -> tuple[int, ...]:
    """``--threads`` 's value: comma-separated counts of at least 1."""
    try:
        counts = {int(count) for count in text.split(",")}
    except ValueError:
        counts = set()
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: thread counts of at least 1, e.g. 1,2")
    return tuple(sorted(counts))


def use_threads(threads: int) -> None:
    """PyTorch and TVM on `threads` threads (the others fix theirs per session or model).

    TVM's ``config_threadpool`` pins the calling thread to one core, and every
    thread it then starts (OpenMP's, ONNX Runtime's) inherits that mask: all
    of them would share one core. So the calling thread gets its cores back.
    """
    import torch
    import tvm

    cores = os.sched_getaffinity(0)
    torch.set_num_threads(threads)
    tvm.get_global_func("runtime.config_threadpool")(1, threads)
    os.sched_setaffinity(0, cores)


def relative_error(output: np.ndarray, expected: np.ndarray) -> float:
    """max |output - expected| / max |expected| (the absolute error where expected is 0)."""
    if output.shape != expected.shape:
        raise ValueError(f"shape {output.shape}, PyTorch's is {expected.shape}")
    scale = float(np.abs(expected).max()) or 1.0
    return float(np.abs(output.astype(expected.dtype) - expected).max()) / scale


def bench_model(model: Model, runs: int, machine: Machine, workdir: Path) -> Result:
    """`model` built by each compiler, checked against PyTorch and timed (see the module)."""
    import onnxruntime
    import torch
    import tvm
    from tvm import relax

    from bench.flops import flops
    from relay_xdsl.compiler.iree_runtime import IreeModel
    from relay_xdsl.compiler.runtime import CompiledModel
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.tools.mlir_text import mlir_text

    mod = model.relax_module()
    relay_module = import_relax(mod)
    result = Result(model.name, flops(relay_module))
    source = workdir / f"{model.name}.mlir"
    source.write_text(mlir_text(relay_module))
    data = model.example.numpy()
    expected = model.expected()

    def build_time(who: str, start: float) -> None:
        """The first build of `who` (one per thread count may follow) is its build time."""
        result.compile_seconds.setdefault(who, time.perf_counter() - start)

    def ours() -> dict[int, Runner]:
        compiled = {}
        for threads in machine.threads if machine.ours_threads else machine.threads[:1]:
            library = workdir / f"{model.name}-{threads}.so"
            options = ("--threads", str(threads)) if machine.ours_threads else ()
            start = time.perf_counter()
            # --no-cache: built from nothing, as IREE builds, not from an earlier run's objects
            relay_xdsl_compile(source, library, "--no-cache", *options)
            build_time(OURS, start)
            compiled[threads] = CompiledModel.load(library)
        # built once, for the first count, where compile takes no --threads
        first = next(iter(compiled.values()))
        return {t: _first_output(compiled.get(t, first), data) for t in machine.threads}

    def iree() -> dict[int, Runner]:
        path = workdir / f"{model.name}.vmfb"
        start = time.perf_counter()
        relay_xdsl_compile(source, path, "--target", "iree")
        build_time(IREE, start)
        return {t: _first_output(IreeModel.load(path, threads=t), data) for t in machine.threads}

    def eager() -> dict[int, Runner]:
        def run() -> np.ndarray:
            with torch.no_grad():
                return model.network(model.example).numpy()

        return dict.fromkeys(machine.threads, run)

    def ort() -> dict[int, Runner]:
        path = workdir / f"{model.name}.onnx"
        start = time.perf_counter()
        model.export_onnx(path)

        def session(threads: int) -> Runner:
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            run = onnxruntime.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            ).run
            build_time(ORT, start)
            return lambda: run(None, {"input": data})[0]

        return {t: session(t) for t in machine.threads}

    def tvm_vm() -> dict[int, Runner]:
        start = time.perf_counter()
        executable = relax.build(mod, target="llvm")
        build_time(TVM, start)
        vm = relax.VirtualMachine(executable, tvm.cpu())
        tensor = tvm.runtime.tensor(data)
        return dict.fromkeys(machine.threads, lambda: vm["main"](tensor)[0].numpy())

    builds = {OURS: ours, IREE: iree, EAGER: eager, ORT: ort, TVM: tvm_vm}
    runners: dict[tuple[str, int], Runner] = {}
    for who, build in builds.items():
        try:
            built = build()
        except Exception as failure:  # a compiler that cannot build it is a result  # noqa: BLE001
            result.failures[who] = _described(failure)
            continue
        for threads in machine.threads:
            use_threads(threads)
            try:  # also warms up
                error = relative_error(np.asarray(built[threads]()), expected)
            except Exception as failure:  # noqa: BLE001
                result.failures[who] = f"runs: {_described(failure)}"
                break
            result.errors[who, threads] = error
            if error > RELATIVE_TOLERANCE:
                result.failures[who] = f"{error:.2g} off PyTorch (relative)"
                break
            runners[who, threads] = built[threads]
    timed = {key: runner for key, runner in runners.items() if key[0] not in result.failures}
    threads_now = 0
    for who, threads in timing_order(list(timed), machine.threads, runs):
        if threads != threads_now:
            use_threads(threads)
            threads_now = threads
        first, calls = timed_turn(timed[who, threads])
        result.first_seconds.setdefault((who, threads), []).append(first)
        result.run_seconds.setdefault((who, threads), []).extend(calls or [first])
    return result


def timed_turn(runner: Runner) -> tuple[float, list[float]]:
    """A compiler's turn: `runner` called once the other threads are quiet
    (`wait_for_quiet_threads`), then again back to back until the turn has
    taken `TURN_SECONDS`: the first call's seconds, and each later call's."""
    wait_for_quiet_threads()
    start = time.perf_counter()
    runner()
    now = time.perf_counter()
    first, calls = now - start, []
    while now - start < TURN_SECONDS:
        before = now
        runner()
        now = time.perf_counter()
        calls.append(now - before)
    return first, calls


def _others_running() -> bool | None:
    """Whether another thread of this process is running or waiting for a
    core (Linux's task states), or None where the system does not say."""
    me = str(threading.get_native_id())
    try:
        for task in os.listdir("/proc/self/task"):
            if task != me:
                with open(f"/proc/self/task/{task}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[0] == "R":
                        return True
    except OSError:  # no /proc, or a thread that just ended
        return None
    return False


def wait_for_quiet_threads() -> None:
    """Return once no other thread of this process has run for `QUIET_SECONDS`
    (or after `SETTLE_SECONDS`, or at once where that cannot be seen).

    An idle worker of a thread pool spins on a core for a while before it
    sleeps (ONNX Runtime's for about 25 ms after a run on two threads, here),
    and a run on every core started in that time shares one with it:
    relay-xdsl's mobilenet_v2 on two threads took 9.2 ms a call right after
    ONNX Runtime's, 3.2 after its own.  The calling thread polls rather than
    sleeps: a core left idle is slow to start again on this virtual machine
    (mobilenet_v2 on one thread, a 250 ms sleep before each run: relay-xdsl's
    7.7 ms a call against 6.5, ONNX Runtime's 7.1 against 6.8)."""
    start = quiet_since = time.perf_counter()
    while True:
        running = _others_running()
        now = time.perf_counter()
        if running is None or now - start >= SETTLE_SECONDS:
            return
        if running:
            quiet_since = now
        elif now - quiet_since >= QUIET_SECONDS:
            return


def timing_order(
    keys: Sequence[tuple[str, int]], thread_counts: Sequence[int], runs: int
) -> list[tuple[str, int]]:
    """The timed runs of `keys` ((compiler, threads) pairs), in order: `runs`
    rounds, each one pass per thread count of every compiler timed at it, in
    an order shuffled afresh each round (from `ORDER_SEED`).  In a fixed order
    each compiler always ran right after the same one, and what ran before
    decides what is left in the caches: after TVM's untuned inference (100 ms
    to 100 s), relay-xdsl's mobilenet_v2 took 7.6 ms a call, after PyTorch
    eager or ONNX Runtime 6.3-6.6 ms (one thread)."""
    order = random.Random(ORDER_SEED)
    sequence = []
    for _ in range(runs):
        for threads in thread_counts:
            at_threads = [key for key in keys if key[1] == threads]
            order.shuffle(at_threads)
            sequence += at_threads
    return sequence


def _first_output(model: Callable[..., list[np.ndarray]], data: np.ndarray) -> Runner:
    return lambda: model(data)[0]


def _described(failure: Exception) -> str:
    """`failure` on one line, for a table cell."""
    lines = str(failure).strip().splitlines()
    return f"{type(failure).__name__}: {lines[0]}" if lines else type(failure).__name__


def compile_table(results: Sequence[Result]) -> str:
    """Each model's GFLOPs and each compiler's build seconds."""
    header = ["model", "GFLOP", *BUILDS.values()]
    rows = []
    for r in results:
        cells = [r.model, f"{r.flops / 1e9:.2f}"]
        for who in BUILDS:
            cells.append(f"{r.compile_seconds[who]:.1f}" if who in r.compile_seconds else "fails")
        rows.append(cells)
    return _markdown(header, rows)


def run_table(results: Sequence[Result], machine: Machine) -> str:
    """Per model and thread count, each compiler's median, GFLOP/s and share of the peak,
    and relay-xdsl's time over the fastest other compiler's: in the medians, and in
    the medians of the turns' first calls."""
    header = [
        "model",
        "threads",
        *COMPILERS,
        f"{OURS} / fastest other",
        f"first calls: {OURS} / fastest other",
    ]
    rows = []
    for r in results:
        for threads in machine.threads:
            peak = machine.peak.at(threads)
            cells = [r.model, str(threads)]
            timed = [who for who in COMPILERS if (who, threads) in r.run_seconds]
            for who in COMPILERS:
                if who not in timed:
                    cells.append(f"fails: {r.failures.get(who, 'not run')}")
                    continue
                median = r.median(who, threads)
                rate = r.flops / median
                cell = f"{median * 1e3:.1f} ms, {rate / 1e9:.1f} GFLOP/s ({rate / peak:.0%})"
                if who == OURS and threads > 1 and not machine.ours_threads:
                    cell += " (1 thread)"
                cells.append(cell)
            for median_of in (r.median, r.first_median):
                cells.append(_ratio({who: median_of(who, threads) for who in timed}))
            rows.append(cells)
    return _markdown(header, rows)


def _ratio(medians: dict[str, float]) -> str:
    """relay-xdsl's median over the fastest other's, and which that is."""
    others = {who: m for who, m in medians.items() if who != OURS}
    if OURS not in medians or not others:
        return "—"
    fastest = min(others, key=others.__getitem__)
    return f"{medians[OURS] / others[fastest]:.2f} ({fastest})"


def peak_line(machine: Machine) -> str:
    """The core's peak, and what the FMA kernel measured on several threads at once."""
    peak = machine.peak
    line = (
        f"Core peak (bench/peak.py, {peak.lanes}-lane float32 FMAs on one thread, best of "
        f"its runs): {peak.per_core / 1e9:.0f} GFLOP/s; N threads' peak is N times that."
    )
    at_once = [
        f"{rate / 1e9:.0f} GFLOP/s on {threads} threads"
        for threads, rate in peak.measured.items()
        if threads > 1
    ]
    if at_once:
        line += f" The same kernel measured {', '.join(at_once)} at once."
    return line


def _markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def report(results: Sequence[Result], machine: Machine, load: tuple[str, str]) -> str:
    """The tables with the peak, the load and what the cells mean."""
    notes = [
        peak_line(machine),
        f"Machine load (`uptime`): before `{load[0]}`; after `{load[1]}`.",
        (
            "Each cell: the median of the calls of turns alternating in one process, each "
            "round's turns in a shuffled order, each turn "
            f"{TURN_SECONDS:g} s of calls back to back, its first call aside; its GFLOP/s "
            "(the model's convolutions and matrix products, bench/flops.py) and that rate "
            "as a share of the peak at the row's thread count. The last column compares "
            "the medians of the turns' first calls, each right after another compiler's "
            "turn. Ratios below 1 favour relay-xdsl."
        ),
    ]
    if not machine.ours_threads:
        notes.append(SINGLE_THREADED_NOTE + ".")
    return (
        "\n\n".join(notes)
        + "\n\n## Builds\n\n"
        + compile_table(results)
        + "\n## Inference\n\n"
        + run_table(results, machine)
    )


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.compiled", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument(
        "--threads",
        type=thread_counts_argument,
        help="the thread counts to time, comma-separated (default: 1 and every core)",
    )
    parser.add_argument("--markdown", type=Path, help="also write the tables to this file")
    args = parser.parse_args(argv)
    from bench.compiled_models import check_name, model
    from bench.peak import measure_peak
    from relay_xdsl.compiler.schedule import keep_freed_buffers

    names = args.models.split(",")
    for name in names:
        try:
            check_name(name)
        except ValueError as error:
            parser.error(str(error))
    keep_freed_buffers()  # as the relay-xdsl command does before running compiled models
    load_before = uptime()
    threads = args.threads or thread_counts()
    machine = Machine(threads, measure_peak(threads), compile_has_threads())
    if not machine.ours_threads:
        print(f"note: {SINGLE_THREADED_NOTE}", file=sys.stderr)
    results = []
    for name in names:
        print(f"{name}: building and timing ({args.runs} rounds)", file=sys.stderr, flush=True)
        # A model's files (its weights several times over) go once it is measured.
        with tempfile.TemporaryDirectory(prefix=f"bench-compiled-{name}-") as workdir:
            results.append(bench_model(model(name), args.runs, machine, Path(workdir)))
    text = report(results, machine, (load_before, uptime()))
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(
            "# Compiled models against their peers and the CPU's peak "
            f"(`python -m bench.compiled`, {os.cpu_count()} CPUs)\n\n" + text
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
