"""Pass pipelines as users type them: bare option words, ranges, the valid passes, warnings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from relay_xdsl.tools.pass_pipeline import check_pass_pipeline
from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE

ROOT = Path(__file__).resolve().parents[2]
XDSL_OPT = Path(sys.executable).parent / "xdsl-opt"
FUSED = ROOT / "examples" / "seed" / "fused.relay"


def _xdsl_opt(*arguments: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("RELAY_XDSL_TRACEBACK", None)
    return subprocess.run(
        [str(XDSL_OPT), *arguments],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("pipeline", "message", "column"),
    [
        (
            "relay-fuse-ops{max-depth=-1}",
            "option 'max-depth' of relay-fuse-ops must be at least 1, found -1",
            26,
        ),
        (
            "relay-fuse-ops{fuse-opt-level=-3}",
            "option 'fuse-opt-level' of relay-fuse-ops must be at least 0, found -3",
            31,
        ),
    ],
)
def test_numeric_options_are_range_checked(pipeline: str, message: str, column: int):
    error = check_pass_pipeline(pipeline, RELAY_UNIVERSE.all_passes)
    assert error is not None
    assert str(error).startswith(f"<pass pipeline>:1:{column}: error: {message}")


def test_an_unknown_pass_lists_the_valid_ones():
    error = check_pass_pipeline("foo", {**RELAY_UNIVERSE.all_passes, "cse": lambda: type})
    assert error is not None
    assert (
        "unknown pass 'foo' (valid passes: convert-relay-to-linalg, convert-relay-to-tosa, "
        "relay-defuse, relay-dynamic-to-static, relay-fold-constant, relay-fold-scale-axis, "
        "relay-fuse-ops, relay-infer-type, relay-merge-composite, relay-simplify-inference, "
        "and 1 of xDSL's, listed by `xdsl-opt --help`)"
    ) in str(error)


def test_xdsl_opt_reads_bare_option_words_and_quoted_ones(tmp_path: Path):
    """The README's command: an unquoted composite name with a dot, a comma list."""
    fused = tmp_path / "fused.mlir"
    fused.write_text(_xdsl_opt(str(FUSED)).stdout)
    outputs = set()
    for option in (
        "composite=ccompiler.conv_add_relu",
        'composite="ccompiler.conv_add_relu"',
        "composite=ccompiler.conv_add_relu,ccompiler.conv",
    ):
        result = _xdsl_opt(str(fused), "-p", f"relay-defuse{{{option}}}")
        assert result.returncode == 0, result.stderr
        assert "relay.fn" not in result.stdout
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_xdsl_opt_on_relay_lists_the_valid_passes(tmp_path: Path):
    fused = tmp_path / "fused.mlir"
    fused.write_text(_xdsl_opt(str(FUSED)).stdout)
    result = _xdsl_opt(str(fused), "-p", "foo")
    assert result.returncode == 1
    assert "unknown pass 'foo' (valid passes: convert-relay-to-linalg, " in result.stderr
    assert "Traceback" not in result.stderr


def test_xdsl_opt_rejects_out_of_range_options():
    result = _xdsl_opt(str(FUSED), "-p", "relay-fuse-ops{fuse-opt-level=-3}", "-t", "relay")
    assert result.returncode == 1
    assert "must be at least 0, found -3" in result.stderr
    assert "Traceback" not in result.stderr


def test_xdsl_opt_warns_of_a_composite_that_names_nothing():
    result = _xdsl_opt(str(FUSED), "-p", "relay-defuse{composite=typo.name}", "-t", "relay")
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "warning: relay-defuse: composite=typo.name names no function in the module; "
        "nothing inlined for it\n"
    )
    assert "Composite=" in result.stdout


def test_mlir_opt_output_read_as_mlir_gets_a_note():
    from xdsl.context import Context
    from xdsl.utils.exceptions import ParseError

    from relay_xdsl.tools.diagnostics import describe_parse_error, parse_mlir

    text = '"func.func"() ({\n}) {sym_name = "f", function_type = () -> ()} : () -> () loc(#loc)\n'
    with pytest.raises(ParseError) as error:
        parse_mlir(Context(allow_unregistered=True), text, "up.mlir")
    described = describe_parse_error(error.value)
    assert described.startswith("up.mlir:2:")
    assert "undefined symbol alias '#loc'" in described
    assert described.endswith("read mlir-opt's output with `xdsl-opt -f upstream-mlir`")


def test_xdsl_opt_reads_and_writes_as_mlir_opt_in_relay_runs(tmp_path: Path):
    """``-f`` reads a file of any name, ``-`` is stdin and ``-o -`` stdout."""
    model = tmp_path / "model.txt"
    model.write_text(FUSED.read_text())
    expected = _xdsl_opt(str(FUSED), "-t", "relay").stdout
    assert 'Composite="ccompiler.conv_add_relu"' in expected
    result = _xdsl_opt("-f", "relay", str(model), "-t", "relay", "-o", "-")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
    assert not (ROOT / "-").exists()
    with model.open() as stdin:
        result = subprocess.run(
            [str(XDSL_OPT), "-", "-f", "relay", "-t", "relay"],
            stdin=stdin,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=False,
        )
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


def test_a_file_whose_extension_names_no_frontend_needs_f():
    from relay_xdsl.tools.xdsl_opt.excepthook import describe_xdsl_opt_error

    error = ValueError("Unrecognized file extension 'txt'")
    assert describe_xdsl_opt_error(error, ["xdsl-opt", "model.txt", "-t", "relay"]) == (
        "error: unrecognized file extension 'txt'; use -f to choose a frontend"
    )
    # xDSL's own reading (without relay-xdsl's change) rejects it even with -f.
    assert describe_xdsl_opt_error(error, ["xdsl-opt", "-f", "relay", "model.txt"]) == (
        "error: unrecognized file extension 'txt': xdsl-opt reads a file only if its extension "
        "names a frontend, even with -f; read it from stdin (-f relay < model.txt) or rename it"
    )


def test_xdsl_opt_reads_an_unquoted_pattern_table(tmp_path: Path):
    """The README's ``patterns=my_patterns:TABLE``, bare, from the working directory."""
    (tmp_path / "my_patterns.py").write_text(
        "from relay_xdsl.transforms.patterns import is_op, wildcard\n"
        "conv = is_op('nn.conv2d')(wildcard(), wildcard())\n"
        "TABLE = [('my.conv_add_relu', is_op('nn.relu')(is_op('add')(conv, wildcard())))]\n"
    )
    defused = ROOT / "examples" / "seed" / "defused.relay"
    result = subprocess.run(
        [
            str(XDSL_OPT),
            str(defused),
            "-p",
            "relay-merge-composite{patterns=my_patterns:TABLE}",
            "-t",
            "relay",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.count('Composite="my.conv_add_relu"') == 2
