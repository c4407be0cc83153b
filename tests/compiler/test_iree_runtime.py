"""IREE modules called from numpy, against numpy and the reference interpreter, on one
thread and on several."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.frontend import lower
from relay_xdsl.compiler.iree_build import DEVICES, build_vmfb
from relay_xdsl.compiler.iree_runtime import IreeModel, cpu_device
from relay_xdsl.compiler.program import program_from_mlir
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run

pytestmark = pytest.mark.heavy

pytest.importorskip("iree.runtime")

SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"
THREADS = 2
"""The task runtime's thread count in this process (IREE fixes it once per process)."""


def compiled(text: str, function: str, path: Path, weights=(), threads: int = 1) -> IreeModel:
    build_vmfb(program_from_mlir(text, function=function, weights=weights), path)
    return IreeModel.load(path, threads=threads)


def test_weights_follow_the_inputs(tmp_path: Path, tosa: SimpleNamespace):
    weights = tosa.dense_relu_weights()
    model = compiled(tosa.DENSE_RELU, "dense_relu", tmp_path / "m.vmfb", weights)
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    (actual,) = model(x)
    np.testing.assert_allclose(actual, tosa.dense_relu(x, *weights), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(model.run({"arg0": x})[0], actual)


def test_many_results_of_every_kind(tmp_path: Path, tosa: SimpleNamespace):
    model = compiled(tosa.MANY_RESULTS, "many", tmp_path / "many.vmfb")
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    perm, total_sum, total, positive, k_out, x_out = model(x, np.array(7, np.int32))
    np.testing.assert_array_equal(perm, x.T)
    np.testing.assert_array_equal(total_sum, x + [1.0, -1.0, 0.5])
    assert total.shape == () and total == x.sum()
    assert positive.dtype == np.bool_  # IREE returns bytes; the signature says bool
    np.testing.assert_array_equal(positive, np.broadcast_to([True, False, True], (2, 3)))
    assert k_out.dtype == np.int32 and k_out == 7
    np.testing.assert_array_equal(x_out, x)


def test_inputs_are_checked_against_the_signature(tmp_path: Path, tosa: SimpleNamespace):
    model = compiled(tosa.MANY_RESULTS, "many", tmp_path / "many.vmfb")
    with pytest.raises(CompileError, match=r"input arg0 is \(3, 2\) float32, the model takes"):
        model(np.zeros((3, 2), np.float32), np.array(0, np.int32))
    with pytest.raises(CompileError, match="missing input arg1"):
        model.run({"arg0": np.zeros((2, 3), np.float32)})


def test_a_gpu_module_on_the_cpu_is_a_clear_error(tmp_path: Path, tosa: SimpleNamespace):
    path = tmp_path / "cuda.vmfb"
    build_vmfb(program_from_mlir(tosa.MANY_RESULTS, function="many"), path, DEVICES["cuda"])
    with pytest.raises(CompileError, match=r"^IREE cannot load the module: .*not found"):
        IreeModel.load(path, threads=1)


def test_the_outputs_do_not_depend_on_the_thread_count(tmp_path: Path):
    """The seed's module (resnet18's first layers), random weights: one thread (local-sync)
    and the task runtime give the same bits, and the interpreter's values."""
    module = parse_relay((SEED / "defused.relay").read_text(), "defused.relay")
    program = lower(module, random_constants=0)
    path = tmp_path / "seed.vmfb"
    build_vmfb(program, path)
    data = np.random.RandomState(1).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    (one,) = IreeModel.load(path, threads=1)(data)
    (several,) = IreeModel.load(path, threads=THREADS)(data)
    np.testing.assert_array_equal(one, several)
    (expected,) = run(module, {"data": data})
    assert expected.std() > 0.01
    assert np.abs(one - expected).max() <= 1e-4 * np.abs(expected).max()


def test_a_process_runs_one_task_thread_count():
    assert cpu_device(THREADS) is cpu_device(THREADS)
    with pytest.raises(CompileError, match=f"already runs {THREADS} threads in this process"):
        cpu_device(THREADS + 1)
    with pytest.raises(CompileError, match="at least 1"):
        cpu_device(0)
