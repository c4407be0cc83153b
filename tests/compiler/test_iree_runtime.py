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

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed"
MOBILENET_V2_16 = ROOT / "bench" / "tvm019" / "texts" / "mobilenet_v2_16.relay"
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


def against_the_interpreter(module, path: Path, inputs: dict[str, np.ndarray]) -> tuple:
    """IREE's outputs of `module` (random constants from seed 0) on one thread, and the
    interpreter's."""
    program = lower(module, random_constants=0)
    build_vmfb(program, path)
    return IreeModel.load(path, threads=1).run(inputs), run(module, inputs)


@pytest.mark.parametrize("operator", ["nn.softmax", "nn.log_softmax", "nn.fast_softmax"])
def test_float16_softmax_links_and_runs(tmp_path: Path, operator: str):
    """Along the innermost axis, which IREE raises to its softmax op (whose float16
    maximum was a call of libm's fmaxf, which its linker lacks)."""
    text = f"def @main(%x: Tensor[(3, 37), float16]) {{ {operator}(%x) }}"
    x = (np.random.default_rng(2).standard_normal((3, 37)) * 3).astype(np.float16)
    (actual,), (expected,) = against_the_interpreter(
        parse_relay(text), tmp_path / "s.vmfb", {"x": x}
    )
    assert actual.dtype == np.float16
    np.testing.assert_allclose(actual, expected, rtol=2e-3, atol=2e-3)


def test_mobilenet_v2_float16_with_a_softmax(tmp_path: Path):
    """TVM's float16 mobilenet_v2 (random weights), its logits through a softmax: float16
    rounding apart, the interpreter's probabilities."""
    head, found, tail = MOBILENET_V2_16.read_text().rpartition("\n  add(%154, ")
    assert found, "the network's last line moved"
    line, _, after = tail.partition("\n")
    text = f"{head}\n  %155 = add(%154, {line};\n  nn.softmax(%155)\n{after}"
    module = parse_relay(text, MOBILENET_V2_16.name)
    data = np.random.default_rng(3).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    (actual,), (expected,) = against_the_interpreter(module, tmp_path / "m.vmfb", {"input": data})
    assert actual.shape == (1, 1000) and expected.max() > 10 * expected.min()
    assert actual.argmax() == expected.argmax()
    # float16 rounds each of 53 layers, IREE's fused ones in float32 within: the logits
    # differ by about 0.04 (of 5), the probabilities by about 4 %
    np.testing.assert_allclose(actual, expected, rtol=0.1, atol=1e-3 * expected.max())
