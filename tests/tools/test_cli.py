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


def test_relax_export_of_opaque_constants_is_a_clean_error():
    result = _run("export", str(SEED / "defused.relay"), "--to", "relax-script")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "meta" in result.stderr
