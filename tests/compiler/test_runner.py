"""A program wrapped in a @main that mlir-runner runs, printing the outputs."""

from __future__ import annotations

import subprocess
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler.build import lower_to_llvm_dialect, module_text
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.pipeline import BASELINE
from relay_xdsl.compiler.program import program_from_mlir
from relay_xdsl.compiler.runner import runner_module
from relay_xdsl.compiler.toolchain import shared_libs_option, tool

MAIN = """
func.func @main(%x: tensor<2x2xf32>, %w: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xi1>)
    attributes {llvm.emit_c_interface} {
  %0 = "tosa.add"(%x, %w) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = "tosa.greater"(%0, %x) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
  func.return %0, %1 : tensor<2x2xf32>, tensor<2x2xi1>
}
"""


def _run(text: str) -> str:
    llvm_dialect = lower_to_llvm_dialect(text, BASELINE)
    command = [tool("mlir-runner"), "-O3", "-e", "main", "-entry-point-result=void"]
    result = subprocess.run(
        [*command, shared_libs_option()],
        input=llvm_dialect,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def _data(output: str) -> list[str]:
    """The printed tensors without their addresses."""
    return [line.split(" rank = ")[-1].strip() for line in output.splitlines()]


def test_prints_each_result_with_weights_as_constants():
    weights = [np.array([[1.0, -1.0], [0.5, 0.0]], np.float32)]
    program = program_from_mlir(MAIN, weights=weights)
    module = runner_module(program, [np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)])
    names = [op.sym_name.data for op in module.ops]
    assert names == ["main_model", "printMemrefF32", "printMemrefI32", "main"]
    assert _data(_run(module_text(module))) == [
        "2 offset = 0 sizes = [2, 2] strides = [2, 1] data =",
        "[[2,   1],",
        "[3.5,   4]]",
        "2 offset = 0 sizes = [2, 2] strides = [2, 1] data =",
        "[[1,   0],",
        "[1,   0]]",
    ]


def test_inputs_must_fit(tosa: SimpleNamespace):
    program = program_from_mlir(MAIN, weights=[np.zeros((2, 2), np.float32)])
    with pytest.raises(CompileError, match="@main takes 1 inputs, 0 given"):
        runner_module(program)
    with pytest.raises(CompileError, match=r"arg0 is \(2,\) float32, the function takes"):
        runner_module(program, [np.zeros(2, np.float32)])


def test_a_program_without_inputs_or_weights():
    text = """
    func.func @constant() -> tensor<3xi64> attributes {llvm.emit_c_interface} {
      %0 = "tosa.const"() {values = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
      func.return %0 : tensor<3xi64>
    }
    """
    module = runner_module(program_from_mlir(text, function="constant"))
    assert _data(_run(module_text(module)))[1] == "[1,  2,  3]"
