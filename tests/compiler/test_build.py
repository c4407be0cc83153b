"""A program to a shared library: the generic text, the tools' steps, the artifact, errors."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler.build import (
    build,
    compile_library,
    generic_text,
    internalized,
    lower_to_llvm_dialect,
    translate_to_llvm_ir,
)
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.pipeline import BASELINE, SCRIPT, Schedule, Stage
from relay_xdsl.compiler.program import program_from_mlir
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.compiler.toolchain import ToolFailure

NOTHING_TO_DO = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
"""


def _script_schedule(script: str) -> Schedule:
    return Schedule(
        "test",
        script,
        {
            "schedule": (
                Stage(
                    "schedule",
                    (
                        f"transform-preload-library{{transform-library-paths={SCRIPT}}}",
                        "transform-interpreter",
                    ),
                ),
            )
        },
    )


def test_writes_the_library_its_signature_and_weights(tmp_path: Path, tosa: SimpleNamespace):
    weights = tosa.dense_relu_weights()
    program = program_from_mlir(tosa.DENSE_RELU, function="dense_relu", weights=weights)
    signature = build(program, tmp_path / "model.so")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json", "model.npz", "model.so"]
    assert (
        json.loads((tmp_path / "model.json").read_text())
        == signature.to_json()
        == {
            "function": "dense_relu",
            "inputs": [{"name": "arg0", "shape": [2, 3], "dtype": "float32"}],
            "weights": [
                {"shape": [1, 3, 4], "dtype": "float32"},
                {"shape": [1, 1, 4], "dtype": "float32"},
            ],
            "outputs": [{"shape": [2, 4], "dtype": "float32"}],
        }
    )
    with np.load(tmp_path / "model.npz") as saved:
        np.testing.assert_array_equal(saved["arr_1"], weights[1])


def test_no_weights_no_npz(tmp_path: Path, tosa: SimpleNamespace):
    (tmp_path / "many.npz").write_bytes(b"stale")
    build(program_from_mlir(tosa.MANY_RESULTS, function="many"), tmp_path / "many.so")
    assert not (tmp_path / "many.npz").exists()


def test_generic_text_marks_the_arguments_read_only(tosa: SimpleNamespace):
    program = program_from_mlir(tosa.MANY_RESULTS, function="many")
    text = generic_text(program)
    assert text.startswith('"builtin.module"() ({\n  "func.func"() <{')
    assert (
        "arg_attrs = [{bufferization.writable = false}, {bufferization.writable = false}]" in text
    )
    assert '"tosa.transpose"(' in text
    assert program.module.ops.first.arg_attrs is None  # the program's module is left alone


def test_the_steps_one_by_one(tmp_path: Path, tosa: SimpleNamespace):
    program = program_from_mlir(tosa.DENSE_RELU, function="dense_relu", weights=[])
    llvm_dialect = lower_to_llvm_dialect(generic_text(program), BASELINE)
    assert "llvm.func @_mlir_ciface_dense_relu(" in llvm_dialect
    llvm_ir = translate_to_llvm_ir(llvm_dialect)
    assert "define void @_mlir_ciface_dense_relu(ptr" in llvm_ir
    compile_library(llvm_ir, tmp_path / "lib.so", native=False)
    assert (tmp_path / "lib.so").read_bytes()[:4] == b"\x7fELF"


def test_states_the_pipeline_and_shows_progress(tmp_path: Path, tosa: SimpleNamespace):
    program = program_from_mlir(tosa.MANY_RESULTS, function="many")
    logged: list[str] = []
    steps: list[str] = []

    @contextlib.contextmanager
    def step(what: str):
        steps.append(what)
        yield

    build(program, tmp_path / "many.so", cache=False, step=step, log=logged.append)
    assert logged[0].startswith("pipeline (mlir-opt stages):\n  tosa-to-linalg: ")
    commands = [line.partition(": ")[2].split()[0].rsplit("/")[-1] for line in logged[1:]]
    assert commands == ["mlir-opt-22", "mlir-translate-22", "clang-22", "clang-22"]
    assert [line.split(":")[0] for line in logged[1:]] == ["running (each unit)"] * 3 + ["running"]
    assert logged[-1].endswith("-o " + str(tmp_path / "many.so"))
    assert steps == [
        "printing the module as generic MLIR, in units",
        "compiling 1 unit with mlir-opt-22, mlir-translate-22 and clang-22",
        "linking many.so with clang-22",
    ]


def test_a_schedule_runs_its_script(tmp_path: Path, tosa: SimpleNamespace):
    weights = tosa.dense_relu_weights()
    program = program_from_mlir(tosa.DENSE_RELU, function="dense_relu", weights=weights)
    build(program, tmp_path / "model.so", schedule=_script_schedule(NOTHING_TO_DO))
    x = np.ones((2, 3), np.float32)
    np.testing.assert_allclose(
        CompiledModel.load(tmp_path / "model.so")(x)[0], tosa.dense_relu(x, *weights), rtol=1e-6
    )
    broken = _script_schedule(NOTHING_TO_DO.replace("transform.yield", "transform.bogus"))
    with pytest.raises(ToolFailure, match="transform.bogus"):
        build(program, tmp_path / "broken.so", schedule=broken)


def test_upstream_errors_come_back_with_their_message(tmp_path: Path):
    text = """
    func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> attributes {llvm.emit_c_interface} {
      %0 = "tosa.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
      func.return %0 : tensor<3xf32>
    }
    """
    with pytest.raises(ToolFailure, match="mlir-opt-22 failed") as error:
        build(program_from_mlir(text, function="f"), tmp_path / "f.so")
    assert "'tosa.add' op" in str(error.value)


def test_the_program_must_match_its_function(tmp_path: Path, tosa: SimpleNamespace):
    program = program_from_mlir(tosa.DENSE_RELU, function="dense_relu", weights=[])
    program.weights = [np.zeros((1, 3, 4), np.float64)]
    program.inputs = program.inputs[:1]
    with pytest.raises(CompileError, match="@dense_relu takes 3 arguments, but the program has"):
        build(program, tmp_path / "x.so")
    program.weights = [np.zeros((1, 3, 4), np.float64), np.zeros((1, 1, 4), np.float32)]
    with pytest.raises(
        CompileError, match=r"argument 1 of @dense_relu is tensor<1x3x4xf32>, but the program gives"
    ):
        build(program, tmp_path / "x.so")
    program.function = "other"
    with pytest.raises(CompileError, match="the module has no function @other"):
        build(program, tmp_path / "x.so")


def test_dynamic_shapes_do_not_compile(tmp_path: Path):
    text = """
    func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> attributes {llvm.emit_c_interface} {
      func.return %x : tensor<?xf32>
    }
    """
    with pytest.raises(CompileError, match="input arg0 has a dynamic shape"):
        build(program_from_mlir(text, function="f"), tmp_path / "f.so")


def test_only_the_units_functions_stay_public():
    llvm_ir = (
        "define void @dealloc_helper(ptr %0) {\n  ret void\n}\n"
        "define { ptr, i64 } @model(ptr %0) {\n  ret { ptr, i64 } poison\n}\n"
        "define void @_mlir_ciface_model(ptr %0) {\n  ret void\n}\n"
        "define internal void @already(ptr %0) {\n  ret void\n}\n"
        "declare ptr @malloc(i64)\n"
    )
    assert internalized(llvm_ir, ["model"]).splitlines()[::3] == [
        "define internal void @dealloc_helper(ptr %0) {",
        "define { ptr, i64 } @model(ptr %0) {",
        "define void @_mlir_ciface_model(ptr %0) {",
        "define internal void @already(ptr %0) {",
        "declare ptr @malloc(i64)",
    ]


def test_a_model_of_calls_only_frees_its_buffers_itself(tmp_path: Path, tosa: SimpleNamespace):
    logged: list[str] = []
    build(program_from_mlir(tosa.GROUPS, function="model"), tmp_path / "m.so", log=logged.append)
    mlir_opt = [line for line in logged if "mlir-opt" in line.split(": ")[1].split()[0]]
    each, calls_only = mlir_opt
    assert "(each unit)" in each and "buffer-deallocation-pipeline" in each
    assert "which frees its buffers" in calls_only
    assert "buffer-deallocation-pipeline" not in calls_only
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    w = np.full((2, 3), 0.5, np.float32)
    model = CompiledModel.load(tmp_path / "m.so")
    for _ in range(3):  # the freed clamp's buffer is taken again by the next call
        for output, expected in zip(model(x, w), tosa.groups(x, w), strict=True):
            np.testing.assert_array_equal(output, expected)
