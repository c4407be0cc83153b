"""Programs read from MLIR text: inputs, weights and outputs from the function's type."""

from __future__ import annotations

import numpy as np
import pytest

from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.program import program_from_mlir

TEXT = """
func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
    attributes {llvm.emit_c_interface} {
  %0 = "tosa.add"(%x, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tosa.const"() {values = dense<3> : tensor<i32>} : () -> tensor<i32>
  func.return %0, %1 : tensor<2xf32>, tensor<i32>
}
"""


def test_the_trailing_arguments_are_the_weights():
    program = program_from_mlir(TEXT, function="f", weights=[np.zeros(2, np.float32)])
    assert [(name, str(type_)) for name, type_ in program.inputs] == [("arg0", "tensor<2xf32>")]
    assert [str(t) for t in program.outputs] == ["tensor<2xf32>", "tensor<i32>"]
    assert len(program.weights) == 1
    assert len(program_from_mlir(TEXT, function="f").inputs) == 2


def test_ops_xdsl_does_not_know_are_kept_as_written():
    program = program_from_mlir(TEXT, function="f")
    assert [op.op_name.data for op in list(program.module.ops.first.body.block.ops)[:2]] == [
        "tosa.add",
        "tosa.const",
    ]


def test_errors():
    with pytest.raises(CompileError, match="<mlir> has no function @main"):
        program_from_mlir(TEXT)
    with pytest.raises(CompileError, match="@f takes 2 arguments, 3 weights"):
        program_from_mlir(TEXT, function="f", weights=[np.zeros(2)] * 3)
