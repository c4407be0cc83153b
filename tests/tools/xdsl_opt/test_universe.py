"""The xdsl-opt plugin's factories: what they hand xdsl-opt, and what they hand anyone else.

What loading the plugin leaves behind is checked in test_plugin_isolation.py.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser, attribute_parser
from xdsl.passes import PassPipeline
from xdsl.utils.mlir_lexer import MLIRLexer

from relay_xdsl.tools.pass_pipeline import check_pass_pipeline
from relay_xdsl.tools.xdsl_opt import excepthook
from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE
from relay_xdsl.transforms.defuse import RelayDefusePass

XDSL_OPT = str(Path(sys.executable).parent / "xdsl-opt")


@pytest.fixture
def in_xdsl_opt(monkeypatch: pytest.MonkeyPatch):
    """This process as xdsl-opt; what the factories change is put back afterwards."""
    monkeypatch.setattr(sys, "argv", [XDSL_OPT, "in.mlir"])
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(excepthook, "_installed", False)
    regex = MLIRLexer._unescaped_characters_regex
    monkeypatch.setattr(MLIRLexer, "_unescaped_characters_regex", regex)
    monkeypatch.setattr(MLIRLexer, "lex", MLIRLexer.lex)
    monkeypatch.setattr(attribute_parser, "base", attribute_parser.base)
    monkeypatch.setattr(Parser, "parse_optional_region", Parser.parse_optional_region)


@pytest.fixture
def collector_seen(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the collector was on, each time relay-defuse applied."""
    seen: list[bool] = []
    monkeypatch.setattr(RelayDefusePass, "apply", lambda self, ctx, op: seen.append(gc.isenabled()))
    return seen


def test_outside_xdsl_opt_the_passes_are_the_librarys(collector_seen: list[bool]):
    excepthook = sys.excepthook
    assert RELAY_UNIVERSE.all_passes["relay-defuse"]() is RelayDefusePass
    PassPipeline.parse_spec(RELAY_UNIVERSE.all_passes, "relay-defuse").apply(
        Context(), ModuleOp([])
    )
    assert collector_seen == [True]
    assert sys.excepthook is excepthook


def test_xdsl_opt_runs_relay_passes_with_the_collector_paused(
    in_xdsl_opt, collector_seen: list[bool]
):
    pass_class = RELAY_UNIVERSE.all_passes["relay-defuse"]()
    assert issubclass(pass_class, RelayDefusePass) and pass_class is not RelayDefusePass
    assert (pass_class.__name__, pass_class.name) == ("RelayDefusePass", "relay-defuse")
    pipeline = PassPipeline.parse_spec(
        RELAY_UNIVERSE.all_passes, "relay-defuse{inline-globals=true composite=a,b}"
    )
    (defuse,) = pipeline.passes
    assert isinstance(defuse, RelayDefusePass)
    assert (defuse.inline_globals, defuse.composite) == (True, ("a", "b"))
    pipeline.apply(Context(), ModuleOp([]))
    assert collector_seen == [False]
    assert gc.isenabled()
    # The pipeline checker reads the same options from it.
    problem = check_pass_pipeline("relay-defuse{foo=1}", RELAY_UNIVERSE.all_passes)
    assert problem is not None and "has no option 'foo' (valid options: composite=" in str(problem)


def test_loading_relay_in_xdsl_opt_brings_the_diagnostics_and_the_fixes(in_xdsl_opt):
    excepthook = sys.excepthook
    RELAY_UNIVERSE.all_dialects["relay"]()
    assert sys.excepthook is not excepthook
    from relay_xdsl.tools import xdsl_patches

    assert xdsl_patches.applied() == {
        "common-tokens",
        "region-names",
        "string-literal",
        "dense-literal-type",
        "function-result",
    }
