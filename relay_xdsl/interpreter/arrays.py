"""Tensors as numpy arrays: dtypes, constants' values, checked inputs and sizes.

A Relay tensor is a ``numpy.ndarray`` of the tensor type's shape and dtype
(a scalar is a 0-d array; ``bool`` is numpy's ``bool_``). ``bfloat16`` has
no numpy dtype and is refused.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, BytesAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.relay_text.types import relay_type
from relay_xdsl.support.memory import machine_memory, memory_text

_NUMPY_DTYPES = {name: np.dtype(code) for name, code in dtypes.NUMPY_DTYPES.items()}


def numpy_dtype(element: Attribute) -> np.dtype:
    """The numpy dtype of an MLIR element type."""
    try:
        name = dtypes.dtype_name(element)
    except dtypes.UnknownDTypeError as error:
        raise InterpreterError(str(error)) from None
    dtype = _NUMPY_DTYPES.get(name)
    if dtype is None:
        raise InterpreterError(f"dtype {name} has no numpy counterpart")
    return dtype


def tensor_dtype(type_: Attribute) -> np.dtype:
    """The numpy dtype of a tensor type."""
    if not isinstance(type_, TensorType):
        raise InterpreterError(f"expected a tensor type, got {type_}")
    return numpy_dtype(type_.get_element_type())


def describe(type_: TensorType) -> str:
    """`type_` as a shape and dtype: ``(1, 3) float32``."""
    dims = ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in type_.get_shape())
    comma = "," if len(type_.get_shape()) == 1 else ""
    return f"({dims}{comma}) {dtypes.dtype_name(type_.get_element_type())}"


def fits(array: np.ndarray, type_: TensorType) -> bool:
    """Whether `array` has the shape (``?`` matching any size) and dtype of `type_`."""
    shape = type_.get_shape()
    return (
        array.dtype == tensor_dtype(type_)
        and array.ndim == len(shape)
        and all(d == DYNAMIC_INDEX or d == n for d, n in zip(shape, array.shape))
    )


def dense_array(value: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The contents of a dense attribute, shaped like its type (a splat is broadcast)."""
    array = dense_view(value)
    if array.flags.owndata:
        array.flags.writeable = True
        return array
    return array.copy()


def dense_view(value: DenseIntOrFPElementsAttr) -> np.ndarray:
    """`dense_array` 's contents, read-only, and without a copy where the attribute's
    bytes are them (a model's weights: hundreds of megabytes)."""
    type_ = value.get_type()
    if not isinstance(type_, TensorType):
        raise InterpreterError(f"a dense value of type {type_} is not a tensor")
    dtype = tensor_dtype(type_)
    shape = tuple(type_.get_shape())
    array = np.frombuffer(value.data.data, dtype=np.uint8 if dtype == np.bool_ else dtype)
    if dtype == np.bool_:
        array = array != 0  # MLIR text parses `true` as 0xff
    if array.size == 1 and int(np.prod(shape)) != 1:
        array = np.full(shape, array[0], dtype=dtype)
    elif array.shape != shape:
        array = array.reshape(shape)
    array.flags.writeable = False
    return array


def dense_value(array: np.ndarray, type_: TensorType[Any]) -> DenseIntOrFPElementsAttr:
    """`array` (which `fits` `type_`) as a dense attribute: the inverse of `dense_array`."""
    assert fits(array, type_)
    data = array.astype(np.uint8) if array.dtype == np.bool_ else np.ascontiguousarray(array)
    return DenseIntOrFPElementsAttr(type_, BytesAttr(data.tobytes()))


def give_value(op: relay.ConstantOp, array: np.ndarray) -> None:
    """Make `array` (of the constant's type) the ``value`` of `op`, in place of its ``meta_index``."""
    type_ = op.result.type
    assert isinstance(type_, TensorType)
    op.attributes["value"] = dense_value(array, type_)
    op.attributes.pop("meta_index", None)


def byte_size(type_: TensorType) -> int:
    """The bytes an array of static tensor type `type_` takes."""
    return math.prod(type_.get_shape()) * tensor_dtype(type_).itemsize


def check_memory(arrays: Iterable[tuple[str, TensorType]], together: str) -> None:
    """Refuse, before any is allocated, arrays (named, of static tensor types)
    that this machine could not hold: each alone, then all of them
    (`together` names them in the message)."""
    memory = machine_memory()
    total = 0
    for name, type_ in arrays:
        size = byte_size(type_)
        if size > memory:
            raise InterpreterError(
                f"{name}: {size:.3g} bytes ({relay_type(type_)}) is more than the "
                f"{memory_text(memory)} this machine has"
            )
        total += size
    if total > memory:
        raise InterpreterError(
            f"{together}: {total:.3g} bytes in all, more than the {memory_text(memory)} "
            "this machine has"
        )
