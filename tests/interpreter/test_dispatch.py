"""Finding an operator's kernel, and checking what a kernel returns."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ArrayAttr, TensorType, TupleType, f32, i32

from relay_xdsl.dialects.relay import inference
from relay_xdsl.dialects.relay.attributes import OpPattern
from relay_xdsl.dialects.relay.operators import ALL
from relay_xdsl.dialects.relay.registry import Operator, no_kernel, no_relax
from relay_xdsl.interpreter import InterpreterError
from relay_xdsl.interpreter.dispatch import conform, kernel_of
from relay_xdsl.interpreter.kernels import elementwise
from relay_xdsl.interpreter.registry import KERNELS, kernel

EXP = next(row for row in ALL if row.name == "exp")


def _row(kernel):
    return Operator(
        "my.op",
        "A test row.",
        pattern=OpPattern.OPAQUE,
        infer=inference.same_type,
        relax=no_relax("none"),
        kernel=kernel,
    )


def test_an_operator_name_finds_its_registered_kernel():
    assert kernel_of(EXP) is elementwise.exp
    assert KERNELS.get("fast_exp") is elementwise.exp


@pytest.mark.parametrize(
    ("kernel", "message"),
    [
        (no_kernel("it is a test"), "operator 'my.op' has no kernel: it is a test"),
        (None, "operator 'my.op' has no kernel yet"),
    ],
)
def test_a_missing_kernel_is_an_error_naming_the_operator(kernel, message):
    with pytest.raises(InterpreterError, match=message):
        kernel_of(_row(kernel))


def test_a_second_kernel_for_one_operator_is_refused():
    with pytest.raises(ValueError, match="'exp' has two kernels"):
        kernel("exp")(lambda call, x: x)


def test_conform_casts_to_the_result_dtype_and_checks_shapes():
    type_ = TensorType(f32, [2])
    result = conform(np.array([1, 2], np.int64), type_, "op")
    assert result.dtype == np.float32
    with pytest.raises(InterpreterError, match=r"op: the kernel gave shape \(3,\)"):
        conform(np.zeros(3, np.float32), type_, "op")
    pair = TupleType(ArrayAttr([type_, TensorType(i32, [])]))
    first, second = conform((np.zeros(2), 7), pair, "op")
    assert first.dtype == np.float32 and second.dtype == np.int32 and second.shape == ()
    with pytest.raises(InterpreterError, match="did not return a 2-tuple"):
        conform(np.zeros(2), pair, "op")
