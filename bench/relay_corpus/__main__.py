"""``python -m bench.relay_corpus``: how much of TVM's own Relay text relay-xdsl reads.

For every text of the corpus extracted from TVM v0.19's test suite
(``tests/relay_corpus/tvm_v0.19``, see ``bench/relay_corpus/extract.py``) it
measures whether the text imports, verifies, prints to a fixpoint and defuses
(``bench/relay_corpus/check.py``); a text TVM's test expects to be rejected
passes when the importer gives a clean ``file:line:col: error:``. Expression
texts (TVM's ``parse_expr``) go through ``parse_relay`` like modules: it reads a
bare expression as the body of ``@main``.

Prints a summary and the failing texts grouped by reason, and writes them to
``bench/relay_corpus.md`` (``--output``). ``--update-xfail`` also rewrites
``tests/filecheck/relay_corpus/xfail.txt``, the lit tests expected to fail, from
this run.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.relay_corpus.check import STAGES, Outcome, check_text, expected_outcome
from bench.relay_corpus.tvm_printed import PRINTED, golden_texts, read_xfail

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "relay_corpus" / "tvm_v0.19"
DEFAULT_OUTPUT = ROOT / "bench" / "relay_corpus.md"
LIT_DIR = ROOT / "tests" / "filecheck" / "relay_corpus"
# The texts that are lit tests (tests/filecheck/relay_corpus/lit.local.cfg).
LIT_FILES = ("tests/python/relay/test_ir_parser.py", "tests/python/relay/test_ir_text_printer.py")
TIMEOUT = 120  # seconds per text
READBACK = ROOT / "tests" / "relay_corpus" / "tvm_readback.json"


class _Timeout(Exception):
    pass


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def reason_key(outcome: Outcome) -> str:
    """The failure message with names and numbers blanked, so that alike failures group."""
    message = outcome.message
    message = re.sub(r"%[\w.]+", "%…", message)
    message = re.sub(r"@[\w.]+", "@…", message)
    message = re.sub(r"'[^']*'", "'…'", message)
    message = re.sub(r"Tensor\[\(.*?\), \w+\]", "Tensor[…]", message)
    message = re.sub(r"\b(u?int|float|bool)\d*(x\d+)?\b", "<dtype>", message)
    message = re.sub(r"\b\d+\b", "N", message)
    return f"{outcome.stage}: {message}"


def run(entries: list[dict[str, Any]], corpus: Path) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    signal.signal(signal.SIGALRM, _on_alarm)
    for entry in entries:
        path = corpus / f"{entry['name']}.relay"
        signal.alarm(TIMEOUT)
        try:
            outcome = check_text(path.read_text(), path.name, expected_outcome(entry))
        except _Timeout:
            outcome = Outcome([], "timeout", f"no answer in {TIMEOUT} s")
        except RecursionError:
            outcome = Outcome([], "crash", "RecursionError")
        finally:
            signal.alarm(0)
        outcomes[entry["name"]] = outcome
    return outcomes


def _percent(n: int, total: int) -> str:
    return f"{100 * n / total:.1f} %" if total else "-"


def report(
    entries: list[dict[str, Any]], outcomes: dict[str, Outcome], skipped: list[dict[str, Any]]
) -> str:
    total = len(entries)
    parse = [e for e in entries if expected_outcome(e) == "parse"]
    errors = [e for e in entries if e["expect"] == "error"]
    alone = [e for e in entries if "alone" in e]
    lines = [
        "# TVM v0.19's Relay texts through relay-xdsl",
        "",
        "`python -m bench.relay_corpus` on the corpus of `tests/relay_corpus/tvm_v0.19`",
        "(every literal Relay text of TVM v0.19's test suite, see `bench/relay_corpus/extract.py`).",
        "A text passes when it imports, verifies, prints to a fixpoint",
        "(`print(parse(print(x))) == print(x)`) and defuses; a text TVM's test expects",
        "to be rejected passes when the importer gives a clean `file:line:col: error:`.",
        "So does a text that TVM's test parses with an `init_module` defining global",
        "functions the text calls: TVM's parser rejects the text alone (an undefined",
        "global), and the corpus holds the text alone.",
        "",
        (
            f"{total} texts: {len(parse)} expected to parse, {len(errors)} expected to fail, "
            f"{len(alone)} rejected by TVM without their test's init_module."
        ),
        "",
        "| measure | texts | share |",
        "|---|---:|---:|",
    ]
    for stage in STAGES:
        n = sum(stage in outcomes[e["name"]].passed for e in parse)
        label = {"import": "imports", "verify": "verifies", "fixpoint": "prints to a fixpoint"}
        lines.append(
            f"| {label.get(stage, 'defuses')} (of {len(parse)}) | {n} | {_percent(n, len(parse))} |"
        )
    clean = sum(outcomes[e["name"]].ok for e in errors)
    lines.append(
        f"| clean error where TVM fails (of {len(errors)}) | {clean} | {_percent(clean, len(errors))} |"
    )
    clean = sum(outcomes[e["name"]].ok for e in alone)
    lines.append(
        f"| clean error where TVM fails without init_module (of {len(alone)}) | {clean} "
        f"| {_percent(clean, len(alone))} |"
    )
    passing = sum(outcomes[e["name"]].ok for e in entries)
    lines.append(f"| **passes (of {total})** | **{passing}** | **{_percent(passing, total)}** |")

    by_file: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in entries:
        by_file[e["file"]].append(e)
    lines += ["", "## By test file", "", "| file | texts | pass |", "|---|---:|---:|"]
    for file, group in sorted(by_file.items()):
        n = sum(outcomes[e["name"]].ok for e in group)
        lines.append(f"| `{file.removeprefix('tests/python/')}` | {len(group)} | {n} |")

    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in entries:
        if not outcomes[e["name"]].ok:
            groups[reason_key(outcomes[e["name"]])].append(e)
    lines += ["", "## Failing texts by reason", ""]
    lines += ["| texts | stage: first error line (names and numbers blanked) | example |"]
    lines += ["|---:|---|---|"]
    for key, group in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        example = outcomes[group[0]["name"]].message.replace("|", "\\|")
        key = key.replace("|", "\\|")
        lines.append(f"| {len(group)} | {key} | `{group[0]['name']}`: {example} |")
    lines += ["", "## Every failing text", ""]
    lines += ["TVM: what TVM's test expects of its parser, and the Python-side context it passes"]
    lines += ["(`init_meta_table`, `init_module`) that the text alone does not carry.", ""]
    lines += ["| text | TVM | stage | first error line |"]
    lines += ["|---|---|---|---|"]
    for e in entries:
        outcome = outcomes[e["name"]]
        if not outcome.ok:
            message = outcome.message.replace("|", "\\|")
            tvm = e["expect"] + "".join(f", with {c}" for c in e.get("context", []))
            lines.append(f"| `{e['name']}` | {tvm} | {outcome.stage} | {message} |")
    if alone:
        lines += ["", "## Texts TVM rejects without their test's init_module", ""]
        lines += [
            "They count as passing when the importer rejects them with a clean error too.",
            "",
        ]
        lines += ["| text | why TVM rejects the text alone | passes |", "|---|---|---|"]
        for e in alone:
            verdict = "yes" if outcomes[e["name"]].ok else "no"
            lines.append(f"| `{e['name']}` | {e['alone']} | {verdict} |")
    lines += against_tvm()
    if skipped:
        lines += ["", "## Parser calls not in the corpus", ""]
        lines += [
            "Their text is computed at run time (`mod.astext()`, a parsed module, joined lines).",
            "",
        ]
        lines += ["| file | line | function | argument |", "|---|---:|---|---|"]
        for s in skipped:
            reason = s["reason"].removeprefix("not a literal: ").replace("|", "\\|")
            file = s["file"].removeprefix("tests/python/")
            lines.append(f"| `{file}` | {s['line']} | `{s['function']}` | `{reason}` |")
    return "\n".join(lines) + "\n"


def against_tvm() -> list[str]:
    """The section on TVM v0.19 itself, from the committed golden results (TVM is not run)."""
    if not READBACK.exists():
        return []
    golden = {p.name.removesuffix(".relay") for p in PRINTED.glob("*.relay")}
    passes = set(golden_texts()) - golden
    differing = set(read_xfail())
    readback = json.loads(READBACK.read_text())
    texts: dict[str, dict[str, Any]] = readback["texts"]
    lines = ["", "## Against TVM v0.19 itself", ""]
    lines += [
        "From the golden files TVM v0.19 wrote (`bench/relay_corpus/tvm_golden.py`,",
        "`bench/relay_corpus/tvm_readback.py`; CI cannot run TVM v0.19, so they are committed).",
        "",
        f"- TVM's printout after `InferType`: {len(golden)} golden texts",
        "  (`tests/relay_corpus/tvm_v0.19_printed`; TVM does not parse the other texts",
        "  without the `init_meta_table` of their test). Imported and printed by relay-xdsl,",
        f"  **{len(golden - differing)}** come out exactly as TVM printed them",
        "  (`tests/exporters/test_relay_text_tvm_order.py`; the others, with their first",
        "  difference, in `tests/relay_corpus/tvm_printed_xfail.txt`).",
        f"- TVM's `FuseOps` and `DefuseOps` of those: {len(passes)} golden texts",
        (
            f"  (`tests/relay_corpus/tvm_v0.19_fused`), of which **{len(passes - differing)}**"
            " come out exactly."
        ),
        "- Read back: TVM v0.19 parses the original text and relay-xdsl's printout of it and",
        "  compares them with `tvm.ir.structural_equal(map_free_vars=True)` after `InferType`",
        f"  (`tests/relay_corpus/tvm_readback.json`), over {len(texts)} texts:",
        "",
        "| result | texts |",
        "|---|---:|",
    ]
    lines += [f"| {result} | {n} |" for result, n in readback["counts"].items()]
    typed = sum(e["result"] == "equal" and e.get("typed", False) for e in texts.values())
    stand_in = sum("meta_table" in e for e in texts.values())
    lines += [
        "",
        f"{typed} of the equal texts are compared after `InferType` (it fails on one side of",
        "the others). TVM read a text that refers to `meta[...]` without a `#[metadata]`",
        f"section with a stand-in for its test's `init_meta_table` ({stand_in} texts, see",
        "`tvm_readback.meta_table`).",
    ]
    seed = ", ".join(f"{name}: {entry['result']}" for name, entry in readback["seed"].items())
    lines += ["", f"The seed (`examples/seed/*.relay`): {seed}.", ""]
    lines += ["| text | result | TVM's first error or mismatch |", "|---|---|---|"]
    for name, entry in texts.items():
        if entry["result"] in ("TVM rejects ours", "not equal", "crash"):
            detail = entry.get("error") or entry.get("mismatch") or entry.get("crash", "")
            if entry.get("tvm_reads_its_own_printout") not in (None, True):
                detail += " (TVM does not read its own printout of it either)"
            lines.append(f"| `{name}` | {entry['result']} | {detail.replace('|', '/')} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.relay_corpus", description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--only", help="only the texts whose name contains this")
    parser.add_argument(
        "--update-xfail", action="store_true", help="rewrite the lit tests' XFAIL list"
    )
    args = parser.parse_args(argv)

    index = json.loads((args.corpus / "index.json").read_text())
    entries = index["texts"]
    if args.only:
        entries = [e for e in entries if args.only in e["name"]]
    start = time.perf_counter()
    outcomes = run(entries, args.corpus)
    text = report(entries, outcomes, [] if args.only else index["skipped"])
    print(text)
    print(f"{len(entries)} texts in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    if not args.only:
        args.output.write_text(text)
    if args.update_xfail:
        failing = [
            e["name"] for e in entries if e["file"] in LIT_FILES and not outcomes[e["name"]].ok
        ]
        (LIT_DIR / "xfail.txt").write_text(
            "# lit tests of tests/filecheck/relay_corpus expected to fail, one name a line.\n"
            "# Generated by `python -m bench.relay_corpus --update-xfail`: do not edit.\n"
            + "".join(f"{name}\n" for name in failing)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
