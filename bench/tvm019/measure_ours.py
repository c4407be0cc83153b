"""Time relay-xdsl's Python API on one Relay text; print the times as JSON.

The counterpart of measure_tvm.py, in relay-xdsl's venv:

    python -m bench.tvm019.measure_ours time TEXT [--gc]
    python -m bench.tvm019.measure_ours print TEXT OUT_PREFIX
    python -m bench.tvm019.measure_ours profile TEXT STEP [--top N] [--sort cumulative]

``time`` runs every step once untimed (warm-up: lazy imports), then, with
relay-xdsl's memo tables emptied and garbage collected before each, once
timed, and prints ``{"steps": {step: {"wall": s, "cpu": s}}, "ops": n,
"groups": n}``:

* ``parse``: ``parse_relay(text)`` (the types of the weights, printed as
  ``meta[relay.Constant][i]`` without values, are inferred from their uses);
* ``fuse-ops``: ``RelayFuseOpsPass()`` (``fuse-opt-level=2``) on a copy of the
  parsed module, made untimed;
* ``defuse``: ``RelayDefusePass()`` on a copy of the fused module;
* ``print``: ``print_relay`` of the parsed module.

Each step runs with the cyclic garbage collector paused, as relay-xdsl's
commands run them (support/gc_pause.py); ``--gc`` leaves it on, as a
library call does.

``print`` writes relay-xdsl's printout of the text and of its relay-fuse-ops
result (``OUT_PREFIX.relay``, ``OUT_PREFIX.fused.relay``), for measure_tvm.py's
round trip. ``profile`` prints cProfile's top functions of one step, by own
(``--sort tottime``, the default) or cumulative CPU time; cProfile's own cost
per call inflates the total several times, so read it as proportions.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import pstats
import sys
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.support.depth import run_deep
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.support.memo import clear_memos
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

STEPS = ("parse", "fuse-ops", "defuse", "print")


def fused(module: ModuleOp) -> ModuleOp:
    RelayFuseOpsPass().apply(Context(), module)
    return module


def defused(module: ModuleOp) -> ModuleOp:
    RelayDefusePass().apply(Context(), module)
    return module


def step_work(text: str, source: str) -> dict[str, tuple[Callable[[Any], Any], Callable[[], Any]]]:
    """Each step's work and a maker of its fresh input (the inputs are made once)."""
    module = parse_relay(text, source)
    fused_module = fused(module.clone())
    return {
        "parse": (lambda t: parse_relay(t, source), lambda: text),
        "fuse-ops": (fused, module.clone),
        "defuse": (defused, fused_module.clone),
        "print": (print_relay, lambda: module),
    }


def counts(module: ModuleOp) -> tuple[int, int]:
    """Operator calls, and ``relay.fn`` ops marked ``Primitive``, in `module`."""
    ops = groups = 0
    for op in module.walk():
        if isinstance(op, relay.OperatorOp):
            ops += 1
        elif isinstance(op, relay.FnOp) and "Primitive" in op.attributes:
            groups += 1
    return ops, groups


def time_steps(path: str, pause_gc: bool) -> dict[str, object]:
    text = Path(path).read_text()
    work = step_work(text, path)
    for run, fresh in work.values():  # warm-up
        run(fresh())
    times: dict[str, dict[str, float]] = {}
    outputs: dict[str, Any] = {}
    for step, (run, fresh) in work.items():
        argument = fresh()
        clear_memos()
        gc.collect()
        with gc_paused() if pause_gc else nullcontext():
            wall, cpu = time.perf_counter(), time.process_time()
            outputs[step] = run(argument)
            times[step] = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}
    ops, _ = counts(outputs["parse"])
    _, groups = counts(outputs["fuse-ops"])
    restores = print_relay(outputs["defuse"]) == print_relay(outputs["parse"])
    return {"steps": times, "ops": ops, "groups": groups, "defuse_restores": restores}


def write_printouts(path: str, prefix: str) -> None:
    module = parse_relay(Path(path).read_text(), path)
    Path(f"{prefix}.relay").write_text(print_relay(module))
    Path(f"{prefix}.fused.relay").write_text(print_relay(fused(module.clone())))


def profile(path: str, step: str, top: int, sort: str = "tottime") -> str:
    run, fresh = step_work(Path(path).read_text(), path)[step]
    run(fresh())
    argument = fresh()
    clear_memos()
    gc.collect()
    profiler = cProfile.Profile(time.process_time)  # CPU time: the machine may be loaded
    with gc_paused():
        # As the commands run it, with room for deep nesting (run_deep); cProfile
        # sees only its own thread, so it starts inside the worker.
        run_deep(profiler.runcall, run, argument)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(sort).print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tvm019.measure_ours")
    parser.add_argument("command", choices=("time", "print", "profile"))
    parser.add_argument("text")
    parser.add_argument("extra", nargs="?", help="OUT_PREFIX for print, STEP for profile")
    parser.add_argument("--gc", action="store_true", help="leave the garbage collector on")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="tottime", choices=("tottime", "cumulative"))
    args = parser.parse_args(argv)
    if args.command == "time":
        print(json.dumps(time_steps(args.text, pause_gc=not args.gc)))
    elif args.command == "print":
        write_printouts(args.text, args.extra)
    else:
        if args.extra not in STEPS:
            parser.error(f"STEP must be one of {', '.join(STEPS)}")
        print(profile(args.text, args.extra, args.top, args.sort))
    return 0


if __name__ == "__main__":
    sys.exit(main())
