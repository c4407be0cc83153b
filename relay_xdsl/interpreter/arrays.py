"""Tensors as numpy arrays: dtypes, constants' values, and checked inputs.

A Relay tensor is a ``numpy.ndarray`` of the tensor type's shape and dtype
(a scalar is a 0-d array; ``bool`` is numpy's ``bool_``). ``bfloat16`` has
no numpy dtype and is refused.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, OpResult

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.interpreter.errors import InterpreterError

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
    type_ = value.get_type()
    if not isinstance(type_, TensorType):
        raise InterpreterError(f"a dense value of type {type_} is not a tensor")
    dtype = tensor_dtype(type_)
    shape = tuple(type_.get_shape())
    array = np.frombuffer(value.data.data, dtype=np.uint8 if dtype == np.bool_ else dtype)
    if dtype == np.bool_:
        array = array != 0  # MLIR text parses `true` as 0xff
    if array.size == 1 and int(np.prod(shape)) != 1:
        return np.full(shape, array[0], dtype=dtype)
    return array.reshape(shape).copy()


def random_constants(module: ModuleOp, seed: int) -> dict[int, np.ndarray]:
    """Random values for the constants known only by ``meta[relay.Constant][i]``, by index.

    The values are drawn as the Relax exporter draws them for the same seed
    (``numpy.random.RandomState(seed)``, in index order: floats uniform in
    [-1, 1), integers in [0, 8), bools 0 or 1), so both see the same program.

    A constant that is a batch norm's variance (directly or through a
    ``relay.fn`` parameter) gets the absolute value of its draw, so that the
    norm stays finite (`variance_constants`).
    """
    types: dict[int, TensorType] = {}
    for op in module.walk():
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None:
            index = op.meta_index.value.data
            if not isinstance(op.result.type, TensorType):
                raise InterpreterError(f"meta[relay.Constant][{index}] has an unknown type")
            if types.setdefault(index, op.result.type) != op.result.type:
                raise InterpreterError(f"meta[relay.Constant][{index}] is used with two types")
    rng = np.random.RandomState(seed)
    values = {}
    for index in sorted(types):
        type_ = types[index]
        values[index] = _draw(rng, tuple(type_.get_shape()), tensor_dtype(type_))
    for index in variance_constants(module):
        values[index] = np.abs(values[index])
    return values


def variance_constants(module: ModuleOp) -> set[int]:
    """The ``meta[relay.Constant][i]`` indices used as a batch norm's variance
    (``moving_var``), directly or as the argument of a ``relay.fn`` parameter.

    A random draw for them must not be negative: the norm takes its square root."""
    indices: set[int] = set()
    for op in module.walk():
        if not isinstance(op, relay.BatchNormOp):
            continue
        value = op.moving_var
        while isinstance(value, BlockArgument) and isinstance(value.owner.parent_op(), relay.FnOp):
            fn = value.owner.parent_op()
            assert isinstance(fn, relay.FnOp)
            value = fn.operands[value.index]
        if isinstance(value, OpResult) and isinstance(value.op, relay.ConstantOp):
            meta_index = value.op.meta_index
            if meta_index is not None:
                indices.add(meta_index.value.data)
    return indices


def give_random_values(module: ModuleOp, seed: int) -> None:
    """Give each constant without a value (``meta[relay.Constant][i]``) its
    `random_constants` draw for `seed`, as its ``value``: passes that fold
    constants then compute with the numbers the interpreter would use."""
    values = random_constants(module, seed)
    for op in module.walk():
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None:
            array = np.ascontiguousarray(values[op.meta_index.value.data])
            data = array.astype(np.uint8) if array.dtype == np.bool_ else array
            type_ = op.result.type
            assert isinstance(type_, TensorType)  # random_constants refuses any other
            op.attributes["value"] = DenseIntOrFPElementsAttr(type_, BytesAttr(data.tobytes()))
            del op.attributes["meta_index"]


def random_inputs(types: Iterable[tuple[str, Attribute]], seed: int) -> dict[str, np.ndarray]:
    """Random arrays for parameters of tensor type, drawn like `random_constants`."""
    rng = np.random.RandomState(seed)
    values = {}
    for name, type_ in types:
        if not isinstance(type_, TensorType):
            raise InterpreterError(f"parameter %{name} is not a tensor ({type_})")
        shape = tuple(type_.get_shape())
        if DYNAMIC_INDEX in shape:
            raise InterpreterError(f"parameter %{name} has a dynamic shape {describe(type_)}")
        values[name] = _draw(rng, shape, tensor_dtype(type_))
    return values


def _draw(rng: np.random.RandomState, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Random values: bools 0 or 1, integers in [0, 8), floats uniform in [-1, 1)."""
    if dtype == np.bool_:
        drawn = rng.randint(0, 2, size=shape).astype(bool)
    elif dtype.kind in "iu":
        drawn = rng.randint(0, 8, size=shape).astype(dtype)
    else:
        drawn = rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
    return np.asarray(drawn)  # a 0-d array, not a numpy scalar, for a scalar
