"""Every differential case against TVM v0.19's Relay, from the committed record.

TVM 0.19 (the last release with Relay) is not in the venv, so
bench/tvm019/check_operators.py, run with TVM 0.19's Python, runs each case's Relay
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
REMAKE = "/work/tvm019/relay_py bench/tvm019/check_operators.py"
CASES = every_case()

RELAX_ROWS = "a Relax operator in relay form: TVM 0.19's Relay has no such operator"
NO_FLOAT16_INTRINSIC = "TVM 0.19's LLVM code generator has no float16 intrinsic for it"
KNOWN_DIFFERENCES: dict[str, str] = {
    **{
        name: RELAX_ROWS
        for name in (
            "relax.arange",
            "relax.matmul",
            "relax.matmul[broadcast batch]",
            "relax.nn.batch_norm",
            "relax.nn.gelu",
            "relax.nn.gelu[float16]",
            "relax.nn.gelu_tanh",
            "relax.nn.gelu_tanh[float16]",
            "relax.nn.pad",
            "relax.nn.silu",
            "relax.nn.silu[float16]",
            "relax.slice_scatter",
            "relax.strided_slice",
            "relax.strided_slice[negative strides]",
        )
    },
    **{
        f"{name}[float16]": NO_FLOAT16_INTRINSIC
        for name in ("acos", "acosh", "asin", "asinh", "atan", "atanh")
    },
    "device_copy": "TVM 0.19's VM needs device planning to place it (no VirtualDevice)",
    "on_device": "TVM 0.19's VM needs device planning to place it (no VirtualDevice)",
    "dyn.expand_dims": "crashes TVM 0.19's process",
    "dyn.nn.upsampling": "TVM 0.19's dynamic upsampling leaves an attribute undefined",
    "dyn.nn.upsampling3d": "TVM 0.19's dynamic upsampling leaves an attribute undefined",
    "nn.conv2d_transpose[groups dilation]": "TVM 0.19's x86 strategy does not support dilation",
    "nn.dense[3-d data, odd sizes]": "TVM 0.19's x86 dense schedule takes 2-d data only",
    "nn.dropout": "has no compute in TVM 0.19: SimplifyInference removes it first",
    "nn.dropout[float16]": "has no compute in TVM 0.19: SimplifyInference removes it first",
    "power[broadcast int32]": "TVM 0.19's power takes floats only",
    "power[broadcast int64]": "TVM 0.19's power takes floats only",
}
"""Cases TVM 0.19 rejects, and why: none differs from the interpreter. Each is a
limit of TVM 0.19's Relay (no compute, schedule or intrinsic for it there) or a
Relax row."""


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
    if wrong:
        pytest.fail("\n".join(wrong), pytrace=False)


def test_known_differences_are_cases():
    assert KNOWN_DIFFERENCES.keys() <= {case.name for case in CASES}
