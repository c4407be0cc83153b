"""Loading the xdsl-opt plugin changes nothing else in xDSL or Python.

``xdsl-opt`` loads every ``xdsl.universe`` entry point on every run, and so
relay-xdsl's (relay_xdsl/tools/xdsl_opt/universe.py). A run that does not involve
relay must behave exactly as if relay-xdsl were not installed: the
installed ``xdsl-opt`` is compared with the same console script run with
relay-xdsl's entry point filtered out of ``importlib.metadata`` (where
xDSL's ``Universe.get_multiverse`` finds plugins), on plain ``arith``
programs, valid and not: the same stdout, stderr and exit status,
tracebacks included. Each run starts a fresh interpreter, and so do the
checks of what importing the plugin leaves behind.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
XDSL_OPT = BIN / "xdsl-opt"

VALID = """\
func.func @add(%a: i32, %b: i32) -> i32 {
  %sum = arith.addi %a, %b : i32
  %c2 = arith.constant 2 : i32
  %twice = arith.muli %sum, %c2 : i32
  func.return %twice : i32
}
"""

SYNTAX_ERROR = """\
func.func @add(%a: i32, %b: i64) -> i32 {
  %sum = arith.addi %a, %b : i32
  func.return %sum : i32
}
"""

VERIFY_ERROR = """\
func.func @add(%a: i32, %b: i32) -> i32 {
  %sum = "arith.addi"(%a, %b) : (i32, i32) -> i64
  func.return %sum : i64
}
"""

WITHOUT_PLUGIN = """\
import importlib.metadata
import sys

_entry_points = importlib.metadata.entry_points


def entry_points(**selection):
    found = _entry_points(**selection)
    if selection.get("group") != "xdsl.universe":
        return found
    return importlib.metadata.EntryPoints(
        point for point in found if not point.value.startswith("relay_xdsl.")
    )


importlib.metadata.entry_points = entry_points
script = sys.argv[1]
sys.argv = sys.argv[1:]
with open(script) as source:
    exec(compile(source.read(), script, "exec"), {"__name__": "__main__"})
"""
"""Runs the xdsl-opt console script (argv[1]) as its own main, without relay-xdsl's plugin."""


def _env() -> dict[str, str]:
    """The tools import relay_xdsl from this checkout, whichever one the venv was installed from."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("RELAY_XDSL_TRACEBACK", None)
    return env


def _run(command: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        check=False,
        timeout=300,
    )


def _stderr(text: str) -> str:
    """`text` without the frame of the ``-c`` wrapper that runs the script without the plugin."""
    return re.sub(r'^  File "<string>", line \d+, in <module>\n', "", text, flags=re.MULTILINE)


def test_the_plugin_is_installed_and_loads_from_this_checkout():
    points = [p for p in entry_points(group="xdsl.universe") if p.name == "relay_xdsl"]
    assert [p.value for p in points] == ["relay_xdsl.tools.xdsl_opt.universe:RELAY_UNIVERSE"]
    relay = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.relu(%x)\n}\n'
    result = _run([str(XDSL_OPT), "-f", "relay", "-t", "relay"], stdin=relay)
    assert result.returncode == 0, result.stderr  # relay's frontend and target are there
    assert "nn.relu(%x)" in result.stdout


CASES = {
    "valid": (VALID, []),
    "valid-xdsl-pipeline": (VALID, ["-p", "canonicalize", "--print-op-generic"]),
    "syntax-error": (SYNTAX_ERROR, []),
    "syntax-error-parsing-diagnostics": (SYNTAX_ERROR, ["--parsing-diagnostics"]),
    "verify-error": (VERIFY_ERROR, []),
    "unknown-pass": (VALID, ["-p", "canonicalise"]),
    "unterminated-string": ('"builtin.module"() {sym_name = "abc\n', []),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("source", ["file", "stdin"])
def test_xdsl_opt_runs_without_relay_are_xdsls_own(case: str, source: str, tmp_path: Path):
    text, options = CASES[case]
    if source == "file":
        path = tmp_path / "input.mlir"
        path.write_text(text)
        arguments, stdin = [str(path), *options], None
    else:
        arguments, stdin = options, text
    with_plugin = _run([str(XDSL_OPT), *arguments], stdin)
    without = _run([sys.executable, "-c", WITHOUT_PLUGIN, str(XDSL_OPT), *arguments], stdin)
    assert with_plugin.returncode == without.returncode
    assert with_plugin.stdout == without.stdout
    assert with_plugin.stderr == _stderr(without.stderr)
    if case != "valid" and not case.startswith("valid-"):
        assert with_plugin.returncode != 0 or "--parsing-diagnostics" in options


def test_missing_input_is_xdsls_own():
    arguments = ["no/such/input.mlir"]
    with_plugin = _run([str(XDSL_OPT), *arguments])
    without = _run([sys.executable, "-c", WITHOUT_PLUGIN, str(XDSL_OPT), *arguments])
    assert (with_plugin.returncode, with_plugin.stdout) == (without.returncode, without.stdout)
    assert with_plugin.stderr == _stderr(without.stderr)
    assert "Traceback" in with_plugin.stderr


# -- what loading the plugin leaves behind -------------------------------------------------

STATE = """\
import gc
import json
import sys
import threading

from xdsl.irdl import attributes
from xdsl.parser import Parser, attribute_parser
from xdsl.utils.mlir_lexer import MLIRLexer


def state():
    return {
        "excepthook": sys.excepthook is sys.__excepthook__,
        "string regex": MLIRLexer._unescaped_characters_regex.pattern,
        "attribute_parser.base": attribute_parser.base is attributes.base,
        "regions": Parser.parse_optional_region.__module__ == Parser.__module__,
        "gc": gc.isenabled(),
        "recursion limit": sys.getrecursionlimit(),
        "stack size": threading.stack_size(),
    }


def report(before, **facts):
    json.dump({"before": before, "after": state(), **facts}, sys.stderr)
"""


def _state_after(program: str) -> dict:
    result = _run([sys.executable, "-c", STATE + program])
    assert result.returncode == 0, result.stderr
    return json.loads(result.stderr.splitlines()[-1])


@pytest.mark.parametrize(
    "argv",
    [["python"], [str(XDSL_OPT), "input.mlir"], [str(XDSL_OPT), "in.mlir", "-p", "canonicalize"]],
    ids=["python", "xdsl-opt", "xdsl-opt-xdsl-pass"],
)
def test_importing_the_entry_point_changes_nothing(argv: list[str]):
    facts = _state_after(
        f"sys.argv = {argv!r}\n"
        "before = state()\n"
        "from xdsl.universe import Universe\n"
        "from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE\n"
        "multiverse = Universe.get_multiverse()\n"
        "report(before, relay=sorted(RELAY_UNIVERSE.all_passes),"
        " loaded='relay-defuse' in multiverse.all_passes,"
        " lazy=[m for m in ('relay_xdsl.dialects.relay', 'relay_xdsl.transforms.defuse')"
        " if m in sys.modules])\n"
    )
    assert facts["after"] == facts["before"]
    assert facts["loaded"] and facts["relay"]
    assert facts["lazy"] == []  # the dialect and passes are only loaded when used


def test_a_plain_xdsl_opt_run_leaves_xdsl_and_python_as_they_were(tmp_path: Path):
    """The whole run in one interpreter: the plugin is loaded, and nothing changes."""
    path = tmp_path / "input.mlir"
    path.write_text(VALID)
    facts = _state_after(
        f"sys.argv = [{str(XDSL_OPT)!r}, {str(path)!r}, '-o', {str(tmp_path / 'out.mlir')!r}]\n"
        "before = state()\n"
        "from xdsl.tools.xdsl_opt import main\n"
        "main()\n"
        "report(before, plugin='relay_xdsl.tools.xdsl_opt.universe' in sys.modules,"
        " dialect='relay_xdsl.dialects.relay' in sys.modules)\n"
    )
    assert facts["plugin"] and not facts["dialect"]
    assert facts["after"] == facts["before"]


def test_runs_that_involve_relay_get_the_diagnostics_and_the_fixes(tmp_path: Path):
    """The positive control: loading the relay dialect in xdsl-opt changes what it should."""
    path = tmp_path / "input.mlir"
    path.write_text(
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = relay.nn.relu(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
        "  func.return %0 : tensor<2xf32>\n}\n"
    )
    facts = _state_after(
        f"sys.argv = [{str(XDSL_OPT)!r}, {str(path)!r}, '-o', {str(tmp_path / 'out.mlir')!r}]\n"
        "before = state()\n"
        "from xdsl.tools.xdsl_opt import main\n"
        "main()\n"
        "report(before)\n"
    )
    before, after = facts["before"], facts["after"]
    assert not after["excepthook"] and not after["attribute_parser.base"]
    assert not after["regions"]
    assert after["string regex"] != before["string regex"]
    assert (after["gc"], after["recursion limit"], after["stack size"]) == (
        before["gc"],
        before["recursion limit"],
        before["stack size"],
    )


@pytest.mark.parametrize(
    ("passes", "paused"), [(["-p", "relay-defuse"], True), ([], False)], ids=["relay-pass", "none"]
)
def test_a_run_with_relay_passes_has_the_collector_paused(
    passes: list[str], paused: bool, tmp_path: Path
):
    """As relay-xdsl's commands run: parsing, verifying and printing a module of
    relay ops with the collector off. A run without ``-p`` loads relay while it
    parses, too late to pause it."""
    path = tmp_path / "input.mlir"
    path.write_text(
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = relay.nn.relu(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
        "  func.return %0 : tensor<2xf32>\n}\n"
    )
    argv = [str(XDSL_OPT), str(path), *passes, "-o", str(tmp_path / "out.mlir")]
    facts = _state_after(
        f"sys.argv = {argv!r}\n"
        "before = state()\n"
        "from xdsl.tools.xdsl_opt import main\n"
        "from xdsl.xdsl_opt_main import xDSLOptMain\n"
        "output = xDSLOptMain.output_resulting_program\n"
        "collector = []\n"
        "def recorded(self, module):\n"
        "    collector.append(gc.isenabled())\n"
        "    return output(self, module)\n"
        "xDSLOptMain.output_resulting_program = recorded\n"
        "main()\n"
        "report(before, collector_in_run=collector)\n"
    )
    assert facts["collector_in_run"] == [not paused]
    assert facts["after"]["gc"] == facts["before"]["gc"]


def test_a_command_line_that_names_relay_gets_the_diagnostics_hook_as_the_plugin_loads():
    """The one thing loading does: xdsl-opt checks ``-p`` before it loads any pass, so
    ``-p relay-...`` needs the hook from the start. Nothing else changes."""
    facts = _state_after(
        f"sys.argv = [{str(XDSL_OPT)!r}, 'in.mlir', '-p', 'relay-defuse{{']\n"
        "before = state()\n"
        "import relay_xdsl.tools.xdsl_opt.universe\n"
        "report(before)\n"
    )
    before, after = facts["before"], facts["after"]
    assert before["excepthook"] and not after["excepthook"]
    assert {k: v for k, v in after.items() if k != "excepthook"} == {
        k: v for k, v in before.items() if k != "excepthook"
    }


@pytest.mark.parametrize(
    ("arguments", "names_relay"),
    [
        (["in.mlir"], False),
        (["in.mlir", "-p", "canonicalize,cse", "-t", "mlir"], False),
        (["-f", "mlir", "in.relay"], False),
        (["in.relay"], True),
        (["in.mlir", "-f", "relay"], True),
        (["in.mlir", "--frontend=upstream-mlir"], True),
        (["in.mlir", "-trelay"], True),
        (["in.mlir", "--target", "upstream-mlir"], True),
        (["in.mlir", "-p", "canonicalize,relay-defuse{composite=a,b}"], True),
        (["in.mlir", "--passes=relay-fuse-ops"], True),
        (["in.mlir", "-p", "relay-defusee"], True),  # a misspelt relay pass
        (["in.mlir", "-p", "relay-defuse{"], True),
    ],
)
def test_which_command_lines_name_relay(arguments: list[str], names_relay: bool):
    from relay_xdsl.tools.xdsl_opt.universe import names_relay as reads_as

    assert reads_as([str(XDSL_OPT), *arguments]) is names_relay
