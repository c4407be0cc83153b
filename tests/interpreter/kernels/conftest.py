"""A fixture that runs one operator's interpreter kernel on a Relay text.

The call is built as the interpreter builds it: the row's schema, the
operand types, the op's stored attributes and its result type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, TupleType

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter.arrays import numpy_dtype
from relay_xdsl.interpreter.registry import KERNELS

RunKernel = Callable[..., Any]


def run_kernel(text: str, *inputs: np.ndarray) -> Any:
    """The kernel of the first operator call in `text` applied to `inputs`."""
    module = parse_relay(text)
    op = next(op for op in module.walk() if isinstance(op, RegisteredOperatorOp))
    row = op.OPERATOR
    kernel = KERNELS.get(row.name)
    assert kernel is not None, f"{row.name} has no kernel: {row.kernel}"
    call = Call(row.schema, [a.type for a in op.operands], op.attributes, op.results[0].type)
    result = kernel(call, *inputs)
    # The result has the call's type: shape and dtype.
    expected = op.results[0].type
    results = result if isinstance(result, tuple) else (result,)
    types = expected.types.data if isinstance(expected, TupleType) else (expected,)
    for array, type_ in zip(results, types, strict=True):
        assert isinstance(type_, TensorType)
        assert list(array.shape) == list(type_.get_shape()), (array.shape, type_)
        assert array.dtype == numpy_dtype(type_.get_element_type()), (array.dtype, type_)
    return result


@pytest.fixture
def run() -> RunKernel:
    return run_kernel


def run_in_tvm(build: Callable[..., Any], *arrays: np.ndarray) -> np.ndarray:
    """`build(*params)`, a Relax expression of the parameters, built by TVM 0.27
    for llvm and run on `arrays` in the Relax VM (skipped without TVM)."""
    tvm = pytest.importorskip("tvm")
    from tvm import relax

    builder = relax.BlockBuilder()
    params = [
        relax.Var(f"p{i}", relax.TensorType(list(a.shape), str(a.dtype)))
        for i, a in enumerate(arrays)
    ]
    with builder.function("main", params):
        with builder.dataflow():
            output = builder.emit_output(build(*params))
        builder.emit_func_output(output)
    machine = relax.VirtualMachine(relax.build(builder.get(), target="llvm"), tvm.cpu())
    return machine["main"](*(tvm.runtime.tensor(a) for a in arrays)).numpy()


@pytest.fixture
def in_tvm() -> Callable[..., np.ndarray]:
    return run_in_tvm
