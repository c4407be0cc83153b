"""The results as Markdown tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bench.e2e import EndToEnd
from bench.suite import GOALS, STEPS, TVM_COUNTERPARTS, Row
from relay_xdsl.support.timing import Timing

SCALING_GOAL = 1.5
GOAL_GRAPHS = ("resnet50", "chain-10k", "residual-10k")


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def ms(seconds: float) -> str:
    value = seconds * 1e3
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def rate(ops: int, seconds: float) -> str:
    per_second = ops / seconds
    if per_second >= 1e6:
        return f"{per_second / 1e6:.2f}M"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.1f}k"
    return f"{per_second:.0f}"


def _met(value: float, goal: float) -> str:
    return "yes" if value <= goal else "**no**"


def results_table(rows: Sequence[Row]) -> str:
    body = []
    for row in rows:
        counterpart = TVM_COUNTERPARTS.get(row.step, "none")
        if row.tvm is not None:
            tvm = f"{ms(row.tvm.median)} (n={row.tvm.runs})"
            ratio = f"{row.ratio:.3f}"
            cpu_ratio = f"{row.cpu_ratio:.3f}"
        else:
            tvm = row.tvm_note or "—"
            ratio = cpu_ratio = "—"
        goal = GOALS.get(row.step)
        body.append(
            [
                row.graph,
                row.step,
                str(row.ops),
                f"{ms(row.ours.median)} (n={row.ours.runs})",
                counterpart,
                tvm,
                ratio,
                cpu_ratio,
                f"≤{goal}" if goal is not None else "",
                rate(row.ops, row.ours.median),
                "; ".join(row.notes),
            ]
        )
    header = [
        "graph",
        "step",
        "ops",
        "ours ms",
        "TVM counterpart",
        "TVM ms",
        "ours/TVM",
        "ours/TVM (CPU time)",
        "goal",
        "ops/s (ours)",
        "notes",
    ]
    return table(header, body)


def goals_table(rows: Sequence[Row]) -> str:
    by_key = {(r.graph, r.step): r for r in rows}
    body = []
    for step, goal in GOALS.items():
        for graph in GOAL_GRAPHS:
            row = by_key.get((graph, step))
            if row is None or row.ratio is None:
                continue
            body.append(
                [
                    step,
                    graph,
                    f"{row.ratio:.3f}",
                    f"{row.cpu_ratio:.3f}",
                    f"≤{goal}",
                    _met(row.ratio, goal),
                ]
            )
    return table(["pass", "graph", "ours/TVM", "ours/TVM (CPU time)", "goal", "met (wall)"], body)


def scaling_table(rows: Sequence[Row]) -> str:
    """Per-op cost on the largest generated graph against the smallest, per kind and step."""
    by_key = {(r.graph, r.step): r for r in rows}
    body = []
    for kind in ("chain", "residual"):
        sizes = [s for s in ("1k", "10k", "100k") if (f"{kind}-{s}", STEPS[0]) in by_key]
        if len(sizes) < 2:
            continue
        small, large = sizes[0], sizes[-1]
        for step in STEPS:
            a, b = by_key.get((f"{kind}-{small}", step)), by_key.get((f"{kind}-{large}", step))
            if a is None or b is None:
                continue
            per_op = [r.ours.median / r.ops * 1e6 for r in (a, b)]
            ratio = per_op[1] / per_op[0]
            cpu_ratio = (b.ours.cpu_median / b.ops) / (a.ours.cpu_median / a.ops)
            middle = by_key.get((f"{kind}-10k", step)) if len(sizes) == 3 else None
            mid = f"{middle.ours.median / middle.ops * 1e6:.1f}" if middle else "—"
            body.append(
                [
                    kind,
                    step,
                    f"{per_op[0]:.1f}",
                    mid,
                    f"{per_op[1]:.1f}",
                    f"{large}/{small}",
                    f"{ratio:.2f}",
                    f"{cpu_ratio:.2f}",
                    _met(ratio, SCALING_GOAL),
                ]
            )
    header = [
        "graph kind",
        "step",
        "µs/op smallest",
        "µs/op 10k",
        "µs/op largest",
        "sizes",
        "per-op ratio",
        "per-op ratio (CPU time)",
        f"≤{SCALING_GOAL}× (wall)",
    ]
    return table(header, body)


def _e2e_ratios(ours: Timing, mlir_opt: Timing | None) -> str:
    """Our time over mlir-opt's: wall / CPU."""
    if mlir_opt is None:
        return "—"
    return f"{ours.median / mlir_opt.median:.1f} / {ours.cpu_median / mlir_opt.cpu_median:.1f}"


def _e2e_phases(seconds: dict[str, float]) -> str:
    return " / ".join(ms(seconds[p]) for p in ("parse", "verify", "relay-defuse", "print"))


def e2e_table(results: Sequence[EndToEnd]) -> str:
    body = []
    for e in results:
        body.append(
            [
                e.graph,
                str(e.ops),
                f"{ms(e.xdsl_opt.median)} (n={e.xdsl_opt.runs})",
                f"{ms(e.xdsl_opt_relay.median)} (n={e.xdsl_opt_relay.runs})",
                f"{ms(e.mlir_opt.median)} (n={e.mlir_opt.runs})" if e.mlir_opt else e.note,
                _e2e_ratios(e.xdsl_opt, e.mlir_opt),
                _e2e_ratios(e.xdsl_opt_relay, e.mlir_opt),
                _met(max(e.xdsl_opt.median, e.xdsl_opt_relay.median) / e.mlir_opt.median, 5)
                if e.mlir_opt
                else "—",
                ms(e.startup.median),
                _e2e_phases(e.phases),
                _e2e_phases(e.relay_phases),
                f"{e.pass_share * 100:.1f}%",
            ]
        )
    header = [
        "graph",
        "ops",
        "xdsl-opt .mlir ms",
        "xdsl-opt .relay ms",
        "mlir-opt-22 --inline ms",
        ".mlir/mlir-opt (wall / CPU)",
        ".relay/mlir-opt (wall / CPU)",
        "≤5× (wall)",
        "xdsl-opt start-up ms",
        "in-process .mlir parse / verify×2 / relay-defuse / print ms",
        "in-process .relay parse / verify×2 / relay-defuse / print ms",
        "relay-defuse share of .mlir wall",
    ]
    return table(header, body)


def memory_table(results: Sequence[dict]) -> str:
    body = []
    for m in results:
        weights = m["weight_bytes"]
        ratio = m["peak_increase"] / weights
        body.append(
            [
                m["model"],
                f"{weights / 2**20:.1f}",
                f"{m['baseline_rss'] / 2**20:.0f}",
                f"{m['peak_increase'] / 2**20:.1f}" + ("" if m["exact_peak"] else " (ru_maxrss)"),
                f"{m['retained'] / 2**20:.1f}",
                f"{m['traced_peak'] / 2**20:.1f}",
                f"{ratio:.2f}",
                _met(ratio, 1.5),
                f"{m['relay_text_bytes'] / 2**20:.1f}",
                f"{m['relay_write_peak'] / 2**20:.1f}",
                f"{m['relay_print_peak'] / 2**20:.1f}",
            ]
        )
    header = [
        "model",
        "weights MiB",
        "baseline RSS MiB",
        "peak RSS increase MiB",
        "retained MiB",
        "tracemalloc peak MiB",
        "peak/weights",
        "≤1.5×",
        "Relay text MiB",
        "peak writing it MiB",
        "peak printing it to a string MiB",
    ]
    return table(header, body)
