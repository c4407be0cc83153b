"""The differential cases (tests/differential) on TVM v0.19's Relay: the record
tests/differential/tvm019_results.json that tests/differential/test_tvm019.py checks.

Runs under TVM 0.19's Python (``/work/tvm019/relay_py`` or ``$RELAY_TVM019``), from
the repository root, with relay-xdsl's venv for the steps that need relay-xdsl:

    /work/tvm019/relay_py bench/tvm019/check_operators.py [--python .venv/bin/python]
        [--only CASE ...]

``--only`` runs the named cases alone (``--only "image.resize2d[cubic half pixel]"``)
and updates their verdicts in the record, keeping the others'.

1. **Cases** (relay-xdsl's venv: ``check_operators.py cases DIR``): every case's
   Relay text (``print_relay`` of its function), its inputs (drawn from the seed
   its name gives, see tests/differential/cases.py) and its fingerprint (a digest
   of the function and the inputs).
2. **TVM 0.19** (``check_operators.py tvm DIR``, this Python): each text parsed by
   ``tvm.relay.parse`` and run by ``relay.create_executor("vm", target="llvm")``
   on the inputs; the outputs, or TVM's message where it rejects the case. A case
   that crashes TVM's process is recorded as such, and the run goes on after it.
3. **Verdicts** (relay-xdsl's venv: ``check_operators.py verdicts DIR OUT``): TVM's
   outputs against the interpreter's, within the tolerances of
   tests/differential/cases.py: ``agrees``, ``differs`` (with the largest error)
   or ``rejected`` (with TVM's message), per case, with its fingerprint.

Only step 2 imports TVM 0.19; steps 1 and 3 import relay-xdsl and no TVM.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RESULTS = ROOT / "tests" / "differential" / "tvm019_results.json"
CASES = "cases.json"
INPUTS = "inputs.npz"
TVM_RECORDS = "tvm.jsonl"
"""One JSON line per case TVM 0.19 ran or rejected (its outputs in ``tvm/<index>.npz``)."""


def _differential() -> Any:
    """tests/differential as a package (``differential``), for the venv steps."""
    sys.path.insert(0, str(ROOT / "tests"))
    import differential.cases  # type: ignore[import-not-found]

    return differential.cases


# -- 1. cases (relay-xdsl's venv) ----------------------------------------------------


def _selected(only: list[str]) -> list[Any]:
    """Every case, or those named in `only` (each of which must be a case)."""
    cases = _differential().every_case()
    if not only:
        return cases
    unknown = set(only) - {case.name for case in cases}
    if unknown:
        raise SystemExit(f"no such case: {', '.join(sorted(unknown))}")
    return [case for case in cases if case.name in only]


def write_cases(directory: Path, only: list[str]) -> None:
    from relay_xdsl.exporters.relay_text import print_relay

    records, arrays = [], {}
    for index, case in enumerate(_selected(only)):
        record: dict[str, Any] = {"name": case.name, "operator": case.operator}
        try:
            record["relay"] = print_relay(case.module())
            inputs = case.inputs()
        except Exception as error:  # the case itself is broken: step 3 says so  # noqa: BLE001
            record["error"] = f"{type(error).__name__}: {error}"
            records.append(record)
            continue
        record["inputs"] = list(inputs)
        for position, array in enumerate(inputs.values()):
            arrays[f"{index}/{position}"] = array
        records.append(record)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CASES).write_text(json.dumps(records, indent=1))
    np.savez(directory / INPUTS, **arrays)


# -- 2. TVM 0.19 -----------------------------------------------------------------------


def _flatten(value: Any) -> list[np.ndarray]:
    if hasattr(value, "numpy"):
        return [value.numpy()]
    return [array for field in value for array in _flatten(field)]


def run_tvm(directory: Path) -> None:
    """Run every case not yet recorded; each record is written before the next case
    starts, so a crash loses only the case that caused it."""
    import tvm
    from tvm import relay

    records = json.loads((directory / CASES).read_text())
    inputs = np.load(directory / INPUTS)
    done = _recorded(directory)
    (directory / "tvm").mkdir(exist_ok=True)
    with open(directory / TVM_RECORDS, "a") as log:
        for index, record in enumerate(records):
            if index in done or "relay" not in record:
                continue
            log.write(json.dumps({"index": index, "started": True}) + "\n")
            log.flush()
            result: dict[str, Any] = {"index": index}
            try:
                module = tvm.relay.parse(record["relay"])
                run = relay.create_executor("vm", mod=module, device=tvm.cpu(), target="llvm")
                arguments = [inputs[f"{index}/{i}"] for i in range(len(record["inputs"]))]
                outputs = _flatten(run.evaluate()(*arguments))
                np.savez(directory / "tvm" / f"{index}.npz", *outputs)
                result["outputs"] = len(outputs)
            except Exception as error:  # TVM rejects the case: its message is the finding  # noqa: BLE001
                result["rejected"] = " ".join(str(error).split())[-600:]
            log.write(json.dumps(result) + "\n")
            log.flush()


def _recorded(directory: Path) -> dict[int, dict[str, Any]]:
    """The TVM records by case index; a case started but never finished crashed TVM."""
    path = directory / TVM_RECORDS
    records: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record.get("started"):
                records.setdefault(record["index"], {"crashed": True})
            else:
                records[record["index"]] = record
    return records


# -- 3. verdicts (relay-xdsl's venv) -----------------------------------------------------


def write_verdicts(directory: Path, output: Path, only: list[str]) -> None:
    """The verdicts of the cases run, in place of the record's (every case's,
    or with `only`, those cases' in the record kept otherwise)."""
    from relay_xdsl.interpreter import run

    cases = {case.name: case for case in _selected(only)}
    records = json.loads((directory / CASES).read_text())
    tvm_records = _recorded(directory)
    verdicts: dict[str, dict[str, Any]] = json.loads(output.read_text()) if only else {}
    for index, record in enumerate(records):
        case = cases[record["name"]]
        verdict: dict[str, Any] = {"operator": case.operator, "fingerprint": case.fingerprint()}
        tvm_record = tvm_records.get(index, {})
        if "error" in record:
            verdict |= {"verdict": "not printed", "message": record["error"]}
        elif tvm_record.get("crashed"):
            verdict |= {"verdict": "rejected", "message": "TVM 0.19's process crashed"}
        elif "rejected" in tvm_record:
            verdict |= {"verdict": "rejected", "message": tvm_record["rejected"]}
        elif "outputs" not in tvm_record:
            verdict |= {"verdict": "not run", "message": "no TVM 0.19 record of the case"}
        else:
            with np.load(directory / "tvm" / f"{index}.npz") as stored:
                theirs = [stored[f"arr_{i}"] for i in range(tvm_record["outputs"])]
            ours = run(case.module(), case.inputs())
            verdict |= _compare(_differential(), case.operator, theirs, ours)
        verdicts[case.name] = verdict
    output.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n")


def _compare(
    cases: Any, operator: str, theirs: list[np.ndarray], ours: list[np.ndarray]
) -> dict[str, Any]:
    if len(theirs) != len(ours):
        return {"verdict": "differs", "message": f"{len(theirs)} outputs, ours {len(ours)}"}
    for index, (actual, expected) in enumerate(zip(theirs, ours)):
        why = cases.disagreement(operator, actual, expected)
        if why is not None:
            return {"verdict": "differs", "message": f"output {index}: {why}"}
    return {"verdict": "agrees"}


# -- the whole run, under TVM 0.19's Python ------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", nargs="?", choices=["cases", "tvm", "verdicts"])
    parser.add_argument(
        "directory", nargs="?", type=Path, default=ROOT / "build" / "tvm019" / "differential"
    )
    parser.add_argument("output", nargs="?", type=Path, default=RESULTS)
    parser.add_argument(
        "--python", default=str(ROOT / ".venv" / "bin" / "python"), help="relay-xdsl's venv"
    )
    parser.add_argument(
        "--only", nargs="+", default=[], metavar="CASE", help="run these cases alone"
    )
    args = parser.parse_args()
    if args.step == "cases":
        write_cases(args.directory, args.only)
    elif args.step == "tvm":
        run_tvm(args.directory)
    elif args.step == "verdicts":
        write_verdicts(args.directory, args.output, args.only)
    else:
        _whole_run(args.python, args.directory, args.output, args.only)
    return 0


def _whole_run(python: str, directory: Path, output: Path, only: list[str]) -> None:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = str(Path(__file__).resolve())
    selection = ["--only", *only] if only else []
    (directory / TVM_RECORDS).unlink(missing_ok=True)
    subprocess.run(
        [python, script, "cases", str(directory), *selection], check=True, env=environment
    )
    # TVM's process may die on a case: start again after it until every case is recorded.
    while subprocess.run([sys.executable, script, "tvm", str(directory)], check=False).returncode:
        crashed = [i for i, r in _recorded(directory).items() if r.get("crashed")]
        if not crashed:
            raise SystemExit("TVM 0.19's run failed before its first case")
        print(f"TVM 0.19 crashed on case {crashed[-1]}; going on after it", file=sys.stderr)
    subprocess.run(
        [python, script, "verdicts", str(directory), str(output), *selection],
        check=True,
        env=environment,
    )
    summary: dict[str, int] = {}
    for verdict in json.loads(output.read_text()).values():
        summary[verdict["verdict"]] = summary.get(verdict["verdict"], 0) + 1
    print(f"wrote {output}: {summary}")


if __name__ == "__main__":
    sys.exit(main())
