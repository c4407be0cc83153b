"""``relay-xdsl compile``, ``run --backend`` and ``check --backend``, on one
program: relu(x + c) with c a constant."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler.toolchain import shared_libs_option, tool
from relay_xdsl.tools.cli import main

PROGRAM = (
    '#[version = "0.0.5"]\n'
    "def @main(%x: Tensor[(2, 3), float32]) {\n"
    "  nn.relu(add(%x, meta[relay.Constant][0] /* ty=Tensor[(3), float32] */))\n"
    "}\n"
)


@pytest.fixture
def files(tmp_path: Path) -> SimpleNamespace:
    program = tmp_path / "program.relay"
    program.write_text(PROGRAM)
    x = tmp_path / "x.npy"
    np.save(x, np.array([[-2, -1, 0], [1, 2, 3]], np.float32))
    return SimpleNamespace(program=str(program), x=str(x), tmp=tmp_path)


def _main(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(list(arguments))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_run_with_each_backend_prints_the_same(
    files: SimpleNamespace, capsys: pytest.CaptureFixture[str]
):
    common = ("run", files.program, "--input", f"x={files.x}", "--random-constants", "3")
    status, interpreted, error = _main(capsys, *common)
    assert status == 0, error
    status, compiled, error = _main(capsys, *common, "--backend", "mlir")
    assert status == 0, error
    assert compiled == interpreted
    status, looped, error = _main(capsys, *common, "--backend", "mlir", "--no-schedule")
    assert status == 0, error
    assert looped == interpreted
    assert compiled.startswith("output0: (2, 3) float32\n")


@pytest.mark.tvm
def test_run_with_tvm(files: SimpleNamespace, capsys: pytest.CaptureFixture[str]):
    pytest.importorskip("tvm")
    common = ("run", files.program, "--random-inputs", "1", "--random-constants", "3")
    status, interpreted, error = _main(capsys, *common)
    assert status == 0, error
    status, built, error = _main(capsys, *common, "--backend", "tvm")
    assert status == 0, error
    assert built == interpreted


def test_compile_writes_a_library_and_states_the_pipeline(
    files: SimpleNamespace, capsys: pytest.CaptureFixture[str]
):
    from relay_xdsl.compiler.runtime import CompiledModel

    library = files.tmp / "model.so"
    status, out, error = _main(
        capsys, "compile", files.program, "-o", str(library), "--random-constants", "3",
        "--verbose", "--no-schedule",
    )  # fmt: skip
    assert status == 0, error
    assert out == ""
    assert "relay-xdsl: pipeline (mlir-opt stages):\n" in error
    assert "relay-xdsl:   loops: convert-linalg-to-loops\n" in error
    assert "relay-xdsl: running: " in error and "clang-22 -O3" in error
    model = CompiledModel.load(library)
    assert [name for name, _ in model.signature.inputs] == ["x"]
    assert model.signature.weights == ()  # a constant of 3 elements stays in the module
    (actual,) = model(np.load(files.x))
    status, out, error = _main(
        capsys, "run", files.program, "--input", f"x={files.x}", "--random-constants", "3",
        "-o", str(files.tmp / "expected.npz"),
    )  # fmt: skip
    with np.load(files.tmp / "expected.npz") as expected:
        np.testing.assert_array_equal(actual, expected["output0"])


def test_compile_keeps_objects_in_the_cache_unless_told_not_to(
    files: SimpleNamespace, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    cache = files.tmp / "cache"
    monkeypatch.setenv("RELAY_XDSL_CACHE", str(cache))
    common = ("compile", files.program, "--random-constants", "3", "-o")
    status, _, error = _main(capsys, *common, str(files.tmp / "a.so"), "--no-cache")
    assert status == 0, error
    assert not cache.exists()
    status, _, error = _main(capsys, *common, str(files.tmp / "b.so"))
    assert status == 0, error
    kept = sorted(cache.glob("objects/*/*.o"))
    assert len(kept) == 3  # the model's function, its one group, memrefCopy
    monkeypatch.setenv("RELAY_XDSL_CACHE", "off")
    status, _, error = _main(capsys, *common, str(files.tmp / "c.so"))
    assert status == 0, error
    assert sorted(cache.glob("objects/*/*.o")) == kept


def test_compile_emits_tosa_and_llvm(files: SimpleNamespace, capsys: pytest.CaptureFixture[str]):
    status, tosa, error = _main(
        capsys, "compile", files.program, "--emit", "tosa", "--random-constants", "3"
    )
    assert status == 0, error
    assert tosa.startswith('"builtin.module"() ({')
    assert '"tosa.add"(' in tosa and "bufferization.writable = false" in tosa
    status, llvm, error = _main(
        capsys, "compile", files.program, "--emit", "llvm", "--random-constants", "3"
    )
    assert status == 0, error
    assert "define void @_mlir_ciface_main(ptr " in llvm


def test_compile_emits_a_module_for_mlir_runner(
    files: SimpleNamespace, capsys: pytest.CaptureFixture[str]
):
    status, module, error = _main(
        capsys, "compile", files.program, "--emit", "runner", "--input", f"x={files.x}",
        "--random-constants", "3", "--no-schedule",
    )  # fmt: skip
    assert status == 0, error
    assert "llvm.func @main()" in module
    printed = subprocess.run(
        [tool("mlir-runner"), "-O3", "-e", "main", "-entry-point-result=void"]
        + [shared_libs_option()],
        input=module,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    outputs = files.tmp / "interpreted.npz"  # the same constant, as the interpreter draws it
    status, _, error = _main(
        capsys, "run", files.program, "--input", f"x={files.x}", "--random-constants", "3",
        "-o", str(outputs),
    )  # fmt: skip
    assert status == 0, error
    expected = np.load(outputs)["output0"]
    rows = printed.split("data = \n")[1].replace("[", "").replace("]", "").split(",")
    np.testing.assert_allclose(np.array(rows, np.float32).reshape(2, 3), expected, rtol=1e-5)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--emit", "so"], "error: --emit so writes a shared library: give -o FILE.so"),
        (["--emit", "tosa", "--random-inputs", "1"], "'--random-inputs' needs --emit runner"),
        (["--emit", "runner"], "error: missing input x: give --input x=FILE.npy"),
        (["--emit", "wasm"], "argument --emit: expected one of tosa, llvm, runner, so, vmfb"),
        (["--target", "iree", "--emit", "so"], "--target iree emits tosa, vmfb, not 'so'"),
        (["--emit", "vmfb"], "--target mlir emits tosa, llvm, runner, so, not 'vmfb'"),
        (["--iree-device", "cuda"], "'--iree-device' needs --target iree"),
        (["--target", "iree", "--threads", "2"], "'--threads' needs --target mlir"),
        (["--no-schedule", "--threads", "2"], "--no-schedule compiles plain loops, on one thread"),
        (["--threads", "0"], "argument --threads: must be at least 1, not '0'"),
    ],
)
def test_compile_errors(
    files: SimpleNamespace,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
):
    status, _, error = _main(
        capsys, "compile", files.program, "--random-constants", "3", *arguments
    )
    assert status == 1
    assert message in error


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--threads", "2"], "'--threads' needs --backend mlir or iree"),
        (["--backend", "tvm", "--threads", "2"], "'--threads' needs --backend mlir or iree"),
        (["--backend", "mlir", "--no-schedule", "--threads", "2"], "--no-schedule compiles"),
    ],
)
def test_run_threads_errors(
    files: SimpleNamespace,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
):
    status, _, error = _main(
        capsys, "run", files.program, "--random-inputs", "1", "--random-constants", "3", *arguments
    )
    assert status == 1
    assert message in error


CNN = (
    '#[version = "0.0.5"]\n'
    "def @main(%data: Tensor[(1, 3, 20, 20), float32]) {\n"
    "  %0 = nn.conv2d(%data, meta[relay.Constant][0] /* ty=Tensor[(16, 3, 3, 3), float32] */,"
    " padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
    "  %1 = nn.relu(nn.bias_add(%0, meta[relay.Constant][1] /* ty=Tensor[(16), float32] */));\n"
    "  %2 = nn.max_pool2d(%1, pool_size=[2, 2], strides=[2, 2]);\n"
    "  %3 = nn.conv2d(%2, meta[relay.Constant][2] /* ty=Tensor[(40, 16, 3, 3), float32] */,"
    " strides=[2, 2], padding=[1, 1, 1, 1], channels=40, kernel_size=[3, 3]);\n"
    "  %4 = nn.relu(%3);\n"
    "  %5 = nn.batch_flatten(nn.global_avg_pool2d(%4));\n"
    "  nn.softmax(nn.dense(%5, meta[relay.Constant][3] /* ty=Tensor[(50, 40), float32] */,"
    " units=50))\n"
    "}\n"
)
"""Convolutions (a row each thread), a pool, a dense product of 50 columns (a panel of 32
each thread, and one of 18)."""

MATMULS = (
    '#[version = "0.0.5"]\n'
    "def @main(%x: Tensor[(3, 20, 72), float32]) {\n"
    "  %0 = reshape(%x, newshape=[60, 72]);\n"
    "  %1 = nn.relu(nn.dense(%0, meta[relay.Constant][0] /* ty=Tensor[(100, 72), float32] */,"
    " units=100));\n"
    "  %2 = reshape(%1, newshape=[3, 20, 100]);\n"
    "  %3 = nn.batch_matmul(%2, %2, transpose_b=True);\n"
    "  nn.batch_matmul(nn.softmax(%3), %x, transpose_b=False)\n"
    "}\n"
)
"""Dense and batch products with remainders in every dimension, and a softmax."""


@pytest.mark.heavy
@pytest.mark.parametrize("program", [CNN, MATMULS], ids=["cnn", "matmuls"])
def test_run_with_mlir_on_two_threads_prints_the_same(
    program: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """The threads share out the outer parallel loops only: every output is computed as
    on one thread, bit for bit; and a library of one thread needs no OpenMP runtime."""
    source = tmp_path / "program.relay"
    source.write_text(program)
    common = ("--random-inputs", "1", "--random-constants", "0")
    outputs = {}
    for threads in ("1", "2"):
        path = tmp_path / f"threads{threads}.npz"
        status, _, error = _main(
            capsys, "run", str(source), *common, "--backend", "mlir", "--threads", threads,
            "-o", str(path),
        )  # fmt: skip
        assert status == 0, error
        with np.load(path) as saved:
            outputs[threads] = saved["output0"]
    np.testing.assert_array_equal(outputs["2"], outputs["1"])
    status, _, error = _main(capsys, "run", str(source), *common, "-o", str(tmp_path / "i.npz"))
    assert status == 0, error
    with np.load(tmp_path / "i.npz") as interpreted:
        np.testing.assert_allclose(outputs["1"], interpreted["output0"], rtol=1e-5, atol=1e-5)
    for threads in ("1", "2"):
        library = tmp_path / f"threads{threads}.so"
        status, _, error = _main(
            capsys, "compile", str(source), "--random-constants", "0", "--threads", threads,
            "-o", str(library),
        )  # fmt: skip
        assert status == 0, error
        assert (b"libomp.so" in library.read_bytes()) == (threads == "2")


@pytest.mark.heavy
def test_run_with_iree_prints_the_same(files: SimpleNamespace, capsys: pytest.CaptureFixture[str]):
    pytest.importorskip("iree.runtime")
    common = ("run", files.program, "--input", f"x={files.x}", "--random-constants", "3")
    status, interpreted, error = _main(capsys, *common)
    assert status == 0, error
    for threads in ("1", "2"):
        status, compiled, error = _main(capsys, *common, "--backend", "iree", "--threads", threads)
        assert status == 0, error
        assert compiled == interpreted


@pytest.mark.heavy
def test_compile_for_iree_writes_a_module(
    files: SimpleNamespace, capsys: pytest.CaptureFixture[str]
):
    pytest.importorskip("iree.runtime")
    from relay_xdsl.compiler.iree_runtime import IreeModel

    module = files.tmp / "model.vmfb"
    status, out, error = _main(
        capsys, "compile", files.program, "--target", "iree", "-o", str(module),
        "--random-constants", "3", "--verbose",
    )  # fmt: skip
    assert status == 0, error
    assert out == ""
    assert "relay-xdsl: running: iree-compile - --iree-input-type=tosa" in error
    (actual,) = IreeModel.load(module, threads=1)(np.load(files.x))
    status, _, error = _main(
        capsys, "run", files.program, "--input", f"x={files.x}", "--random-constants", "3",
        "-o", str(files.tmp / "expected.npz"),
    )  # fmt: skip
    with np.load(files.tmp / "expected.npz") as expected:
        np.testing.assert_array_equal(actual, expected["output0"])
    status, _, error = _main(
        capsys, "compile", files.program, "--target", "iree", "-o", "-", "--random-constants", "3"
    )
    assert status == 1
    assert error == "error: --emit vmfb writes an IREE module: give -o FILE.vmfb\n"


def test_the_command_offers_the_devices_of_iree_build():
    from relay_xdsl.compiler.iree_build import DEVICES
    from relay_xdsl.tools.commands.compile import IREE_DEVICES

    assert IREE_DEVICES == tuple(DEVICES)


@pytest.mark.parametrize(
    "arguments",
    [
        ["compile", "--target", "iree", "-o", "model.vmfb"],
        ["run", "--backend", "iree", "--random-inputs", "0"],
    ],
)
def test_without_iree_one_line_names_the_extra(
    files: SimpleNamespace,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    arguments: list[str],
):
    monkeypatch.setitem(sys.modules, "iree.compiler", None)  # import fails
    command, *options = arguments
    status, _, error = _main(capsys, command, files.program, "--random-constants", "3", *options)
    assert status == 1
    assert error == (
        "error: IREE is not installed (iree.compiler); "
        "install it with: pip install 'relay-xdsl[iree]'\n"
    )


def test_constants_without_values_need_random_constants(
    files: SimpleNamespace, capsys: pytest.CaptureFixture[str]
):
    status, _, error = _main(
        capsys, "run", files.program, "--random-inputs", "0", "--backend", "mlir"
    )
    assert status == 1
    assert "--random-constants SEED for random ones" in error


@pytest.mark.slow
@pytest.mark.tvm
def test_check_resnet18_compiled_against_torch(tmp_path: Path):
    """The real conversion: resnet18 through fusion, lowering, compiling (with upstream MLIR,
    then with IREE), running."""
    pytest.importorskip("relay_xdsl.conversion.program")
    pytest.importorskip("tvm")
    bin_ = Path(sys.executable).parent
    model = tmp_path / "resnet18.mlir"
    subprocess.run(
        [
            str(bin_ / "relay-xdsl"),
            "import-torch",
            "resnet18",
            "--fuse",
            "fuse-ops",
            "-o",
            str(model),
        ],
        check=True,
    )
    backends = [["mlir"]]
    try:
        import iree.compiler  # noqa: F401

        backends.append(["iree", "--threads", "2"])
    except ImportError:  # the iree extra: make installs it
        pass
    for backend in backends:
        result = subprocess.run(
            [
                str(bin_ / "relay-xdsl"),
                "check",
                str(model),
                "--backend",
                *backend,
                "--against-torch",
                "resnet18",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert "max abs error" in result.stdout and result.stdout.rstrip().endswith("OK")


def test_iree_gets_convolutions_with_copied_taps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """A 3x3 conv by known filters into 14x14 pixels, dilated (not Winograd's),
    reads its taps in place for upstream MLIR (no concatenation), and copies
    them side by side for IREE."""
    pytest.importorskip("iree.compiler")
    weight = np.random.default_rng(0).standard_normal((16, 8, 3, 3), dtype=np.float32)
    known = '"0x' + weight.astype("<f4").tobytes().hex().upper() + '"'
    x, w, out = "tensor<1x8x14x14xf32>", "tensor<16x8x3x3xf32>", "tensor<1x16x14x14xf32>"
    program = tmp_path / "conv.mlir"
    program.write_text(
        f"""builtin.module {{
  func.func @main(%x: {x}) -> {out} {{
    %w = relay.constant dense<{known}> : {w}
    %r = relay.nn.conv2d(%x, %w) {{channels = 16 : i32, kernel_size = array<i32: 3, 3>,
      dilation = array<i32: 2, 2>, padding = array<i32: 2, 2, 2, 2>}} : ({x}, {w}) -> {out}
    func.return %r : {out}
  }}
}}
"""
    )
    status, upstream, error = _main(capsys, "compile", str(program), "--emit", "tosa")
    assert status == 0, error
    assert '"tosa.concat"' not in upstream
    status, iree, error = _main(
        capsys, "compile", str(program), "--target", "iree", "--emit", "tosa"
    )
    assert status == 0, error
    assert '"tosa.concat"' in iree
