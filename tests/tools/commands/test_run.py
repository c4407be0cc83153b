"""``relay-xdsl run``: inputs, printed and saved outputs, and clean errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from relay_xdsl.tools.cli import main
from relay_xdsl.tools.commands.run import format_outputs

PROGRAM = (
    '#[version = "0.0.5"]\n'
    "def @main(%x: Tensor[(2, 3), float32], %k: int32) {\n"
    '  (multiply(%x, cast(%k, dtype="float32")), %k)\n}\n'
)


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "program.relay"
    path.write_text(PROGRAM)
    np.save(tmp_path / "x.npy", np.arange(6, dtype=np.float32).reshape(2, 3))
    np.save(tmp_path / "k.npy", np.array(3, np.int32))
    return path


def test_prints_every_output(program: Path, capsys):
    x, k = program.parent / "x.npy", program.parent / "k.npy"
    assert main(["run", str(program), "--input", f"x={x}", "--input", f"%k={k}"]) == 0
    assert capsys.readouterr().out == (
        "output0: (2, 3) float32\n[[ 0.  3.  6.]\n [ 9. 12. 15.]]\noutput1: () int32\n3\n"
    )


def test_saves_the_outputs(program: Path, tmp_path: Path):
    out = tmp_path / "out.npz"
    assert main(["run", str(program), "--random-inputs", "4", "-o", str(out)]) == 0
    with np.load(out) as saved:
        assert sorted(saved) == ["output0", "output1"]
        assert saved["output1"].dtype == np.int32 and 0 <= saved["output1"] < 8


def test_big_arrays_print_summarised():
    text = format_outputs([("output0", np.zeros((100, 100), np.float32))])
    assert text.startswith("output0: (100, 100) float32\n[[0. 0. 0. ... 0. 0. 0.]")
    assert len(text.splitlines()) < 10


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "error: missing input x: give --input x=FILE.npy or --random-inputs SEED"),
        (
            ["--input", "x=k.npy", "--random-inputs", "0"],
            "error: input x is () int32, the parameter is (2, 3) float32",
        ),
        (["--input", "x=x.npy", "--input", "x=x.npy"], "error: --input x is given twice"),
        (["--input", "y=x.npy"], "error: --input y: the function has no parameter y"),
        (["--input", "x=archive.npz"], "archive.npz is an .npz archive, not a .npy file"),
        (["--input", "x=missing.npy"], "error: --input x: cannot read missing.npy"),
        (["--random-inputs", "0", "--function", "f"], "error: the module has no function @f"),
    ],
)
def test_user_mistakes_are_clean_errors(program: Path, capsys, monkeypatch, arguments, message):
    monkeypatch.chdir(program.parent)
    np.savez(program.parent / "archive.npz", a=np.zeros(1))
    assert main(["run", str(program), *arguments]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
