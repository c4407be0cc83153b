"""``relay-xdsl view`` and ``xdsl-opt -t dot``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from relay_xdsl.tools.cli import main
from relay_xdsl.viz import dot as dot_module

ROOT = Path(__file__).resolve().parents[3]
SEED = ROOT / "examples" / "seed"
FUSED, DEFUSED = SEED / "fused.relay", SEED / "defused.relay"


def _chain(tmp_path: Path, length: int) -> Path:
    """A chain of `length` unary operators, as Relay text."""
    lines = ['#[version = "0.0.5"]', "def @main(%x: Tensor[(1, 8), float32]) {"]
    previous = "%x"
    for index in range(length):
        lines.append(f"  %{index} = {('nn.relu', 'sigmoid', 'tanh')[index % 3]}({previous});")
        previous = f"%{index}"
    lines += [f"  {previous}", "}"]
    path = tmp_path / f"chain{length}.relay"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("suffix", ["svg", "html", "dot", "gv"])
def test_the_output_suffix_picks_the_format(tmp_path, suffix):
    output = tmp_path / f"fused.{suffix}"
    assert main(["view", str(FUSED), "-o", str(output)]) == 0
    text = output.read_text()
    start = {"svg": "<?xml", "html": "<!DOCTYPE html>", "dot": "digraph", "gv": "digraph"}
    assert text.startswith(start[suffix])
    assert text.count("ccompiler.conv_add_relu") >= 3


def test_dot_goes_to_stdout_by_default(capsys):
    assert main(["view", str(FUSED)]) == 0
    assert capsys.readouterr().out.startswith("digraph relay {")


def test_mlir_input_and_format_option(tmp_path, capsys):
    mlir = tmp_path / "fused.mlir"
    assert main(["import", str(FUSED), "-o", str(mlir)]) == 0
    assert main(["view", str(mlir), "--format", "svg"]) == 0
    svg = capsys.readouterr().out
    assert svg.count('class="cluster"') == 4  # @main and three groups


@pytest.mark.parametrize(
    "arguments", [[str(FUSED), str(DEFUSED)], ["--before", str(FUSED), "--after", str(DEFUSED)]]
)
def test_two_modules_side_by_side(tmp_path, arguments):
    output = tmp_path / "pair.svg"
    assert main(["view", *arguments, "-o", str(output)]) == 0
    svg = output.read_text()
    assert 'id="side_0"' in svg and 'id="side_1"' in svg
    assert svg.count('class="cluster"') == 2 + 2 + 3  # two sides, two @main, three groups


def test_collapse_draws_groups_as_nodes(capsys):
    assert main(["view", str(FUSED), "--collapse"]) == 0
    dot = capsys.readouterr().out
    assert "cluster_fn" not in dot
    assert dot.count('label="ccompiler.conv_add_relu\\nnn.conv2d, add') == 3


def test_a_graph_over_max_nodes_is_refused_with_advice(tmp_path, capsys):
    chain = _chain(tmp_path, 60)
    output = tmp_path / "chain.svg"
    assert main(["view", str(chain), "-o", str(output), "--max-nodes", "50"]) == 1
    error = capsys.readouterr().err
    assert "the graph has 62 nodes, more than --max-nodes 50" in error
    assert "--collapse" in error and "--max-nodes 62" in error
    assert not output.exists()
    # DOT needs no layout: it is written whatever the size.
    assert main(["view", str(chain), "--max-nodes", "50", "--format", "dot"]) == 0


def test_without_dot_the_dot_text_is_written_and_graphviz_named(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(dot_module, "dot_binary", lambda: None)
    monkeypatch.setattr("relay_xdsl.tools.drawing.dot_binary", lambda: None)
    output = tmp_path / "fused.svg"
    assert main(["view", str(FUSED), "-o", str(output)]) == 1
    error = capsys.readouterr().err
    assert "apt-get install graphviz" in error and str(tmp_path / "fused.dot") in error
    assert (tmp_path / "fused.dot").read_text().startswith("digraph")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--before", str(FUSED)], "--before and --after go together"),
        ([str(FUSED), "--before", str(FUSED), "--after", str(DEFUSED)], "not both"),
        ([str(FUSED), str(FUSED), str(FUSED)], "one module, or two"),
        ([str(FUSED), "-o", "x.png"], "cannot tell the format from 'x.png'"),
        (["no/such.relay"], "cannot read no/such.relay"),
    ],
)
def test_mistakes_are_clean_errors(capsys, arguments, message):
    assert main(["view", *arguments]) == 1
    assert message in capsys.readouterr().err


def test_a_bad_module_is_a_diagnostic(tmp_path, capsys):
    bad = tmp_path / "bad.relay"
    bad.write_text('#[version = "0.0.5"]\ndef @main(%x: Tensor[(4), float32]) { nn.relu(%y) }\n')
    assert main(["view", str(bad), "-o", str(tmp_path / "bad.svg")]) == 1
    assert f"{bad}:2:" in capsys.readouterr().err


def test_xdsl_opt_dot_target():
    result = subprocess.run(
        [
            str(Path(sys.executable).parent / "xdsl-opt"),
            str(DEFUSED),
            "-p",
            "relay-fuse-ops",
            "-t",
            "dot",
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("digraph relay {")
    assert result.stdout.count('subgraph "cluster_fn_') == 4
    assert 'label="fused_nn_conv2d_add_nn_relu"' in result.stdout


def test_a_large_fused_graph_is_refused_with_collapse_advice(tmp_path, capsys):
    module = tmp_path / "fused.mlir"
    assert main(["import", str(FUSED), "-o", str(module)]) == 0
    capsys.readouterr()
    assert main(["view", str(module), "--format", "svg", "--max-nodes", "5"]) == 1
    assert "--collapse to draw each of the 3 fused groups as one node" in capsys.readouterr().err
    assert main(["view", str(module), "--format", "svg", "--max-nodes", "5", "--collapse"]) == 1
    error = capsys.readouterr().err
    assert "--collapse" not in error and "fuse it first" not in error
    assert "--max-nodes 7 to render anyway" in error


def test_python_dash_m_reports_view_errors_without_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "relay_xdsl.tools.cli", "view", str(FUSED), "-o", "x.png"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 1
    assert result.stderr.startswith("error: cannot tell the format from 'x.png'")
    assert "Traceback" not in result.stderr


def test_a_large_file_far_over_max_nodes_is_refused_before_parsing(tmp_path, capsys, monkeypatch):
    chain = _chain(tmp_path, 60)
    monkeypatch.setattr("relay_xdsl.tools.drawing.SCAN_CHARS", 0)  # every file counts as large

    def not_parsed(source):
        raise AssertionError("the module was parsed")

    monkeypatch.setattr("relay_xdsl.tools.drawing.load_input", not_parsed)
    assert main(["view", str(chain), "-o", str(tmp_path / "chain.svg"), "--max-nodes", "50"]) == 1
    error = capsys.readouterr().err
    assert "the graph has at least 60 operators, more than --max-nodes 50" in error
    assert f"xdsl-opt {chain} -p relay-fuse-ops" in error and "--collapse" in error
    assert "--max-nodes 0 to render it" in error
    module = tmp_path / "fused.mlir"
    monkeypatch.undo()
    assert main(["import", str(FUSED), "-o", str(module)]) == 0
    monkeypatch.setattr("relay_xdsl.tools.drawing.SCAN_CHARS", 0)
    monkeypatch.setattr("relay_xdsl.tools.drawing.load_input", not_parsed)
    capsys.readouterr()
    assert main(["view", str(module), "--format", "svg", "--max-nodes", "5"]) == 1
    assert "--collapse to draw each of the 3 fused groups" in capsys.readouterr().err


def test_max_nodes_zero_is_no_limit(tmp_path):
    chain = _chain(tmp_path, 60)
    output = tmp_path / "chain.svg"
    assert main(["view", str(chain), "-o", str(output), "--max-nodes", "0"]) == 0
    assert output.read_text().count('class="node"') == 62
