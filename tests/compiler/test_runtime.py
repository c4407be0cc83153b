"""Hand-written TOSA compiled into a library and called from numpy, against numpy."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler.artifact import Signature, TensorSpec
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.runtime import OPENMP_DEFAULTS, CompiledModel, copy_result, descriptor

Compile = Callable[..., CompiledModel]


def test_weights_follow_the_inputs(compile_mlir: Compile, tosa: SimpleNamespace):
    weights = tosa.dense_relu_weights()
    model = compile_mlir(tosa.DENSE_RELU, "dense_relu", weights)
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    (actual,) = model(x)
    np.testing.assert_allclose(actual, tosa.dense_relu(x, *weights), rtol=1e-6, atol=1e-6)
    assert model.signature.inputs == (("arg0", TensorSpec((2, 3), np.dtype("float32"))),)
    assert [w.shape for w in model.signature.weights] == [(1, 3, 4), (1, 1, 4)]


def test_loading_gives_the_openmp_runtime_short_spins_unless_set(
    compile_mlir: Compile, tosa: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("KMP_BLOCKTIME", raising=False)
    compile_mlir(tosa.DENSE_RELU, "dense_relu", tosa.dense_relu_weights())
    assert os.environ["KMP_BLOCKTIME"] == OPENMP_DEFAULTS["KMP_BLOCKTIME"] == "1"
    monkeypatch.setenv("KMP_BLOCKTIME", "infinite")
    compile_mlir(tosa.DENSE_RELU, "dense_relu", tosa.dense_relu_weights())
    assert os.environ["KMP_BLOCKTIME"] == "infinite"


def test_calls_neither_write_inputs_nor_keep_state(compile_mlir: Compile, tosa: SimpleNamespace):
    weights = tosa.dense_relu_weights()
    kept = [w.copy() for w in weights]
    model = compile_mlir(tosa.DENSE_RELU, "dense_relu", weights)
    x = np.ones((2, 3), np.float32)
    first = model(x)[0]
    for _ in range(50):  # each call frees its result
        np.testing.assert_array_equal(model(x)[0], first)
    np.testing.assert_array_equal(x, np.ones((2, 3), np.float32))
    for weight, copy in zip(weights, kept):
        np.testing.assert_array_equal(weight, copy)


def test_many_results_of_every_kind(compile_mlir: Compile, tosa: SimpleNamespace):
    model = compile_mlir(tosa.MANY_RESULTS, "many")
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    k = np.array(7, np.int32)
    perm, total_sum, total, positive, k_out, x_out = model(x, k)
    np.testing.assert_array_equal(perm, x.T)
    np.testing.assert_array_equal(total_sum, x + [1.0, -1.0, 0.5])
    assert total.shape == () and total == x.sum()
    assert positive.dtype == np.bool_
    np.testing.assert_array_equal(positive, np.broadcast_to([True, False, True], (2, 3)))
    assert k_out.dtype == np.int32 and k_out == 7
    # The library clones a returned argument with memrefCopy (its own, build.MEMREF_COPY_C).
    np.testing.assert_array_equal(x_out, x)
    x_out[0, 0] = 100  # a copy, not the input
    assert x[0, 0] == -2


def test_inputs_may_be_any_layout(compile_mlir: Compile, tosa: SimpleNamespace):
    model = compile_mlir(tosa.MANY_RESULTS, "many")
    x = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(model(x, np.array(0, np.int32))[5], x)
    np.testing.assert_array_equal(model.run({"arg0": x, "arg1": np.array(0, np.int32)})[0], x.T)


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ((), r"@many takes 2 inputs \(arg0, arg1\), 0 given"),
        (
            (np.zeros((3, 2), np.float32), np.array(0, np.int32)),
            r"input arg0 is \(3, 2\) float32, the model takes \(2, 3\) float32",
        ),
        (
            (np.zeros((2, 3), np.float64), np.array(0, np.int32)),
            r"input arg0 is \(2, 3\) float64, the model takes \(2, 3\) float32",
        ),
        (
            (np.zeros((2, 3), np.float32), np.array([0], np.int32)),
            r"input arg1 is \(1,\) int32, the model takes \(\) int32",
        ),
    ],
)
def test_bad_inputs_are_clear_errors(compile_mlir: Compile, tosa: SimpleNamespace, inputs, message):
    model = compile_mlir(tosa.MANY_RESULTS, "many")
    with pytest.raises(CompileError, match=message):
        model(*inputs)


def test_inputs_by_name(compile_mlir: Compile, tosa: SimpleNamespace):
    model = compile_mlir(tosa.MANY_RESULTS, "many")
    with pytest.raises(CompileError, match="missing input arg1"):
        model.run({"arg0": np.zeros((2, 3), np.float32)})
    with pytest.raises(CompileError, match="@many has no input z"):
        model.run({"arg0": np.zeros((2, 3), np.float32), "arg1": np.array(0, np.int32), "z": 0})


def test_a_library_needs_its_signature(
    compile_mlir: Compile, tosa: SimpleNamespace, tmp_path: Path
):
    compile_mlir(tosa.DENSE_RELU, "dense_relu", tosa.dense_relu_weights())
    library = tmp_path / "dense_relu.so"
    (tmp_path / "dense_relu.npz").unlink()
    with pytest.raises(CompileError, match="cannot read the weights of"):
        CompiledModel.load(library)
    (tmp_path / "dense_relu.json").write_text("{}")
    with pytest.raises(CompileError, match="is not a signature"):
        CompiledModel.load(library)
    (tmp_path / "dense_relu.json").unlink()
    with pytest.raises(CompileError, match="cannot read .*dense_relu.json, the signature of"):
        CompiledModel.load(library)


def test_the_function_must_be_in_the_library(
    compile_mlir: Compile, tosa: SimpleNamespace, tmp_path: Path
):
    compile_mlir(tosa.DENSE_RELU, "dense_relu", tosa.dense_relu_weights())
    data = json.loads((tmp_path / "dense_relu.json").read_text())
    data["function"] = "other"
    signature = Signature.from_json(data)
    with pytest.raises(CompileError, match="has no _mlir_ciface_other"):
        CompiledModel(tmp_path / "dense_relu.so", signature, tosa.dense_relu_weights())


def test_descriptors_round_trip_strided_views():
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    d = descriptor(np.ascontiguousarray(base))
    assert list(d.sizes) == [4, 6] and list(d.strides) == [6, 1] and d.offset == 0
    d.offset = 1  # a view of base[:, 1::2], as a library may return it
    d.sizes[1], d.strides[1] = 3, 2
    np.testing.assert_array_equal(
        copy_result(d, TensorSpec((4, 3), np.dtype("float32"))), base[:, 1::2]
    )
    with pytest.raises(CompileError, match=r"returned shape \(4, 3\), expected \(4, 4\)"):
        copy_result(d, TensorSpec((4, 4), np.dtype("float32")))
