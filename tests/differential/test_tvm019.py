"""Every differential case against TVM v0.19's Relay, from the committed record.

TVM 0.19 (the last release with Relay) is not in the venv, so
bench/tvm019/differential.py, run with TVM 0.19's Python, runs each case's Relay
text (``print_relay``) on its seeded inputs with ``relay.create_executor("vm")``
and records the verdict against the interpreter in tvm019_results.json, with a
fingerprint of the case's function and inputs. Here the record must be current
(every case recorded, with the fingerprint it has now) and every case must agree,
or be one of the known differences below, each with its explanation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relay_xdsl.dialects.relay import operators

from .cases import VM_INTERNAL, every_case

RECORD = Path(__file__).with_name("tvm019_results.json")
REMAKE = "/work/tvm019/relay_py bench/tvm019/differential.py"
CASES = every_case()

KNOWN_DIFFERENCES: dict[str, str] = {}
"""Cases on which TVM 0.19 does not agree with the interpreter, and why that is
right (TVM's behaviour is a bug, or one TVM itself does not keep)."""


@pytest.fixture(scope="module")
def record() -> dict[str, dict]:
    if not RECORD.exists():
        pytest.skip(f"no TVM 0.19 record: run {REMAKE}")
    return json.loads(RECORD.read_text())


def test_record_is_current(record: dict[str, dict]):
    stale = [
        case.name
        for case in CASES
        if record.get(case.name, {}).get("fingerprint") != case.fingerprint()
    ]
    gone = sorted(record.keys() - {case.name for case in CASES})
    assert not stale and not gone, (
        f"the TVM 0.19 record is stale (run {REMAKE}): "
        f"cases new or changed: {stale}; cases no longer there: {gone}"
    )


ROWS = [row for row in operators.ALL if row.name not in VM_INTERNAL]


@pytest.mark.parametrize("operator", [row.name for row in ROWS])
def test_operator_agrees_with_tvm019(record: dict[str, dict], operator: str):
    wrong = []
    for case in CASES:
        if case.operator != operator or case.name not in record:
            continue
        verdict = record[case.name]
        agrees = verdict["verdict"] == "agrees"
        if agrees == (case.name in KNOWN_DIFFERENCES):
            wrong.append(
                f"{case.name}: {verdict['verdict']}: {verdict.get('message', '')}"
                if not agrees
                else f"{case.name}: agrees now; drop it from KNOWN_DIFFERENCES"
            )
    assert not wrong, "\n".join(wrong)


def test_known_differences_are_cases():
    assert KNOWN_DIFFERENCES.keys() <= {case.name for case in CASES}
