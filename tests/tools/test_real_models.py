"""``relay-xdsl run`` on real Relay texts from TVM 0.19's ONNX frontend, with random
weights: finite outputs that agree across backends (all models: ``python -m bench.models``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from relay_xdsl.tools.cli import main

MENAGERIE = Path(__file__).resolve().parents[1] / "relay_corpus" / "tvm_v0.19"
ONNX_TEXTS = Path(__file__).resolve().parents[2] / "bench" / "tvm019" / "texts"
RELATIVE_TOLERANCE = {np.dtype(np.float32): 1e-3, np.dtype(np.float16): 5e-2}
"""Max |backend - interpreter| / max |interpreter|, by dtype (float16 rounds every sum)."""


def _run(model: str, backend: str, tmp_path: Path, text: Path | None = None) -> np.ndarray:
    """The one output of `text` (default: menangerie model `model`) on `backend`, finite."""
    text = text or MENAGERIE / f"menangerie__{model}__1.relay"
    out = tmp_path / f"{model}.{backend}.npz"
    args = ["run", str(text), "--backend", backend, "--random-inputs", "0"]
    assert main([*args, "--random-constants", "0", "-o", str(out)]) == 0
    with np.load(out) as saved:
        assert saved.files == ["output0"]
        output = saved["output0"]
    assert np.isfinite(output).all()
    return output


def _assert_agree(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    scale = float(np.abs(expected.astype(np.float64)).max())
    assert scale > 0
    error = float(np.abs(actual.astype(np.float64) - expected.astype(np.float64)).max())
    assert error / scale <= RELATIVE_TOLERANCE[expected.dtype]


@pytest.mark.slow
@pytest.mark.tvm
def test_mnist_on_every_backend(tmp_path: Path):
    expected = _run("mnist", "interpreter", tmp_path)
    assert expected.shape == (1, 10) and expected.dtype == np.float32
    assert np.ptp(expected) > 0  # the random weights give a non-trivial answer
    for backend in ("mlir", "tvm"):
        _assert_agree(_run("mnist", backend, tmp_path), expected)


@pytest.mark.slow
@pytest.mark.tvm
def test_onnx_mnist_with_its_pad_on_every_backend(tmp_path: Path):
    """TVM 0.19's from_onnx of a LeNet whose first padding is an ONNX Pad: nn.pad,
    nn.dense + add, reshape with -1 and softmax, as that frontend writes them."""
    text = ONNX_TEXTS / "mnist.relay"
    assert "nn.pad(" in text.read_text()
    expected = _run("mnist", "interpreter", tmp_path, text)
    assert expected.shape == (1, 10) and np.isclose(expected.sum(), 1, atol=1e-5)
    for backend in ("mlir", "tvm", "iree"):
        _assert_agree(_run("mnist", backend, tmp_path, text), expected)


@pytest.mark.slow
@pytest.mark.tvm
@pytest.mark.parametrize("model", ["mobilenet", "mobilenet_16"])
def test_mobilenet_through_the_interpreter_and_relax(model: str, tmp_path: Path):
    """Grouped convolutions and batch norms, in float32 and float16."""
    expected = _run(model, "interpreter", tmp_path)
    assert expected.shape == (1, 1000)
    assert expected.dtype == (np.float16 if model.endswith("_16") else np.float32)
    _assert_agree(_run(model, "tvm", tmp_path), expected)


@pytest.mark.slow
def test_onnx_gpt2_compiles_and_agrees_with_the_interpreter(tmp_path: Path):
    """TVM 0.19's from_onnx of the GPT-2-shaped decoder (12 blocks, batch matmuls, erf
    GELU, layer norms, reshape with -1): a gpt2-sized model compiled within the suite."""
    text = ONNX_TEXTS / "gpt2.relay"
    expected = _run("gpt2", "interpreter", tmp_path, text)
    assert np.ptp(expected) > 0
    _assert_agree(_run("gpt2", "mlir", tmp_path, text), expected)
