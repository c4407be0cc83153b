"""``python -m bench``: the benchmark suite (``make bench``).

Writes the tables to stdout and to ``bench/results.md`` (``--output``).

Options:

* ``--quick``: only the 1k and 10k generated graphs and resnet18, for smoke runs;
* ``--graphs a,b``: only these graphs (``chain-1k``, ``residual-10k``, ``resnet50``, ...);
* ``--runs N``: exactly N runs per measurement (default: 5 for runs under
  0.5 s, 3 otherwise, and no more than fit in ``--budget`` seconds);
* ``--no-e2e``, ``--no-memory``: skip the xdsl-opt/mlir-opt and memory parts;
* ``--no-tvm019``: skip the comparison with TVM v0.19 on real Relay texts
  (``python -m bench.tvm019``; it skips itself where TVM 0.19 is not installed;
  ``--quick`` runs it on resnet50 once, ``--graphs`` on the models it names,
  ``--runs N`` sets its rounds);
* ``--tvm-at-100k``: also run TVM's counterparts (``FuseOpsByPattern``,
  ``InlinePrivateFunctions``, ``FuseOps`` with its untimed ``LegalizeOps``)
  on the 100k graphs; off by default, since they take several minutes there.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "bench" / "results.md"
WORK = ROOT / "build" / "bench"


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k/10k graphs and resnet18 only")
    parser.add_argument("--graphs", help="comma-separated graph names (default: all of the mode)")
    parser.add_argument("--runs", type=int, help="exactly this many runs per measurement")
    parser.add_argument(
        "--budget",
        type=float,
        default=12.0,
        help="seconds of runs per measurement, at most (at least one run)",
    )
    parser.add_argument("--no-e2e", action="store_true", help="skip xdsl-opt vs mlir-opt")
    parser.add_argument(
        "--no-memory", action="store_true", help="skip the import memory measurement"
    )
    parser.add_argument(
        "--no-tvm019", action="store_true", help="skip the comparison with TVM 0.19"
    )
    parser.add_argument(
        "--tvm-at-100k", action="store_true", help="all TVM counterparts on 100k graphs too"
    )
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown results file")
    return parser.parse_args(argv)


def _environment() -> str:
    import tvm
    import xdsl

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{datetime.datetime.now().isoformat(timespec='seconds')}; {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} CPUs, load average {load}; Python {platform.python_version()}, "
        f"xDSL {getattr(xdsl, '__version__', '?')}, apache-tvm {tvm.__version__}"
    )


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    started = time.perf_counter()

    from bench import graphs, report
    from bench.e2e import run as run_e2e
    from bench.suite import CheckFailed, GraphBench, Options
    from bench.tvm019.compare import MODELS as TVM019_MODELS
    from bench.tvm019.compare import section as tvm019_section
    from relay_xdsl.support.timing import Policy

    policy = Policy(budget=args.budget)
    if args.runs is not None:
        policy = Policy.exactly(args.runs)
    options = Options(policy=policy, tvm_at_100k=args.tvm_at_100k)
    names = args.graphs.split(",") if args.graphs else graphs.graph_names(args.quick)
    if args.graphs:
        tvm019_models = [name for name in names if name in TVM019_MODELS]
    else:
        tvm019_models = ["resnet50"] if args.quick else list(TVM019_MODELS)
    # gpt2 is a Relay text of the TVM-0.19 comparison only, not a graph of the suite.
    names = [name for name in names if name in graphs.MODELS or name not in TVM019_MODELS]
    e2e_graphs = (
        {"chain-1k", "resnet18"} if args.quick else {"chain-10k", "residual-10k", "resnet50"}
    )
    environment = _environment()
    print(
        f"# relay-xdsl benchmarks ({'quick' if args.quick else 'full'})\n{environment}\n",
        flush=True,
    )

    rows = []
    e2e_results = []
    failures: list[str] = []
    log = lambda line: print(line, flush=True)

    # Warm-up: the first graph would otherwise pay for lazy imports and caches.
    GraphBench(graphs.generated_graph("chain", 30), Options(Policy(1, 1)), lambda _: None).run()

    def bench_graph(graph: graphs.Graph) -> None:
        keep = not args.no_e2e and graph.name in e2e_graphs
        bench = GraphBench(graph, options, log, keep_fused=keep)
        try:
            rows.extend(bench.run())
        except CheckFailed as error:
            failures.append(str(error))
            log(f"CHECK FAILED: {error}")
            rows.extend(bench.rows.values())
        if bench.fused_module is not None:
            e = run_e2e(graph.name, bench.fused_module, bench.ops, WORK, policy)
            e2e_results.append(e)
            mlir = f"{e.mlir_opt.median:.3f} s" if e.mlir_opt else e.note
            log(
                f"  xdsl-opt .mlir {e.xdsl_opt.median:.2f} s, "
                f".relay {e.xdsl_opt_relay.median:.2f} s, mlir-opt {mlir}"
            )

    def build(name: str) -> graphs.Graph:
        start = time.perf_counter()
        graph = graphs.build(name)
        log(f"built {name} in {time.perf_counter() - start:.1f} s")
        return graph

    for name in [n for n in names if not graphs.is_model(n)]:
        bench_graph(build(name))
        gc.collect()

    # The memory measurement builds its model in a subprocess, which takes as
    # long as building ours: both run while nothing is being timed.
    memory_process = None
    if not args.no_memory:
        memory_process = subprocess.Popen(
            [sys.executable, "-m", "bench.memory", "resnet18" if args.quick else "resnet50"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    models = [build(name) for name in names if graphs.is_model(name)]
    memory = []
    if memory_process is not None:
        out, err = memory_process.communicate()
        if memory_process.returncode != 0:
            failures.append(f"memory measurement failed:\n{err[-2000:]}")
        else:
            memory.append(json.loads(out.strip().splitlines()[-1]))
    for graph in models:
        bench_graph(graph)

    tvm019 = None
    if tvm019_models and not args.no_tvm019:
        tvm019 = tvm019_section(
            runs=args.runs or (1 if args.quick else 5), models=tvm019_models, log=log
        )
        failures.extend(tvm019.failures)

    elapsed = time.perf_counter() - started
    sections = [
        f"# relay-xdsl benchmarks ({'quick' if args.quick else 'full'})",
        f"{environment}. Suite wall time {elapsed / 60:.1f} min.",
        (
            "Times are medians of n runs (n in brackets) of wall time; the CPU-time ratio "
            "beside each wall-time ratio is steadier on a shared machine. TVM runs the "
            "identical graph in the same process; our passes run on fresh copies made "
            "outside the timed region. Steps without a TVM counterpart (—): TVM 0.27 has "
            "no Relay text parser or printer, and the Relax import and export are the "
            "bridge itself. TVM's counterparts are not run on the 100k graphs unless "
            "--tvm-at-100k is given; there relay-defuse runs on relay-merge-composite's "
            "output."
        ),
        "## Steps\n\n" + report.results_table(rows),
    ]
    goals = report.goals_table(rows)
    if goals.count("\n") > 1:
        sections.append("## Goals (ours/TVM on resnet50 and the 10k graphs)\n\n" + goals)
    scaling = report.scaling_table(rows)
    if scaling.count("\n") > 1:
        sections.append("## Scaling (per-op cost, largest graph against smallest)\n\n" + scaling)
    if e2e_results:
        sections.append(
            "## End to end: xdsl-opt against mlir-opt\n\n" + report.e2e_table(e2e_results)
        )
    if memory:
        sections.append("## Memory: import_relax\n\n" + report.memory_table(memory))
    if tvm019 is not None:
        sections.append(tvm019.text)
    if failures:
        sections.append("## Check failures\n\n" + "\n".join(f"- {f}" for f in failures))
    text = "\n\n".join(sections) + "\n"
    print("\n" + text)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
