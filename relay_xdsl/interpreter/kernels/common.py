"""What the kernels share: the result's dtype and shape, and axis arithmetic."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from xdsl.dialects.builtin import TensorType, TupleType

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.arrays import tensor_dtype
from relay_xdsl.interpreter.errors import InterpreterError


def result_dtype(call: Call, index: int | None = None) -> np.dtype:
    """The numpy dtype of the call's result (of field `index` of a tuple result)."""
    type_ = call.result_type
    if index is not None:
        if not isinstance(type_, TupleType):
            raise InterpreterError("expected a tuple result")
        type_ = type_.types.data[index]
    return tensor_dtype(type_)


def result_shape(call: Call) -> tuple[int, ...]:
    """The static shape of the call's (tensor) result."""
    type_ = call.result_type
    if not isinstance(type_, TensorType):
        raise InterpreterError("expected a tensor result")
    shape = tuple(type_.get_shape())
    if any(d < 0 for d in shape):
        raise InterpreterError("the result shape is not static")
    return shape


def axis(index: int, rank: int) -> int:
    """`index` (negative: from the end) as an axis of a rank-`rank` tensor."""
    if not -rank <= index < rank:
        raise InterpreterError(f"axis {index} is out of range for rank {rank}")
    return index % rank if rank else 0


def axes(indices: Iterable[int], rank: int) -> tuple[int, ...]:
    """`indices` as axes of a rank-`rank` tensor, sorted and without repeats."""
    return tuple(sorted({axis(i, rank) for i in indices}))


def as_array(value: object, dtype: np.dtype) -> np.ndarray:
    """`value` as an array of `dtype` (a kernel's result, never a numpy scalar)."""
    return np.asarray(value).astype(dtype, copy=False)
