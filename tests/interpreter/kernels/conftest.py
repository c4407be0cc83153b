"""A fixture that runs one operator's interpreter kernel on a Relay text.

The call is built as the interpreter builds it: the row's schema, the
operand types, the op's stored attributes and its result type.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, TupleType

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter.arrays import numpy_dtype

RunKernel = Callable[..., Any]


def run_kernel(text: str, *inputs: np.ndarray) -> Any:
    """The kernel of the first operator call in `text` applied to `inputs`."""
    module = parse_relay(text)
    op = next(op for op in module.walk() if isinstance(op, RegisteredOperatorOp))
    row = op.OPERATOR
    assert isinstance(row.kernel, str), f"{row.name} has no kernel: {row.kernel}"
    call = Call(row.schema, [a.type for a in op.operands], op.attributes, op.results[0].type)
    module_name, function = row.kernel.split(":")
    kernel = getattr(
        importlib.import_module(f"relay_xdsl.interpreter.kernels.{module_name}"), function
    )
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
