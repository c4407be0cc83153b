"""Send every lit fixture of some directories through upstream MLIR and back.

usage: fixtures_unchanged.py --roundtrip CMD --canonical CMD DIR...

For each ``.relay`` / ``.mlir`` fixture under DIR (``Output`` and ``Inputs``
excluded), with ``--split-input-file`` throughout so split tests travel chunk
by chunk:

    before = xdsl-opt F -t relay
    sent   = xdsl-opt F --print-op-generic --print-debuginfo    (.relay: the importer
                                                                  recorded the names)
             xdsl-opt F -t upstream-mlir                        (.mlir: names were only
                                                                  SSA names; record them)
    after  = sent | ROUNDTRIP -t relay
    seen_1 = sent | CANONICAL
    seen_2 = sent | ROUNDTRIP -t upstream-mlir | CANONICAL

ROUNDTRIP is lit's %UPSTREAM_ROUNDTRIP (mlir-opt-22, then xdsl-opt) and
CANONICAL its %MLIR_OPT. A fixture is *unchanged* when

1. ``after == before`` byte for byte: the same Relay text, names, spans,
   types, attributes and constants (metadata) included; and
2. ``seen_1 == seen_2`` byte for byte: upstream MLIR sees the same IR before
   and after the trip. That is generic MLIR equality up to what mlir-opt
   itself normalizes: SSA value numbering, attribute dictionary order and
   location aliases.

Upstream sorts attribute dictionaries. The Relay printer restores TVM's order
for the operators the dialect defines and for TVM's function attributes; the
keyword attributes of operators it does not define (``relay.op``) and other
function attributes come back sorted. A fixture whose Relay text differs only
in that order is reported as *unchanged up to attribute order*. Fixtures with
no program (a lit test that reads another file, or an expected error) are
listed as such. Valid IR that Relay text cannot express (a dialect test
with several results, say) is compared by 2. alone: *unchanged (MLIR only)*.
Anything else is *CHANGED*, with a diff.
"""

from __future__ import annotations

import argparse
import difflib
import subprocess
import sys
from pathlib import Path

SPLIT = "--split-input-file"
SEPARATOR = "// -----\n"


def run(command: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, shell=True, input=stdin, capture_output=True, text=True, check=False
    )


def attribute_order_normalized(relay_text: str) -> str:
    """`relay_text` with the attributes upstream sorts in sorted order."""
    from relay_xdsl.dialects import relay
    from relay_xdsl.exporters.relay_text import print_relay
    from relay_xdsl.importers.relay_text import parse_relay

    chunks = []
    for chunk in relay_text.split(SEPARATOR):
        module = parse_relay(chunk)
        for op in module.walk():
            if isinstance(op, relay.GenericOperatorOp) or op.name in ("relay.fn", "func.func"):
                op.attributes = dict(sorted(op.attributes.items()))
        chunks.append(print_relay(module))
    return SEPARATOR.join(chunks)


def check(fixture: Path, roundtrip: str, canonical: str, root: Path) -> tuple[str, str]:
    name = fixture.relative_to(root)
    before = run(f"xdsl-opt {SPLIT} {fixture} -t relay")
    relay_text = before.returncode == 0
    if not relay_text and run(f"xdsl-opt {SPLIT} {fixture}").returncode != 0:
        first = (before.stderr.strip().splitlines() or ["?"])[0]
        return "without a program", f"no program: {name} ({first})"
    producer = (
        "--print-op-generic --print-debuginfo" if fixture.suffix == ".relay" else "-t upstream-mlir"
    )
    sent = run(f"xdsl-opt {SPLIT} {fixture} {producer}")
    after = run(f"{roundtrip} -t {'relay' if relay_text else 'mlir'}", sent.stdout)
    seen_1 = run(canonical, sent.stdout)
    seen_2 = run(f"{roundtrip} -t upstream-mlir | {canonical}", sent.stdout)
    problems = [
        f"{what} failed:\n{result.stderr}"
        for what, result in (
            ("sending", sent),
            ("the round trip", after),
            ("mlir-opt", seen_1),
            ("the second trip", seen_2),
        )
        if result.returncode != 0
    ]
    if problems:
        return "changed", f"CHANGED: {name}\n" + "\n".join(problems)
    if seen_1.stdout != seen_2.stdout:
        return "changed", f"CHANGED: {name} (upstream sees different IR)\n" + _diff(
            seen_1.stdout, seen_2.stdout
        )
    if not relay_text:
        # Valid IR that Relay text cannot express (several results, ...):
        # upstream's view is all there is to compare.
        return "unchanged (MLIR only)", f"unchanged (MLIR only): {name}"
    if after.stdout == before.stdout:
        return "unchanged", f"unchanged: {name}"
    if after.stdout == attribute_order_normalized(before.stdout):
        return "unchanged up to attribute order", f"unchanged up to attribute order: {name}"
    return "changed", f"CHANGED: {name}\n" + _diff(before.stdout, after.stdout)


def _diff(a: str, b: str) -> str:
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "before", "after"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--roundtrip", required=True)
    parser.add_argument("--canonical", required=True)
    parser.add_argument("directories", nargs="+", type=Path)
    args = parser.parse_args()
    counts = dict.fromkeys(
        (
            "unchanged",
            "unchanged up to attribute order",
            "unchanged (MLIR only)",
            "changed",
            "without a program",
        ),
        0,
    )
    total = 0
    for directory in args.directories:
        directory = directory.resolve()
        fixtures = sorted(
            path
            for path in directory.rglob("*")
            if path.suffix in (".relay", ".mlir")
            and not {"Output", "Inputs"} & set(path.relative_to(directory).parts)
        )
        for fixture in fixtures:
            outcome, report = check(fixture, args.roundtrip, args.canonical, directory.parent)
            counts[outcome] += 1
            total += 1
            print(report, flush=True)
    print(f"{total} fixtures: " + ", ".join(f"{n} {what}" for what, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
