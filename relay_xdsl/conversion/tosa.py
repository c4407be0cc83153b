"""TOSA 1.0 operations, as MLIR 22 spells them, emitted in MLIR's generic form.

xDSL 0.75's ``tosa`` dialect lacks most of the operators a network needs
(``conv2d``, ``transpose``, ``reshape``, ``slice``, ``pad``, ...), and
upstream MLIR is what checks and compiles the result, so the conversion
builds every TOSA operation as a generic operation of its upstream name
with upstream's operands and attributes (``mlir-opt-22 --tosa-validate``
checks them). `TosaBuilder` appends them to a block; each method states
the operator's operands, and the caller gives the result type wherever the
Relay type already says it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnregisteredAttr,
    UnregisteredOp,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from relay_xdsl.dialects.relay import dtypes

_PAD_RANK = 3
"""The most dimensions one ``tosa.pad`` takes: its shape operand holds two values
per dimension, and TOSA's level 8K allows shapes of at most 6 (MAX_RANK)."""


@functools.cache
def _op_class(name: str) -> type[Operation]:
    return UnregisteredOp.with_name(name)


def operation_name(op: Operation) -> str:
    """`op` 's name (``tosa.reshape``), registered in xDSL or not."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


_SHAPE_TYPE = UnregisteredAttr.with_name_and_type("tosa.shape", True)


def shape_type(rank: int) -> Attribute:
    """``!tosa.shape<rank>``: the type of a shape operand."""
    return _SHAPE_TYPE("tosa.shape", True, False, str(rank))


def dense(array: np.ndarray, element_type: Attribute) -> DenseIntOrFPElementsAttr:
    """A dense attribute holding `array` (whose dtype matches `element_type`)."""
    type_: Any = TensorType(element_type, array.shape)
    if array.dtype == np.bool_:
        array = array.astype(np.uint8) * 0xFF  # MLIR's i1 storage
    return DenseIntOrFPElementsAttr(type_, BytesAttr(np.ascontiguousarray(array).tobytes()))


def numpy_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype of an element type."""
    return np.dtype(dtypes.NUMPY_DTYPES[dtypes.dtype_name(element_type)])


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def i32_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(values))


class TosaBuilder:
    """Appends TOSA operations to a block, before its terminator if it has one."""

    def __init__(self, block: Block):
        self.block = block
        self._zero_points: dict[Attribute, SSAValue] = {}
        self._shapes: dict[tuple[int, ...], SSAValue] = {}

    def op(
        self,
        name: str,
        operands: Sequence[SSAValue],
        result_type: Attribute,
        attributes: dict[str, Attribute] | None = None,
    ) -> SSAValue:
        """One generic operation ``tosa.<name>``; its single result."""
        op = _op_class(f"tosa.{name}").create(
            operands=operands, result_types=[result_type], attributes=attributes or {}
        )
        self.block.add_op(op)
        return op.results[0]

    # Values made from constants.

    def const(self, array: np.ndarray, element_type: Attribute) -> SSAValue:
        """``tosa.const`` holding `array`."""
        attr = dense(array, element_type)
        return self.op("const", [], attr.get_type(), {"values": attr})

    def splat(self, value: float, element_type: Attribute, shape: Sequence[int]) -> SSAValue:
        """A constant of `shape` all of whose elements are `value`."""
        one = np.full(1, value, dtype=numpy_dtype(element_type))
        type_: Any = TensorType(element_type, list(shape))
        attr = DenseIntOrFPElementsAttr(type_, BytesAttr(one.tobytes()))
        return self.op("const", [], attr.get_type(), {"values": attr})

    def scalar(self, value: float, element_type: Attribute, rank: int) -> SSAValue:
        """A constant of all-ones shape and rank `rank` (broadcast by the elementwise ops)."""
        return self.const(
            np.full((1,) * rank, value, dtype=numpy_dtype(element_type)), element_type
        )

    def shape(self, values: Sequence[int]) -> SSAValue:
        """``tosa.const_shape``: a shape operand (``!tosa.shape<n>``)."""
        key = tuple(values)
        cached = self._shapes.get(key)
        if cached is None:
            attr = dense(np.array(key, dtype=np.int64), IndexType())
            cached = self.op("const_shape", [], shape_type(len(key)), {"values": attr})
            self._shapes[key] = cached
        return cached

    def zero_point(self, element_type: Attribute) -> SSAValue:
        """The zero point operand of the convolutions, pools and matmul: a zero ``tensor<1xT>``."""
        cached = self._zero_points.get(element_type)
        if cached is None:
            cached = self.const(np.zeros(1, dtype=numpy_dtype(element_type)), element_type)
            self._zero_points[element_type] = cached
        return cached

    # Data movement.

    def reshape(self, x: SSAValue, shape: Sequence[int]) -> SSAValue:
        type_ = _tensor(x)
        if tuple(type_.get_shape()) == tuple(shape):
            return x
        result = TensorType(type_.get_element_type(), list(shape))
        return self.op("reshape", [x, self.shape(shape)], result)

    def transpose(self, x: SSAValue, perms: Sequence[int]) -> SSAValue:
        """``tosa.transpose`` of `x` by `perms`; a ``tosa.reshape`` where `perms` moves
        only dimensions of size one (the elements keep their order): a view, where a
        transpose is a pass over the tensor (vit_b_16's ``197×1×768`` to ``1×197×768``
        before each residual add)."""
        if list(perms) == list(range(len(perms))):
            return x
        type_ = _tensor(x)
        shape = type_.get_shape()
        permuted = [shape[p] for p in perms]
        if [p for p in perms if shape[p] != 1] == [d for d, n in enumerate(shape) if n != 1]:
            return self.reshape(x, permuted)
        result = TensorType(type_.get_element_type(), permuted)
        return self.op("transpose", [x], result, {"perms": i32_array(perms)})

    def slice(self, x: SSAValue, start: Sequence[int], size: Sequence[int]) -> SSAValue:
        type_ = _tensor(x)
        if all(s == 0 for s in start) and tuple(size) == tuple(type_.get_shape()):
            return x
        result = TensorType(type_.get_element_type(), list(size))
        return self.op("slice", [x, self.shape(start), self.shape(size)], result)

    def pad(self, x: SSAValue, pads: Sequence[int], value: float = 0) -> SSAValue:
        """``tosa.pad`` with `pads` as (before, after) pairs per dimension.

        TOSA's level 8K limits a shape operand to MAX_RANK (6) values, so a
        pad takes at most three dimensions: runs of dimensions that are not
        padded are merged by a reshape (moving no data), and where more than
        three remain, each padded dimension is padded on its own.
        Dimensions of size one that are not padded drop out (NHWC with one
        image pads as HWC)."""
        if not any(pads):
            return x
        shape = list(_tensor(x).get_shape())
        padded = [n + pads[2 * i] + pads[2 * i + 1] for i, n in enumerate(shape)]
        if len(shape) <= _PAD_RANK:
            return self._pad(x, pads, value)
        merged_shape: list[int] = []
        merged_pads: list[int] = []
        for i, n in enumerate(shape):
            before, after = pads[2 * i], pads[2 * i + 1]
            if not before and not after and n == 1:
                continue
            if not before and not after and merged_shape and not any(merged_pads[-2:]):
                merged_shape[-1] *= n
            else:
                merged_shape.append(n)
                merged_pads += [before, after]
        if len(merged_shape) <= _PAD_RANK:
            value_ = self._pad(self.reshape(x, merged_shape), merged_pads, value)
            return self.reshape(value_, padded)
        current = shape
        for i in range(len(shape)):
            before, after = pads[2 * i], pads[2 * i + 1]
            if before or after:
                outer, inner = math.prod(current[:i]), math.prod(current[i + 1 :])
                x = self._pad(
                    self.reshape(x, [outer, current[i], inner]), [0, 0, before, after, 0, 0], value
                )
                current = current[:i] + [padded[i]] + current[i + 1 :]
                x = self.reshape(x, current)
        return x

    def _pad(self, x: SSAValue, pads: Sequence[int], value: float) -> SSAValue:
        type_ = _tensor(x)
        shape = type_.get_shape()
        element = type_.get_element_type()
        result = TensorType(
            element, [n + pads[2 * i] + pads[2 * i + 1] for i, n in enumerate(shape)]
        )
        fill = self.const(np.full(1, value, dtype=numpy_dtype(element)), element)
        return self.op("pad", [x, self.shape(pads), fill], result)

    def concat(self, xs: Sequence[SSAValue], axis: int, result_type: Attribute) -> SSAValue:
        if len(xs) == 1:
            return xs[0]
        return self.op("concat", xs, result_type, {"axis": IntegerAttr(axis, i32)})

    def cast(self, x: SSAValue, element_type: Attribute) -> SSAValue:
        type_ = _tensor(x)
        if type_.get_element_type() == element_type:
            return x
        return self.op("cast", [x], TensorType(element_type, type_.get_shape()))

    def widened(self, x: SSAValue) -> SSAValue:
        """`x`, if its elements are 8- or 16-bit integers, cast (exactly) to
        i32: TOSA's integer arithmetic and comparisons take i32 and i64 only."""
        element = _tensor(x).get_element_type()
        if isinstance(element, IntegerType) and element.width.data in (8, 16):
            return self.cast(x, i32)
        return x

    def tile(self, x: SSAValue, multiples: Sequence[int]) -> SSAValue:
        """``tosa.tile``: `x` repeated ``multiples[i]`` times along dimension ``i``."""
        if all(m == 1 for m in multiples):
            return x
        type_ = _tensor(x)
        shape = [n * m for n, m in zip(type_.get_shape(), multiples)]
        result = TensorType(type_.get_element_type(), shape)
        return self.op("tile", [x, self.shape(multiples)], result)

    def reverse(self, x: SSAValue, axis: int) -> SSAValue:
        """``tosa.reverse``: `x` with dimension `axis` in reverse order."""
        return self.op("reverse", [x], _tensor(x), {"axis": IntegerAttr(axis, i32)})

    def gather(self, values: SSAValue, indices: SSAValue) -> SSAValue:
        """``tosa.gather``: ``out[n, w, c] = values[n, indices[n, w], c]`` for
        `values` (N, K, C) and i32 `indices` (N, W)."""
        n, _, c = _tensor(values).get_shape()
        w = _tensor(indices).get_shape()[1]
        result = TensorType(_tensor(values).get_element_type(), [n, w, c])
        return self.op("gather", [values, indices], result)

    # Computation.

    def mul(self, a: SSAValue, b: SSAValue, result_type: Attribute) -> SSAValue:
        """``tosa.mul``, whose third operand is the (integer) shift, zero here."""
        shift = self.const(np.zeros(1, dtype=np.int8), i8)
        return self.op("mul", [a, b, shift], result_type)

    def select(
        self, condition: SSAValue, a: SSAValue, b: SSAValue, result_type: Attribute
    ) -> SSAValue:
        """``tosa.select``: `a` where the (i1) `condition` holds, else `b` (equal ranks)."""
        return self.op("select", [condition, a, b], result_type)

    def arithmetic_right_shift(self, a: SSAValue, b: SSAValue, result_type: Attribute) -> SSAValue:
        """``tosa.arithmetic_right_shift`` of `a` by `b`, the bits shifted out dropped
        (not rounding)."""
        return self.op(
            "arithmetic_right_shift", [a, b], result_type, {"round": IntegerAttr.from_bool(False)}
        )

    def clamp(self, x: SSAValue, low: float, high: float) -> SSAValue:
        """`x` bounded to ``[low, high]`` (either may be infinite). TOSA's clamp takes
        no i32 or i64: those are bounded by ``tosa.maximum`` and ``tosa.minimum``."""
        type_ = _tensor(x)
        element: Any = type_.get_element_type()
        if isinstance(element, IntegerType) and element.width.data in (32, 64):
            info = np.iinfo(numpy_dtype(element))
            if low > info.min:
                x = self.op(
                    "maximum",
                    [x, self.scalar(math.ceil(low), element, type_.get_num_dims())],
                    type_,
                )
            if high < info.max:
                x = self.op(
                    "minimum",
                    [x, self.scalar(math.floor(high), element, type_.get_num_dims())],
                    type_,
                )
            return x
        bounds: dict[str, Attribute]
        if isinstance(element, IntegerType):
            info = np.iinfo(numpy_dtype(element))
            bounds = {
                "min_val": IntegerAttr(int(max(low, info.min)), element),
                "max_val": IntegerAttr(int(min(high, info.max)), element),
            }
        else:
            limit = float(np.finfo(numpy_dtype(element)).max)
            low, high = max(low, -limit), min(high, limit)
            bounds = {"min_val": FloatAttr(low, element), "max_val": FloatAttr(high, element)}
        return self.op("clamp", [x], type_, bounds)

    def reduce(self, kind: str, x: SSAValue, axis: int) -> SSAValue:
        """``tosa.reduce_<kind>`` over `axis`, which it keeps with size 1."""
        type_ = _tensor(x)
        shape = list(type_.get_shape())
        shape[axis] = 1
        result = TensorType(type_.get_element_type(), shape)
        return self.op(f"reduce_{kind}", [x], result, {"axis": IntegerAttr(axis, i32)})


def _tensor(value: SSAValue) -> TensorType:
    type_ = value.type
    assert isinstance(type_, TensorType)
    return type_
