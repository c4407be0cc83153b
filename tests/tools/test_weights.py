"""Where a program's weights come from on the command line: ``--params FILE`` and
``--random-constants SEED`` on run, compile and export, and sizes refused before allocation."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.interpreter.params import bind_params, read_params
from relay_xdsl.tools.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "interpreter" / "fixtures"
TEXT = FIXTURES / "weights.relay"
SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"
HUGE = "Tensor[(100000, 100000, 100000), float32]"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.npy"
    np.save(path, np.random.RandomState(0).uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32))
    return path


def _expected(data: Path, params: Path) -> np.ndarray:
    module = parse_relay(TEXT.read_text())
    bind_params(module, read_params(params))
    return run(module, {"data": np.load(data)})[0]


def _output(path: Path) -> np.ndarray:
    with np.load(path) as saved:
        return saved["output0"]


@pytest.mark.parametrize("params", ["weights_tvm027.params", "weights.npz"])
def test_run_binds_the_files_weights(params: str, data: Path, tmp_path: Path):
    out = tmp_path / "out.npz"
    arguments = ["run", str(TEXT), "--params", str(FIXTURES / params), "--input", f"data={data}"]
    assert main([*arguments, "-o", str(out)]) == 0
    np.testing.assert_array_equal(_output(out), _expected(data, FIXTURES / params))


def test_the_compiled_program_gets_the_same_weights(data: Path, tmp_path: Path):
    if shutil.which("mlir-opt-22") is None:
        pytest.skip("needs LLVM 22's MLIR tools")
    params = FIXTURES / "weights_tvm027.params"
    out = tmp_path / "compiled.npz"
    arguments = ["run", str(TEXT), "--params", str(params), "--input", f"data={data}"]
    assert main([*arguments, "--backend", "mlir", "-o", str(out)]) == 0
    np.testing.assert_allclose(_output(out), _expected(data, params), rtol=1e-5, atol=1e-6)


def test_export_writes_the_weights_into_the_text(data: Path, tmp_path: Path):
    """The exported text carries the weights in its #[metadata] section: it runs on its own."""
    params = FIXTURES / "weights.npz"
    exported = tmp_path / "with_weights.relay"
    assert main(["export", str(TEXT), "--params", str(params), "-o", str(exported)]) == 0
    assert "#[metadata]" in exported.read_text()
    out = tmp_path / "out.npz"
    assert main(["run", str(exported), "--input", f"data={data}", "-o", str(out)]) == 0
    np.testing.assert_array_equal(_output(out), _expected(data, params))


def test_random_constants_exported_are_the_ones_run(tmp_path: Path):
    exported = tmp_path / "seed.relay"
    original = str(SEED / "original.relay")
    assert main(["export", original, "--random-constants", "0", "-o", str(exported)]) == 0
    drawn, given = tmp_path / "drawn.npz", tmp_path / "given.npz"
    assert (
        main(["run", original, "--random-constants", "0", "--random-inputs", "1", "-o", str(drawn)])
        == 0
    )
    assert main(["run", str(exported), "--random-inputs", "1", "-o", str(given)]) == 0
    np.testing.assert_array_equal(_output(drawn), _output(given))


def test_constants_missing_from_the_file_can_be_drawn(data: Path, tmp_path: Path):
    partial = tmp_path / "partial.npz"
    with np.load(FIXTURES / "weights.npz") as saved:
        np.savez(partial, **{k: saved[k] for k in saved if not k.startswith("meta")})
    arguments = ["run", str(TEXT), "--params", str(partial), "--input", f"data={data}"]
    assert main([*arguments, "--random-constants", "0"]) == 0


def _params(tmp_path: Path, **arrays: np.ndarray) -> str:
    path = tmp_path / "w.npz"
    with np.load(FIXTURES / "weights.npz") as saved:
        np.savez(path, **({k: saved[k] for k in saved} | arrays))
    return str(path)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            lambda tmp: ["--params", str(tmp / "nothing.npz")],
            "error: cannot read {tmp}/nothing.npz: No such file or directory",
        ),
        (
            lambda tmp: ["--params", str(TEXT)],
            f"error: {TEXT} is neither a TVM params file (save_param_dict) nor an .npz archive",
        ),
        (
            lambda tmp: ["--params", _params(tmp, conv_bais=np.zeros(3, "f4"))],
            "error: --params {tmp}/w.npz: conv_bais: not a parameter of @main",
        ),
        (
            lambda tmp: ["--params", _params(tmp, conv_bias=np.zeros(4, "f4"))],
            (
                "error: --params {tmp}/w.npz: conv_bias is (4,) float32, the parameter %conv_bias is "
                "(3,) float32"
            ),
        ),
        (
            lambda tmp: ["--params", _params(tmp, mask=np.zeros(3, "i4"))],
            "error: --params {tmp}/w.npz: mask is (3,) int32, the parameter %mask is (3,) bool",
        ),
    ],
)
def test_weights_that_do_not_fit_are_one_line_errors(
    arguments, message: str, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    command = ["run", str(TEXT), "--input", f"data={data}", *arguments(tmp_path)]
    assert main(command) == 1
    error = capsys.readouterr().err
    assert error.startswith(message.format(tmp=tmp_path)) and error.count("\n") == 1


def test_constants_missing_from_the_file_are_named(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    partial = tmp_path / "partial.npz"
    with np.load(FIXTURES / "weights.npz") as saved:
        np.savez(partial, **{k: saved[k] for k in saved if k != "meta[relay.Constant][1]"})
    for command in (["run", "--input", f"data={data}"], ["compile", "--emit", "tosa"], ["export"]):
        assert main([*command, str(TEXT), "--params", str(partial), "-o", "-"]) == 1
        assert capsys.readouterr().err == (
            f"error: --params {partial} has no array for meta[relay.Constant][1] "
            "(Tensor[(3), float16]), a constant without a value; add it to the file, or give "
            "--random-constants SEED to draw it\n"
        )
    only_parameters = tmp_path / "only_parameters.npz"
    with np.load(FIXTURES / "weights.npz") as saved:
        np.savez(only_parameters, **{k: saved[k] for k in saved if not k.startswith("meta")})
    assert main(["export", str(TEXT), "--params", str(only_parameters)]) == 1
    assert capsys.readouterr().err.startswith(
        f"error: --params {only_parameters} has no array for meta[relay.Constant][0] "
        "(Tensor[(3), float32]) and 2 more constants without values; add them to the file"
    )


@pytest.mark.parametrize(
    ("text", "arguments", "message"),
    [
        (
            f"def @main(%x: {HUGE}) {{ %x }}",
            ["--random-inputs", "0"],
            f"error: input %x: 4e+15 bytes ({HUGE}) is more than the ",
        ),
        (
            f"def @main() {{ meta[relay.Constant][0] /* ty={HUGE} */ }}",
            ["--random-constants", "0"],
            (
                f"error: --random-constants 0: meta[relay.Constant][0]: 4e+15 bytes ({HUGE}) is "
                "more than the "
            ),
        ),
    ],
)
def test_sizes_are_checked_before_anything_is_allocated(
    text: str, arguments: list[str], message: str, tmp_path: Path, capsys
):
    path = tmp_path / "huge.relay"
    path.write_text('#[version = "0.0.5"]\n' + text + "\n")
    assert main(["run", str(path), *arguments]) == 1
    error = capsys.readouterr().err
    assert error.startswith(message) and error.endswith(" GiB this machine has\n")
    assert error.count("\n") == 1
