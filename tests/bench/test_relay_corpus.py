"""The corpus of TVM's Relay texts: its extractor, its index, and the per-text check."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bench.relay_corpus.__main__ import reason_key
from bench.relay_corpus.check import check_text, expected_outcome
from bench.relay_corpus.extract import extract_file, rejected_alone, undefined_globals

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "relay_corpus" / "tvm_v0.19"
TVM_MIRROR = Path("/work/.mirror/apache+tvm/repo")

SOURCE = textwrap.dedent(
    '''
    import pytest
    import tvm
    SEMVER = '#[version = "0.0.5"]\\n'
    TYPES = {"int8", "float32"}
    DEFN = "type T { C }"

    def parse_text(code):
        return tvm.relay.parse_expr(code)

    def parse_module(code):
        return tvm.relay.parse(SEMVER + code)

    def assert_parses_as(code, expr):
        assert parse_text(code) == expr

    def test_literals():
        parse_text("1")
        assert_parses_as("(1, 2)", None)
        with pytest.raises(tvm.error.DiagnosticError):
            parse_text("1i7")

    def test_formatting():
        for ty in TYPES:
            parse_text("let %_ : {} = (); ()".format(ty))
        for keyword, _ in [("match", True), ("match?", False)]:
            parse_module("%s def @f() { %s }" % (DEFN, keyword))
        name = "x"
        parse_text(f"fn (%{name}) {{ %{name} }}")

    def test_context():
        metatable = {"relay.Constant": []}
        program = """
        #[version = "0.0.5"]
        def @main() { meta[relay.Constant][0] }
        """
        tvm.relay.parse(program, "from_string", None, metatable)

    def test_runtime(mod):
        tvm.relay.parse(mod.astext())

    def test_loop_built():
        text = "let %x0 = 0;"
        for i in range(1, 3):
            text += " let %x" + str(i) + " = %x" + str(i - 1) + ";"
        parse_text(text + " ()")

    def test_unreached():
        """fn (%y) { add(%y, %y) }"""
    '''
)


def test_extractor_finds_literal_texts_through_helpers_formatting_and_loops():
    found, unreached = extract_file("tests/python/relay/test_x.py", SOURCE)
    texts = {(f.function, t): f for f in found for t in f.texts or []}
    assert ("test_literals", "1") in texts
    assert texts[("test_literals", "(1, 2)")].kind == "expression"
    assert texts[("test_literals", "1i7")].expect == "error"
    assert texts[("test_literals", "1")].expect == "parse"
    assert ("test_formatting", "let %_ : float32 = (); ()") in texts
    assert ("test_formatting", "let %_ : int8 = (); ()") in texts
    module = texts[("test_formatting", '#[version = "0.0.5"]\ntype T { C } def @f() { match? }')]
    assert module.kind == "module"
    assert ("test_formatting", "fn (%x) { %x }") in texts
    context = next(f for f in found if f.function == "test_context")
    assert context.context == ["init_meta_table"]
    assert "meta[relay.Constant][0]" in (context.texts or [""])[0]
    runtime = next(f for f in found if f.function == "test_runtime")
    assert runtime.texts is None and runtime.skipped and "astext" in runtime.skipped
    assert ("test_loop_built", "let %x0 = 0; let %x1 = %x0; let %x2 = %x1; ()") in texts
    assert [u["function"] for u in unreached] == ["test_unreached"]


def test_index_matches_the_files():
    index = json.loads((CORPUS / "index.json").read_text())
    names = {e["name"] for e in index["texts"]}
    assert names == {p.stem for p in CORPUS.glob("*.relay")}
    for entry in index["texts"]:
        assert entry["kind"] in ("module", "expression")
        assert entry["expect"] in ("parse", "error")
        # tests/importers holds some of the texts from an earlier extraction.
        for legacy in entry.get("legacy", []):
            assert (ROOT / legacy).read_text() == (CORPUS / f"{entry['name']}.relay").read_text()


@pytest.mark.skipif(not TVM_MIRROR.exists(), reason="needs a clone of apache/tvm")
def test_extractor_reproduces_the_committed_corpus(tmp_path: Path):
    subprocess.run(
        [sys.executable, "-m", "bench.relay_corpus.extract", str(TVM_MIRROR), "--out", tmp_path],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    for path in [CORPUS / "index.json", *CORPUS.glob("*.relay")]:
        assert (tmp_path / path.name).read_text() == path.read_text(), path.name
    assert len(list(tmp_path.iterdir())) == len(list(CORPUS.iterdir()))


def test_check_text_stages():
    good = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.relu(%x)\n}\n'
    outcome = check_text(good, "good.relay")
    assert outcome.ok and outcome.passed == ["import", "verify", "fixpoint", "defuse"]

    bad = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.relu(%y)\n}\n'
    outcome = check_text(bad, "bad.relay")
    assert (outcome.stage, outcome.message) == ("import", "unknown variable %y")
    assert reason_key(outcome) == "import: unknown variable %…"

    assert check_text(bad, "bad.relay", expect="error").ok
    outcome = check_text(good, "good.relay", expect="error")
    assert not outcome.ok and "TVM's test expects a parse error" in outcome.message


def test_texts_that_need_their_init_module():
    text = '#[version = "0.0.5"]\ndef @main(%x) { add(@f(%x), @main) /* @g */ }\n'
    assert undefined_globals(text) == ["f"]
    reason = rejected_alone("module", ["init_module", "init_meta_table"], text)
    assert reason is not None and "@f" in reason
    assert rejected_alone("module", ["init_meta_table"], text) is None
    assert rejected_alone("expression", ["init_module"], "@f") is None
    entry = {"expect": "parse", "alone": reason}
    assert expected_outcome(entry) == "error"
    assert expected_outcome({"expect": "parse"}) == "parse"
