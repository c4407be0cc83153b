"""``print_relay`` against TVM v0.19's own printer, on the golden printouts.

TVM v0.19 printed every corpus text it parses, after ``InferType``
(``tests/relay_corpus/tvm_v0.19_printed``, made by
``bench/relay_corpus/tvm_golden.py``), and its ``FuseOps`` and ``DefuseOps``
of those (``tests/relay_corpus/tvm_v0.19_fused``). Importing such a text and printing it
must give TVM's text back, up to spaces at line ends and blank lines at the end
(``bench.relay_corpus.tvm_printed.normalise``). The texts that do not yet are
listed with their first difference in ``tests/relay_corpus/tvm_printed_xfail.txt``
(``python -m bench.relay_corpus.tvm_printed --update``); they are strict
expected failures, so one that starts to match fails until it leaves the list.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.relay_corpus.tvm_printed import first_difference, golden_texts, read_xfail
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay

ROOT = Path(__file__).resolve().parents[2]
READBACK = ROOT / "tests" / "relay_corpus" / "tvm_readback.json"
EXPECTED_TO_DIFFER = read_xfail()
GOLDEN = golden_texts()


def _cases() -> list[object]:
    cases: list[object] = []
    for name in GOLDEN:
        reason = EXPECTED_TO_DIFFER.get(name)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason is not None else []
        cases.append(pytest.param(name, marks=marks, id=name))
    return cases


def test_the_golden_files_are_there():
    assert len(GOLDEN) > 400
    assert set(EXPECTED_TO_DIFFER) <= set(GOLDEN)


@pytest.mark.parametrize("name", _cases())
def test_prints_tvm_text_back_as_tvm_printed_it(name: str):
    difference = first_difference(GOLDEN[name].read_text(), name)
    assert difference is None, difference


def test_seed_reads_back_in_tvm_as_the_same_program():
    """Recorded by ``bench/relay_corpus/tvm_readback.py`` under TVM v0.19."""
    seed = json.loads(READBACK.read_text())["seed"]
    assert {name: entry["result"] for name, entry in seed.items()} == {
        "original": "equal",
        "fused": "equal",
        "defused": "equal",
    }


@pytest.mark.parametrize("literal", ["42i16", "-42i16", "7i64", "3", "True", "1.5f16"])
def test_scalars_print_inline_as_tvm_prints_them(literal: str):
    """TVM's printer writes every int16/32/64, float16/32/64 and bool scalar inline."""
    module = parse_relay(f"def @main() {{ {literal} }}", "scalar.relay")
    assert f"  {literal} /* ty=" in print_relay(module)
