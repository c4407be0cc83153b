"""Time TVM v0.19's Relay steps on one Relay text; print the times as JSON.

Runs under TVM 0.19's Python (``/work/tvm019/relay_py`` or ``$RELAY_TVM019``),
not in relay-xdsl's venv, and imports nothing of relay-xdsl:

    relay_py bench/tvm019/measure_tvm.py time TEXT
    relay_py bench/tvm019/measure_tvm.py roundtrip ORIGINAL PRINTED [PRINTED_FUSED]
    relay_py bench/tvm019/measure_tvm.py golden TEXT OUT_PREFIX

``time`` runs every step once untimed (warm-up), then once timed, and prints
``{"steps": {step: {"wall": s, "cpu": s}}, "ops": n, "groups": n}``:

* ``parse``: ``tvm.relay.parse(text, init_meta_table=...)``. TVM's
  ``ParseModule`` ends with ``InferType``, so this is parsing and type
  inference, as ``tvm.relay.fromtext`` does it.
* ``fuse-ops``: ``relay.transform.FuseOps(fuse_opt_level=2)`` on the parsed
  module (relay-fuse-ops' default level; every TVM function pass ends with
  ``InferType``, which is part of the time).
* ``defuse``: ``relay.transform.DefuseOps()`` on the fused module.
* ``print``: ``mod.astext(show_meta_data=False)`` of the parsed module.

The texts print their weights as ``meta[relay.Constant][i]`` without a
``#[metadata]`` section (``show_meta_data=False``), which TVM's parser cannot
read alone. So the meta table is rebuilt, untimed, from the ``/* ty=... */``
comment TVM prints on each reference: one zero-filled constant of that type
per index, passed as ``init_meta_table`` (the values matter to none of the
steps). relay-xdsl's importer types these constants from their uses instead.
``split``'s indices, which TVM 0.19 prints as ``meta[runtime.BoxInt][i]``,
come from ``TEXT.meta.json`` beside the text (see make_texts.py).

``roundtrip`` checks that relay-xdsl's printout of a text reads back in TVM
0.19: both texts are parsed with the same meta table (parsing includes
``InferType``) and compared with ``tvm.ir.structural_equal``; with a third
text, relay-xdsl's printout of its relay-fuse-ops result, that is compared
with TVM's ``FuseOps`` of the original. It prints a JSON verdict.

``golden`` writes TVM's fused and defused texts (``OUT_PREFIX.fused.relay``,
``OUT_PREFIX.defused.relay``).
"""

from __future__ import annotations

import gc
import json
import re
import sys
import time
from pathlib import Path

import numpy as np
import tvm
from tvm import relay

META = re.compile(
    r"meta\[relay\.Constant\]\[(\d+)\] /\* ty=(?:Tensor\[\(([^)]*)\), (\w+)\]|(\w+))[ */]"
)


def load(path: str) -> tuple[str, dict[str, list[object]]]:
    """The text at `path` and its meta table (see `meta_table`)."""
    text = Path(path).read_text()
    table = meta_table(text)
    sidecar = Path(path).with_suffix(".meta.json")
    if sidecar.exists():
        table.update(json.loads(sidecar.read_text()))
    return text, table


def meta_table(text: str) -> dict[str, list[object]]:
    """Zero constants of the types the ``ty=`` comments give, by meta index."""
    types: dict[int, tuple[tuple[int, ...], str]] = {}
    for match in META.finditer(text):
        index, shape, dtype, scalar = match.groups()
        if scalar is not None:
            types[int(index)] = ((), scalar)
        else:
            dims = tuple(int(d) for d in shape.replace(" ", "").split(",") if d)
            types[int(index)] = (dims, dtype)
    if not types:
        return {}
    if sorted(types) != list(range(len(types))):
        raise SystemExit("meta[relay.Constant] indices are not 0..n-1 with ty= comments")
    constants: list[object] = [relay.const(np.zeros(*types[i])) for i in range(len(types))]
    return {"relay.Constant": constants}


def parse(text: str, table: dict[str, list[object]]) -> tvm.IRModule:
    return relay.parse(text, "input.relay", init_meta_table=table)


def fuse(mod: tvm.IRModule) -> tvm.IRModule:
    return relay.transform.FuseOps(fuse_opt_level=2)(mod)


def defuse(mod: tvm.IRModule) -> tvm.IRModule:
    return relay.transform.DefuseOps()(mod)


def show(mod: tvm.IRModule) -> str:
    return mod.astext(show_meta_data=False)


def count_calls(mod: tvm.IRModule) -> tuple[int, int]:
    """Operator calls, and functions marked ``Primitive``, in `mod`."""
    ops = groups = 0

    def visit(node: object) -> None:
        nonlocal ops, groups
        if isinstance(node, relay.Call) and isinstance(node.op, tvm.ir.Op):
            ops += 1
        elif isinstance(node, relay.Function) and node.attrs and "Primitive" in node.attrs:
            groups += 1

    for func in mod.functions.values():
        relay.analysis.post_order_visit(func, visit)
    return ops, groups


def timed(step: str, times: dict[str, dict[str, float]], work, *args):  # type: ignore[no-untyped-def]
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = work(*args)
    times[step] = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}
    return result


def time_steps(path: str) -> dict[str, object]:
    text, table = load(path)
    show(defuse(fuse(parse(text, table))))  # warm-up
    times: dict[str, dict[str, float]] = {}
    mod = timed("parse", times, parse, text, table)
    fused = timed("fuse-ops", times, fuse, mod)
    defused = timed("defuse", times, defuse, fused)
    timed("print", times, show, mod)
    ops, _ = count_calls(mod)
    _, groups = count_calls(fused)
    return {
        "steps": times,
        "ops": ops,
        "groups": groups,
        "defuse_restores": bool(tvm.ir.structural_equal(defused, mod)),
        "tvm": tvm.__version__,
    }


def roundtrip(original: str, printed: str, printed_fused: str | None) -> dict[str, object]:
    text, table = load(original)
    theirs = parse(text, table)
    verdict: dict[str, object] = {}
    try:
        ours = parse(Path(printed).read_text(), table)
        verdict["parse"] = "equal" if tvm.ir.structural_equal(ours, theirs) else "differs"
    except tvm.error.TVMError as error:  # DiagnosticError, a parse error, is one
        verdict["parse"] = f"error: {str(error).strip().splitlines()[-1][:300]}"
    if printed_fused is not None:
        try:
            ours_fused = parse(Path(printed_fused).read_text(), table)
            same = tvm.ir.structural_equal(ours_fused, fuse(theirs))
            verdict["fused"] = "equal" if same else "differs"
        except tvm.error.TVMError as error:
            verdict["fused"] = f"error: {str(error).strip().splitlines()[-1][:300]}"
    return verdict


def golden(path: str, prefix: str) -> None:
    text, table = load(path)
    fused = fuse(parse(text, table))
    Path(f"{prefix}.fused.relay").write_text(show(fused))
    Path(f"{prefix}.defused.relay").write_text(show(defuse(fused)))


def main(argv: list[str]) -> int:
    command, *args = argv
    if command == "time":
        result: object = time_steps(args[0])
    elif command == "roundtrip":
        result = roundtrip(args[0], args[1], args[2] if len(args) > 2 else None)
    elif command == "golden":
        golden(args[0], args[1])
        return 0
    else:
        raise SystemExit(f"unknown command {command!r}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
