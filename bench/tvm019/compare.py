"""relay-xdsl against TVM v0.19's C++ on real Relay texts (``python -m bench.tvm019``).

Each round runs, per model, one process of TVM 0.19 (measure_tvm.py under
``relay_py``) and one of relay-xdsl (measure_ours.py), alternately (which
goes first alternates too), each timing every step once after a warm-up.
The figures are medians over the rounds, per side; the ratios are ours/TVM
of those medians. Before timing, relay-xdsl's printouts of each text and of
its relay-fuse-ops result are read back by TVM 0.19 and compared with TVM's
own parse and ``FuseOps`` (``tvm.ir.structural_equal``).

TVM 0.19 is found at ``$RELAY_TVM019`` or ``/work/tvm019/relay_py`` (a
wrapper that runs Python with TVM 0.19 on its path); without it the run is
skipped with a message and exit status 0. It writes its section of
``bench/results.md`` (``--output``), replacing the previous one.

Options: ``--runs N`` (default 5), ``--models a,b`` (default: every text in
bench/tvm019/texts/), ``--gc`` (our steps with the garbage collector on),
``--profile`` (also cProfile's top functions of each of our steps, printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = ROOT / "bench" / "tvm019"
TEXTS = HERE / "texts"
WORK = ROOT / "build" / "tvm019"
DEFAULT_OUTPUT = ROOT / "bench" / "results.md"
DEFAULT_RELAY_PY = Path("/work/tvm019/relay_py")
MODELS = ("resnet50", "mobilenet_v2", "gpt2")
STEPS = ("parse", "fuse-ops", "defuse", "print")
TVM_STEPS = {
    "parse": "relay.parse (+ InferType)",
    "fuse-ops": "FuseOps(fuse_opt_level=2)",
    "defuse": "DefuseOps",
    "print": "astext(show_meta_data=False)",
}
HEADING = "## TVM 0.19: real Relay texts, separate processes"
GOAL = 0.5


def relay_py() -> Path | None:
    """TVM 0.19's Python wrapper, if there is one."""
    configured = os.environ.get("RELAY_TVM019")
    path = Path(configured) if configured else DEFAULT_RELAY_PY
    return path if path.is_file() and os.access(path, os.X_OK) else None


@dataclass
class Side:
    runs: list[dict[str, object]] = field(default_factory=list)

    def median(self, step: str, clock: str) -> float:
        return statistics.median(run["steps"][step][clock] for run in self.runs)  # type: ignore[index]

    def first(self, key: str) -> object:
        return self.runs[0][key] if self.runs else None


def _json_output(command: list[str]) -> dict[str, object]:
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _ours(*args: str) -> list[str]:
    return [sys.executable, "-m", "bench.tvm019.measure_ours", *args]


def _tvm(python: Path, *args: str) -> list[str]:
    return [str(python), str(HERE / "measure_tvm.py"), *args]


def round_trip(python: Path, model: str) -> dict[str, object]:
    """Whether TVM 0.19 reads our printouts back as its own parse and FuseOps."""
    WORK.mkdir(parents=True, exist_ok=True)
    prefix = WORK / f"{model}.ours"
    text = TEXTS / f"{model}.relay"
    subprocess.run(_ours("print", str(text), str(prefix)), cwd=ROOT, check=True)
    return _json_output(
        _tvm(python, "roundtrip", str(text), f"{prefix}.relay", f"{prefix}.fused.relay")
    )


def measure(
    python: Path, models: list[str], runs: int, gc_on: bool, log: Callable[[str], None]
) -> dict[str, tuple[Side, Side]]:
    sides = {model: (Side(), Side()) for model in models}
    for run in range(runs):
        for model in models:
            text = str(TEXTS / f"{model}.relay")
            ours, tvm = sides[model]
            commands = [
                (tvm, _tvm(python, "time", text)),
                (ours, _ours("time", text, *(["--gc"] if gc_on else []))),
            ]
            for side, command in commands if run % 2 == 0 else commands[::-1]:
                side.runs.append(_json_output(command))
            log(
                f"  round {run + 1}/{runs} {model}: "
                + ", ".join(
                    f"{step} {ours.runs[-1]['steps'][step]['cpu'] * 1e3:.1f}/"  # type: ignore[index]
                    f"{tvm.runs[-1]['steps'][step]['cpu'] * 1e3:.1f} ms"  # type: ignore[index]
                    for step in STEPS
                )
                + " (CPU, ours/TVM)"
            )
    return sides


def _ms(seconds: float) -> str:
    ms = seconds * 1e3
    return f"{ms:,.1f}" if ms < 100 else f"{ms:,.0f}"


def table(sides: dict[str, tuple[Side, Side]]) -> str:
    rows = [
        (
            "| model | ops | step | TVM 0.19 | ours ms (CPU) | TVM ms (CPU) | ours/TVM (CPU) "
            "| ours ms (wall) | TVM ms (wall) | ours/TVM (wall) | goal ≤0.5 (CPU) |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for model, (ours, tvm) in sides.items():
        for step in STEPS:
            cells = [model, str(tvm.first("ops")), step, TVM_STEPS[step]]
            for clock in ("cpu", "wall"):
                mine, theirs = ours.median(step, clock), tvm.median(step, clock)
                cells += [_ms(mine), _ms(theirs), f"{mine / theirs:.2f}"]
            cells.append(
                "yes" if ours.median(step, "cpu") <= GOAL * tvm.median(step, "cpu") else "no"
            )
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def checks(sides: dict[str, tuple[Side, Side]], trips: dict[str, dict[str, object]]) -> list[str]:
    lines = []
    for model, (ours, tvm) in sides.items():
        groups, theirs = ours.first("groups"), tvm.first("groups")
        same = "the same as" if groups == theirs else "NOT the same as"
        lines.append(
            f"- {model}: {ours.first('ops')} operator calls in our import, {tvm.first('ops')} in "
            f"TVM's; relay-fuse-ops makes {groups} groups, {same} FuseOps' {theirs}; defusing "
            f"restores the input: ours {ours.first('defuse_restores')}, "
            f"TVM {tvm.first('defuse_restores')}."
        )
    for model, verdict in trips.items():
        lines.append(
            f"- {model} round trip into TVM 0.19: our printout parses to TVM's own parse: "
            f"{verdict.get('parse')}; our relay-fuse-ops printout to TVM's FuseOps: "
            f"{verdict.get('fused')}."
        )
    return lines


@dataclass
class Report:
    text: str
    """The TVM-0.19 section of results.md, or a one-line note when TVM 0.19 is absent."""
    failures: list[str] = field(default_factory=list)
    """Failed checks: different groups, or a defuse that does not restore its input."""


def section(
    runs: int = 5,
    models: list[str] | None = None,
    gc_on: bool = False,
    log: Callable[[str], None] = print,
) -> Report:
    """Measure both sides on `models` (default: all texts), `runs` rounds."""
    python = relay_py()
    if python is None:
        where = os.environ.get("RELAY_TVM019") or DEFAULT_RELAY_PY
        note = f"TVM 0.19 not found ({where}; set RELAY_TVM019 to its relay_py): skipped."
        log(note)
        return Report(f"{HEADING}\n\n{note}")
    models = [m for m in models or MODELS if (TEXTS / f"{m}.relay").exists()]
    load_before = os.getloadavg()
    log(f"TVM 0.19 at {python}: {', '.join(models)}, {runs} rounds")
    trips = {model: round_trip(python, model) for model in models}
    sides = measure(python, models, runs, gc_on, log)
    load_after = os.getloadavg()
    loads = " → ".join(", ".join(f"{x:.1f}" for x in load) for load in (load_before, load_after))
    text = "\n\n".join(
        [
            HEADING,
            (
                f"Medians of {runs} runs, each in its own process, TVM's and ours alternately; "
                f"{os.cpu_count()} CPUs, load average {loads} (1, 5, 15 min, before → after). "
                "CPU time is the process's own; on a loaded machine wall time mostly measures "
                "waiting for a core. Our steps run with the garbage collector "
                f"{'on' if gc_on else 'paused, as the commands run them'}. Texts: "
                "bench/tvm019/texts/ (see bench/README.md)."
            ),
            table(sides),
            "\n".join(checks(sides, trips)),
        ]
    )
    failures = [
        f"{model}: {what}"
        for model, (ours, tvm) in sides.items()
        for what, failed in (
            (
                "relay-fuse-ops' groups are not FuseOps'",
                ours.first("groups") != tvm.first("groups"),
            ),
            ("relay-defuse does not restore the input", ours.first("defuse_restores") is not True),
        )
        if failed
    ]
    return Report(text, failures)


def replace_section(document: str, text: str) -> str:
    """`document` with its TVM-0.19 section replaced by `text` (added before
    the check failures, or at the end, if it has none)."""
    start = document.find(HEADING)
    if start >= 0:
        end = document.find("\n## ", start + len(HEADING))
        rest = document[end + 1 :] if end >= 0 else ""
        return document[:start] + text + "\n" + ("\n" + rest if rest else "")
    failures = document.find("## Check failures")
    if failures >= 0:
        return document[:failures] + text + "\n\n" + document[failures:]
    return document.rstrip("\n") + "\n\n" + text + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.tvm019", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--models", help=f"comma-separated, from {', '.join(MODELS)}")
    parser.add_argument("--gc", action="store_true", help="our steps with the collector on")
    parser.add_argument("--profile", action="store_true", help="cProfile our steps too")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    models = args.models.split(",") if args.models else None
    report = section(args.runs, models, args.gc, lambda line: print(line, flush=True))
    print("\n" + report.text)
    for failure in report.failures:
        print(f"CHECK FAILED: {failure}")
    if relay_py() is None:
        return 0
    document = args.output.read_text() if args.output.exists() else ""
    args.output.write_text(replace_section(document, report.text))
    if args.profile:
        for model in models or MODELS:
            for step in STEPS:
                print(f"\n### {model} {step}\n", flush=True)
                command = _ours("profile", str(TEXTS / f"{model}.relay"), step)
                subprocess.run(command, cwd=ROOT, check=True)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
