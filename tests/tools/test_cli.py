"""The relay-xdsl command and xdsl-opt integration, run as users run them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed"
BIN = Path(sys.executable).parent


def _run(*args: str, tool: str = "relay-xdsl") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / tool), *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_import_defuse_export_compare(tmp_path: Path):
    mlir = tmp_path / "fused.mlir"
    assert _run("import", str(SEED / "fused.relay"), "-o", str(mlir)).returncode == 0
    assert "relay.fn(" in mlir.read_text()
    defused_mlir = tmp_path / "defused.mlir"
    assert _run("defuse", str(mlir), "-o", str(defused_mlir)).returncode == 0
    assert "relay.fn(" not in defused_mlir.read_text()
    out = tmp_path / "defused.relay"
    assert _run("export", str(defused_mlir), "--to", "relay", "-o", str(out)).returncode == 0
    result = _run("compare", str(SEED / "defused.relay"), str(out))
    assert result.returncode == 0, result.stderr
    assert "same program" in result.stdout


def test_compare_reports_a_difference():
    result = _run("compare", str(SEED / "fused.relay"), str(SEED / "defused.relay"))
    assert result.returncode == 1
    assert "differs" in result.stderr and "---" in result.stderr


def test_bad_relay_is_a_clean_error(tmp_path: Path):
    bad = tmp_path / "bad.relay"
    bad.write_text(
        '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.relu(%y)\n}\n'
    )
    for result in (
        _run("import", str(bad)),
        _run("defuse", str(bad)),
        _run(str(bad), tool="xdsl-opt"),
    ):
        assert result.returncode == 1
        assert f"{bad}:3:11: error: unknown variable %y" in result.stderr
        assert "Traceback" not in result.stderr


def test_missing_file_is_a_clean_error():
    result = _run("import", "no/such/file.relay")
    assert result.returncode == 1
    assert result.stderr.startswith("error: cannot read no/such/file.relay")
    assert "Traceback" not in result.stderr


def test_bad_mlir_is_a_clean_error(tmp_path: Path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = relay.nn.relu(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n"
    )
    result = _run("export", str(bad))
    assert result.returncode == 1
    assert "'nn.relu' expects 1 argument(s), got 2" in result.stderr
    assert "Traceback" not in result.stderr


def test_xdsl_opt_relay_frontend_and_target():
    result = _run(str(SEED / "fused.relay"), "-p", "relay-defuse", "-t", "relay", tool="xdsl-opt")
    assert result.returncode == 0, result.stderr
    assert "fn (" not in result.stdout
    assert result.stdout.startswith('#[version = "0.0.5"]\ndef @main(%data')


def test_help_lists_the_commands():
    result = _run("--help")
    assert result.returncode == 0
    for command in ("import", "export", "defuse", "compare"):
        assert command in result.stdout


@pytest.mark.slow
def test_torch_import_fuse_defuse_check(tmp_path: Path):
    fused = tmp_path / "fused.mlir"
    result = _run("import-torch", "squeezenet1_0", "--fuse", "conv2d-add-relu", "-o", str(fused))
    assert result.returncode == 0, result.stderr
    assert fused.read_text().count('Composite = "ccompiler.conv_add_relu"') == 26
    by_tvm = tmp_path / "fused_by_tvm.mlir"
    result = _run(
        "import-torch",
        "squeezenet1_0",
        "--fuse",
        "conv2d-add-relu",
        "--fuser",
        "tvm",
        "-o",
        str(by_tvm),
    )
    assert result.returncode == 0, result.stderr
    assert by_tvm.read_text().count('Composite = "ccompiler.conv_add_relu"') == 26
    defused = tmp_path / "defused.mlir"
    assert _run("defuse", str(fused), "-o", str(defused)).returncode == 0
    assert "relay.fn" not in defused.read_text()
    result = _run("check", str(defused), "--against-torch", "squeezenet1_0")
    assert result.returncode == 0, result.stderr
    assert re.search(r"max abs error [0-9.e+-]+ \(atol 0.0001\): OK", result.stdout)
    script = _run("export", str(defused), "--to", "relax-script")
    assert script.returncode == 0, script.stderr
    assert "R.nn.conv2d" in script.stdout and "@R.function" in script.stdout


def test_torch_commands_reject_unknown_models():
    result = _run("import-torch", "not_a_model")
    assert result.returncode == 1
    assert "'not_a_model' is not a torchvision model" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["import-torch", "resnet1", "-o", "x.mlir"],
            "error: 'resnet1' is not a torchvision model",
        ),
        (
            ["check", str(SEED / "fused.relay"), "--against-torch", "resnet1"],
            "error: 'resnet1' is not a torchvision model",
        ),
        (
            ["check", str(SEED / "fused.relay"), "--against-torch", "resnet18"],
            "error: constant meta[relay.Constant][0] has no value",
        ),
    ],
)
def test_model_names_and_missing_values_are_rejected_before_torch_loads(
    arguments: list[str], message: str
):
    """Importing PyTorch takes seconds: these mistakes are found without it."""
    script = (
        "import sys\n"
        "from relay_xdsl.tools.cli import main\n"
        f"status = main({arguments!r})\n"
        "print(status, [m for m in ('torch', 'torchvision', 'tvm') if m in sys.modules])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert result.stdout == "1 []\n", result.stderr
    assert message in result.stderr


def test_relax_export_of_opaque_constants_is_a_clean_error():
    result = _run("export", str(SEED / "defused.relay"), "--to", "relax-script")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "meta" in result.stderr


# -- as MLIR users expect -----------------------------------------------------------------


def test_no_arguments_list_the_subcommands():
    result = _run()
    assert result.returncode == 1
    for command in ("import", "export", "defuse", "compare", "import-torch", "check"):
        assert f"    {command}" in result.stderr


def test_version():
    result = _run("--version")
    assert result.returncode == 0
    assert re.fullmatch(r"relay-xdsl \S+ \(xdsl 0\.75\.0\)\n", result.stdout)


def _run_stdin(text: str, *args: str, tool: str = "relay-xdsl") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / tool), *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_relay_text_under_any_name_or_from_stdin(tmp_path: Path):
    text = (SEED / "fused.relay").read_text()
    expected = _run("import", str(SEED / "fused.relay")).stdout
    assert expected.startswith("builtin.module")
    other = tmp_path / "model.txt"
    other.write_text(text)
    assert _run("import", str(other)).stdout == expected  # by its first words
    assert _run("import", "--from", "relay", str(other)).stdout == expected
    assert _run_stdin(text, "import", "-").stdout == expected
    defused = _run_stdin(text, "defuse", "--from", "relay", "-", "-o", "-")
    assert defused.returncode == 0, defused.stderr
    assert defused.stdout.startswith('#[version = "0.0.5"]')  # the input's format
    mlir = _run_stdin(expected, "export", "-")
    assert mlir.returncode == 0, mlir.stderr
    assert mlir.stdout.startswith('#[version = "0.0.5"]')


def test_dash_output_is_stdout(tmp_path: Path):
    result = subprocess.run(
        [str(BIN / "relay-xdsl"), "import", str(SEED / "fused.relay"), "-o", "-"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("builtin.module")
    assert not (tmp_path / "-").exists()


def test_compare_is_by_graph_and_by_text_with_text(tmp_path: Path):
    header = '#[version = "0.0.5"]\n'
    inline = tmp_path / "inline.relay"
    inline.write_text(
        header + "def @main(%x: Tensor[(2), float32]) {\n  negative(negative(%x))\n}\n"
    )
    temps = tmp_path / "temps.relay"
    temps.write_text(
        header
        + "def @main(%y: Tensor[(2), float32]) {\n  let %t = negative(%y);\n  negative(%t)\n}\n"
    )
    printed = tmp_path / "printed.relay"
    _run("defuse", str(inline), "-o", str(printed))  # Relay text as the printer writes it
    assert "%0 = negative(%x)" in printed.read_text()
    for other in (printed, temps):
        result = _run("compare", str(inline), str(other))
        assert result.returncode == 0, result.stderr
        assert "the same program (the same dataflow graph)" in result.stdout
    result = _run("compare", "--text", str(inline), str(printed))
    assert result.returncode == 1
    assert "+%0 = negative ( %x ) ;" in result.stderr
    different = tmp_path / "different.relay"
    different.write_text(header + "def @main(%x: Tensor[(2), float32]) {\n  negative(%x)\n}\n")
    result = _run("compare", str(inline), str(different))
    assert result.returncode == 1
    assert "differs from" in result.stderr and "relay.negative" in result.stderr


def test_a_misspelt_operator_is_unknown_with_a_suggestion():
    text = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  nn.reluu(%x)\n}\n'
    result = _run_stdin(text, "import", "-")
    assert result.returncode == 1
    assert result.stderr.startswith(
        "<stdin>:3:3: error: unknown operator 'nn.reluu'; did you mean 'nn.relu'"
    )


def test_a_composite_that_names_nothing_is_a_warning():
    result = _run("defuse", str(SEED / "fused.relay"), "--composite", "typo.name")
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "warning: relay-defuse: composite=typo.name names no function in the module; "
        "nothing inlined for it\n"
    )


def test_export_errors_point_at_the_op(tmp_path: Path):
    arith = tmp_path / "arith.mlir"
    arith.write_text("func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n")
    for result in (_run("export", str(arith)), _run(str(arith), "-t", "relay", tool="xdsl-opt")):
        assert result.returncode == 1
        assert result.stderr.startswith(
            f"{arith}:1:1: error: 'func.func' op: type i32 has no Relay equivalent\n"
        )
    # From stdin, or after a pass, the op is not where the input has it: it is shown as it is.
    for result in (
        _run_stdin(arith.read_text(), "-t", "relay", tool="xdsl-opt"),
        _run(str(arith), "-p", "canonicalize", "-t", "relay", tool="xdsl-opt"),
    ):
        assert result.returncode == 1
        assert result.stderr == (
            "<input>: error: 'func.func' op: type i32 has no Relay equivalent\n"
            "  func.func @f(%a: i32) -> i32 {\n"
        )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["import-torch", "resnet18", "--fuser", "tvm", "-o", "x.mlir"],
            "argument --fuser: 'tvm' does nothing without --fuse",
        ),
        (
            ["import-torch", "resnet18", "--fuse", "fuse-ops", "--fuser", "tvm", "-o", "x.mlir"],
            "argument --fuser: 'tvm' does nothing with --fuse fuse-ops",
        ),
        (
            ["import-torch", "resnet18", "--input-shape", "1,x", "-o", "x.mlir"],
            "argument --input-shape: expected positive integers separated by commas, found '1,x'",
        ),
        (
            ["export", "m.mlir", "--show-meta"],
            "argument --show-meta: only with '--to relax-script'",
        ),
    ],
)
def test_arguments_are_checked_before_any_work(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
):
    from relay_xdsl.tools.cli import main

    assert main(arguments) == 1
    error = capsys.readouterr().err
    assert error.startswith("<command line>:1:") and message in error


def test_import_torch_does_not_print_a_model_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    from relay_xdsl.tools.cli import main

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    assert main(["import-torch", "resnet18"]) == 1
    assert (
        "give -o FILE.mlir, or -o - to print it on the terminal anyway" in capsys.readouterr().err
    )


def test_relax_export_without_values_asks_for_random_constants():
    result = _run("export", str(SEED / "fused.relay"), "--to", "relax-script")
    assert result.returncode == 1
    assert result.stderr == (
        "error: constant meta[relay.Constant][0] has no value (the Relay text had no "
        "#[metadata] section); give --params FILE for its weights or --random-constants SEED "
        "for random ones\n"
    )


@pytest.mark.tvm
def test_relax_export_with_random_constants_and_metadata():
    pytest.importorskip("tvm")
    plain = _run(
        "export", str(SEED / "fused.relay"), "--to", "relax-script", "--random-constants", "0"
    )
    assert plain.returncode == 0, plain.stderr
    assert "R.nn.conv2d" in plain.stdout and "Metadata omitted" in plain.stdout
    assert "BlockBuilder" not in plain.stderr
    shown = _run(
        "export",
        str(SEED / "fused.relay"),
        "--to",
        "relax-script",
        "--random-constants",
        "0",
        "--show-meta",
    )
    assert shown.returncode == 0, shown.stderr
    script, omitted, _ = plain.stdout.partition("# Metadata omitted.")
    assert omitted and shown.stdout.startswith(script)
    assert "Metadata omitted" not in shown.stdout
    assert '# metadata["ir.GenericConst"][0]: float32[64, 3, 7, 7]' in shown.stdout
    assert '# metadata["ir.GenericConst"][5]: float32[64, 1, 1]' in shown.stdout


@pytest.mark.slow
@pytest.mark.tvm
def test_check_on_the_seed_with_random_constants():
    """The seed's constants get values; then the check compares it with the model."""
    pytest.importorskip("tvm")
    result = _run(
        "check", str(SEED / "fused.relay"), "--against-torch", "resnet18", "--random-constants", "0"
    )
    assert result.returncode == 1
    assert "has no value" not in result.stderr
    assert "output shape (1, 64, 56, 56) differs from PyTorch's (1, 1000)" in result.stderr
