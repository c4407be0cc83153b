"""Does TVM v0.19 read relay-xdsl's printout back as the program it printed?

    python -m bench.relay_corpus.tvm_readback [--relay-py PATH]     # both halves
    python -m bench.relay_corpus.tvm_readback ours DIR              # relay-xdsl's venv
    /work/tvm019/relay_py -m bench.relay_corpus.tvm_readback tvm DIR

Two halves, as relay-xdsl and TVM v0.19 (with Relay) live in different Pythons:

``ours`` imports every corpus text TVM's test expects to parse
(``tests/relay_corpus/tvm_v0.19``) and the seed's three texts
(``examples/seed/original.relay``, ``fused.relay``, ``defused.relay``) with
``parse_relay``, prints them with ``print_relay`` into ``DIR`` and records
the texts it cannot import in ``DIR/ours.json``.

``tvm`` (TVM v0.19, tvm and the standard library only) parses, per text, the
original as TVM's test did (``bench/relay_corpus/tvm_golden.parse``) and our
printout as a module, runs ``InferType`` on both (the typed modules are
compared when it succeeds on both, the parsed ones otherwise) and compares them
with ``tvm.ir.structural_equal(map_free_vars=True)``. Each text is run in a
forked child, since TVM segfaults on a few. It writes
``tests/relay_corpus/tvm_readback.json``: per text ``result`` (``equal``,
``not equal`` with TVM's first structural mismatch, ``TVM rejects ours`` with
TVM's first error line and whether TVM reads its own golden printout of the
text, ``tests/relay_corpus/tvm_v0.19_printed``, back, ``TVM rejects the original``, ``we reject the
original``) and whether the compared modules were typed.

Without a mode it runs ``ours`` into a temporary directory, then ``tvm`` with
``--relay-py``. ``python -m bench.relay_corpus`` reads the JSON into its report;
it never runs TVM.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "relay_corpus" / "tvm_v0.19"
SEED = ROOT / "examples" / "seed"
SEED_TEXTS = ("original", "fused", "defused")
PRINTED = ROOT / "tests" / "relay_corpus" / "tvm_v0.19_printed"
RESULT = ROOT / "tests" / "relay_corpus" / "tvm_readback.json"
RELAY_PY = "/work/tvm019/relay_py"


def _entries() -> list[dict[str, Any]]:
    entries = json.loads((CORPUS / "index.json").read_text())["texts"]
    return [e for e in entries if e["expect"] == "parse"]


def _first_line(error: BaseException) -> str:
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def ours(out: Path) -> None:
    """relay-xdsl's half: our printout of every text into ``out``."""
    from relay_xdsl.exporters.relay_text import print_relay
    from relay_xdsl.importers.relay_text import parse_relay

    out.mkdir(parents=True, exist_ok=True)
    texts = {e["name"]: CORPUS / f"{e['name']}.relay" for e in _entries()}
    texts |= {f"seed__{n}": SEED / f"{n}.relay" for n in SEED_TEXTS}
    rejected: dict[str, str] = {}
    for name, path in texts.items():
        try:
            printed = print_relay(parse_relay(path.read_text(), path.name))
        except Exception as error:  # noqa: BLE001 - the failure is the finding
            rejected[name] = _first_line(error)
            continue
        (out / f"{name}.relay").write_text(printed)
    (out / "ours.json").write_text(json.dumps(rejected, indent=1) + "\n")


_CONSTANT = re.compile(
    r"meta\[relay\.Constant\]\[(\d+)\] /\* ty=(?:Tensor\[\((.*?)\), (\w+)\]|(\w+)) \*/"
)
_VIRTUAL_DEVICE = re.compile(r"meta\[VirtualDevice\]\[(\d+)\]")


def meta_table(original: str, printed: str | None) -> dict[str, Any] | None:
    """A stand-in for the ``init_meta_table`` of a text's test, or None when it needs none.

    Both readings of a text get the same table, so its contents only need to be
    well-typed: ``relay.Constant`` ``i`` is a zero tensor of the type our
    printout gives ``meta[relay.Constant][i]`` (its importer infers the types
    the text leaves out), ``VirtualDevice`` ``i`` is ``VirtualDevice(cpu(i))``.
    """
    import numpy as np
    import tvm
    from tvm import relay

    if "#[metadata]" in original or "meta[" not in original:
        return None
    table: dict[str, Any] = {}
    devices = [int(i) for i in _VIRTUAL_DEVICE.findall(original)]
    if devices:
        table["VirtualDevice"] = [
            tvm.target.VirtualDevice(tvm.cpu(i)) for i in range(max(devices) + 1)
        ]
    if "meta[relay.Constant]" in original and printed is not None:
        types: dict[int, tuple[tuple[int, ...], str]] = {}
        for index, shape, dtype, scalar in _CONSTANT.findall(printed):
            dims = tuple(int(d) for d in shape.split(",") if d.strip()) if shape else ()
            types[int(index)] = (dims, dtype or scalar)
        if types and set(types) == set(range(max(types) + 1)):
            table["relay.Constant"] = [relay.const(np.zeros(*types[i])) for i in sorted(types)]
    return table or None


def _compare(
    entry: dict[str, Any], original: str, printed: str | None, tvm_printed: str | None
) -> dict[str, Any]:
    """TVM's half for one text (runs in a forked child)."""
    import tvm
    from tvm import relay

    from bench.relay_corpus.tvm_golden import attempt, parse

    table = attempt(lambda: meta_table(original, printed))
    if isinstance(table, str):
        table = None
    record: dict[str, Any] = {"meta_table": sorted(table)} if table else {}
    theirs = attempt(lambda: parse(entry, original, table)[0])
    if isinstance(theirs, str):
        return {"result": "TVM rejects the original", "error": theirs, **record}
    if printed is None:
        return {"result": "we reject the original", **record}
    mine = attempt(lambda: relay.parse(printed, init_meta_table=table))
    if isinstance(mine, str):
        record = {"result": "TVM rejects ours", "error": mine, **record}
        if tvm_printed is not None:  # is TVM's own printout any better?
            own = attempt(lambda: relay.parse(tvm_printed, init_meta_table=table))
            record["tvm_reads_its_own_printout"] = own if isinstance(own, str) else True
        return record
    infer = relay.transform.InferType()
    theirs_typed, mine_typed = attempt(lambda: infer(theirs)), attempt(lambda: infer(mine))
    if isinstance(theirs_typed, str) or isinstance(mine_typed, str):
        record["typed"] = False
        if isinstance(mine_typed, str) and not isinstance(theirs_typed, str):
            record["our_infer_error"] = mine_typed
    else:
        theirs, mine, record["typed"] = theirs_typed, mine_typed, True
    if tvm.ir.structural_equal(theirs, mine, map_free_vars=True):
        return {"result": "equal", **record}
    mismatch = attempt(
        lambda: tvm.ir.base.get_first_structural_mismatch(theirs, mine, map_free_vars=True)
    )
    if not isinstance(mismatch, str):
        mismatch = " / ".join(str(path) for path in mismatch) if mismatch else ""
    return {"result": "not equal", "mismatch": mismatch[:400], **record}


def tvm_half(out: Path) -> None:
    """TVM's half: compare, per text, TVM's reading of the original and of ours."""
    from bench.relay_corpus.tvm_golden import isolated

    rejected = json.loads((out / "ours.json").read_text())
    entries = {e["name"]: e for e in _entries()}
    texts = {name: (entry, CORPUS / f"{name}.relay") for name, entry in entries.items()}
    for n in SEED_TEXTS:
        path = SEED / f"{n}.relay"
        kind = "expression" if path.read_text().startswith("fn") else "module"
        texts[f"seed__{n}"] = ({"kind": kind}, path)
    results: dict[str, Any] = {}
    for name, (entry, path) in texts.items():
        printed_path = out / f"{name}.relay"
        original = path.read_text()
        printed = printed_path.read_text() if name not in rejected else None
        golden = PRINTED / f"{name}.relay"
        tvm_printed = golden.read_text() if golden.exists() else None
        compare = partial(_compare, entry, original, printed, tvm_printed)
        record = isolated(compare, {"result": "crash"})
        if name in rejected:
            record["our_error"] = rejected[name]
        results[name] = record
        print(name, record["result"], file=sys.stderr, flush=True)
    seed = {n: results.pop(f"seed__{n}") for n in SEED_TEXTS}
    counts = Counter(r["result"] for r in results.values())
    RESULT.write_text(
        json.dumps(
            {
                "generated_by": "python -m bench.relay_corpus.tvm_readback (TVM v0.19)",
                "counts": dict(counts.most_common()),
                "seed": seed,
                "texts": dict(sorted(results.items())),
            },
            indent=1,
        )
        + "\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.relay_corpus.tvm_readback")
    parser.add_argument("mode", nargs="?", choices=("ours", "tvm"))
    parser.add_argument("dir", nargs="?", type=Path)
    parser.add_argument("--relay-py", default=RELAY_PY, help="a Python with TVM v0.19's Relay")
    args = parser.parse_args(argv)
    if args.mode == "ours":
        ours(args.dir)
    elif args.mode == "tvm":
        tvm_half(args.dir)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            ours(Path(tmp))
            command = [args.relay_py, "-m", "bench.relay_corpus.tvm_readback", "tvm", tmp]
            subprocess.run(command, cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
