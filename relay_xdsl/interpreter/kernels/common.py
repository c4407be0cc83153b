"""What the kernels share: the result's dtype and shape, and axis arithmetic."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from xdsl.dialects.builtin import TensorType, TupleType, i32
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.arrays import tensor_dtype
from relay_xdsl.interpreter.errors import InterpreterError


def result_dtype(call: Call, index: int | None = None) -> np.dtype:
    """The numpy dtype of the call's result (of field `index` of a tuple result)."""
    type_ = call.result_type
    if type_ is None:
        raise InterpreterError("the call has no result type")
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


def output_shape(
    call: Call, relation: Callable[[Call], Attribute], *arrays: np.ndarray
) -> tuple[int, ...]:
    """The call's result shape: the result type's when static, else what the
    operator's type `relation` gives for the arrays' actual shapes."""
    type_ = call.result_type
    if isinstance(type_, TensorType) and all(d >= 0 for d in type_.get_shape()):
        return tuple(type_.get_shape())
    types = [
        TensorType(t.get_element_type() if isinstance(t, TensorType) else i32, a.shape)
        for t, a in zip(call.args, arrays)
    ]
    result = relation(Call(call.schema, types, call.attributes))
    if not isinstance(result, TensorType):
        raise InterpreterError("the type relation gave no tensor type")
    return tuple(result.get_shape())
