"""``python -m bench.compiled``: torchvision models compiled with upstream MLIR,
against IREE, PyTorch eager and TVM, on one thread (or ``--threads N`` each).

For each model (``--models``, by default resnet18, mobilenet_v2 and resnet50), the
Relax bridge's module is imported and built four ways, each timed:

* **relay-xdsl**: ``relay-xdsl compile``'s path: relay-fuse-ops, the conversion
  to TOSA, ``mlir-opt-22`` with the vectorising schedule, ``mlir-translate-22``,
  ``clang-22``; the library is called through ctypes;
* **IREE**: ``relay-xdsl compile --target iree``'s path: the same TOSA compiled
  by IREE for this CPU, run on its ``local-sync`` driver (one thread; more: its
  task runtime);
* **PyTorch eager**, ``torch.set_num_threads(1)``, under ``torch.no_grad()``;
* **TVM 0.27**, ``relax.build`` for ``llvm`` (untuned, the Relax VM), its thread
  pool set to one thread.

With ``--threads N``, each runs on N threads: relay-xdsl's library its OpenMP
loops (``relay-xdsl compile --threads N``), the others as above with N.

Each output is checked against PyTorch's (max abs error 1e-4) before timing.
Inference runs alternate between the four, ``--runs`` rounds, so that all see
the same machine; the medians and the ratios to PyTorch are printed and, with
``--markdown FILE``, written as a table. Compile times are wall-clock seconds of
one build each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DEFAULT_MODELS = ("resnet18", "mobilenet_v2", "resnet50")
MAX_ABS_ERROR = 1e-4


@dataclass
class Result:
    model: str
    compile_seconds: dict[str, float] = field(default_factory=dict)
    run_seconds: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, float] = field(default_factory=dict)

    def median(self, who: str) -> float:
        return statistics.median(self.run_seconds[who])


def _timed(build: Callable[[], Callable[[], np.ndarray]]) -> tuple[Callable[[], np.ndarray], float]:
    start = time.perf_counter()
    runner = build()
    return runner, time.perf_counter() - start


def bench_model(name: str, runs: int, workdir: Path, threads: int = 1) -> Result:
    import torch
    import tvm
    from tvm import relax

    from relay_xdsl.compiler.build import build
    from relay_xdsl.compiler.frontend import lower
    from relay_xdsl.compiler.iree_build import build_vmfb
    from relay_xdsl.compiler.iree_runtime import IreeModel
    from relay_xdsl.compiler.runtime import CompiledModel
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.tools.commands.compile import default_schedule
    from relay_xdsl.tvm import models as tvm_models

    example = tvm_models.example_input()
    data = example.numpy()
    expected = tvm_models.torch_output(name)
    mod = tvm_models.relax_module(name)
    result = Result(name)

    def ours() -> Callable[[], np.ndarray]:
        program = lower(import_relax(mod))
        library = workdir / f"{name}.so"
        signature = build(program, library, schedule=default_schedule(threads))
        model = CompiledModel(library, signature, program.weights)
        return lambda: model(data)[0]

    def iree() -> Callable[[], np.ndarray]:
        program = lower(import_relax(mod))
        path = workdir / f"{name}.vmfb"
        signature = build_vmfb(program, path)
        model = IreeModel(path.read_bytes(), signature, program.weights, threads=threads)
        return lambda: model(data)[0]

    def tvm_vm() -> Callable[[], np.ndarray]:
        executable = relax.build(mod, target="llvm")
        vm = relax.VirtualMachine(executable, tvm.cpu())
        tensor = tvm.runtime.tensor(data)
        return lambda: vm["main"](tensor)[0].numpy()

    torch.set_num_threads(threads)
    tvm.get_global_func("runtime.config_threadpool")(1, threads)
    model = tvm_models.torch_model(name)

    def eager() -> np.ndarray:
        with torch.no_grad():
            return model(example).numpy()

    runners = {"PyTorch eager": eager}
    for who, make in (("relay-xdsl", ours), ("IREE", iree), ("TVM relax.build", tvm_vm)):
        runner, seconds = _timed(make)
        runners[who] = runner
        result.compile_seconds[who] = seconds
    for who, runner in runners.items():
        result.errors[who] = float(np.abs(runner() - expected).max())  # also warms up
        if result.errors[who] > MAX_ABS_ERROR:
            raise AssertionError(f"{name}: {who} is {result.errors[who]:.2g} off PyTorch")
    for _ in range(runs):
        for who, runner in runners.items():
            start = time.perf_counter()
            runner()
            result.run_seconds.setdefault(who, []).append(time.perf_counter() - start)
    return result


def table(results: list[Result]) -> str:
    header = (
        "| model | relay-xdsl compile (s) | IREE compile (s) | TVM build (s) | relay-xdsl (ms) "
        "| IREE (ms) | PyTorch eager (ms) | TVM untuned (ms) | relay-xdsl / PyTorch "
        "| relay-xdsl / IREE | relay-xdsl / TVM |"
    )
    lines = [header, "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        ours, iree, eager, tvm = (
            r.median(w) for w in ("relay-xdsl", "IREE", "PyTorch eager", "TVM relax.build")
        )
        seconds = r.compile_seconds
        lines.append(
            f"| {r.model} | {seconds['relay-xdsl']:.1f} | {seconds['IREE']:.1f} "
            f"| {seconds['TVM relax.build']:.1f} | {ours * 1e3:.1f} | {iree * 1e3:.1f} "
            f"| {eager * 1e3:.1f} | {tvm * 1e3:.1f} | {ours / eager:.2f} | {ours / iree:.2f} "
            f"| {ours / tvm:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.compiled", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1, help="threads for each (default: 1)")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    from relay_xdsl.compiler.schedule import keep_freed_buffers

    keep_freed_buffers()  # as the relay-xdsl command does before running compiled models
    results = []
    with tempfile.TemporaryDirectory() as workdir:
        for name in args.models.split(","):
            print(f"{name}: building and timing ({args.runs} rounds)", file=sys.stderr, flush=True)
            results.append(bench_model(name, args.runs, Path(workdir), args.threads))
    text = table(results)
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(
            f"# Compiled models, {_threads(args.threads)} (`python -m bench.compiled`)\n\n"
            "Medians of alternating runs in one process; ratios below 1 favour relay-xdsl.\n\n"
            + text
        )
    return 0


def _threads(count: int) -> str:
    return "one thread" if count == 1 else f"{count} threads"


if __name__ == "__main__":
    sys.exit(main())
