"""Relay data types and their MLIR element types.

Relay names dtypes with strings (``float32``, ``int64``, ``bool``); MLIR uses
builtin element types (``f32``, ``i64``, ``i1``). Signed Relay integers map to
signless MLIR integers, unsigned ones to ``ui<N>``, as MLIR's ML dialects do.

A dtype with lanes (TVM's ``DataType`` lanes: ``float16x4``, ``int8x4``,
``uint1x4``), one element holding that many values of the scalar dtype, is
an MLIR ``vector`` of the scalar element type: ``tensor<vector<4xf16>>``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    VectorType,
)
from xdsl.ir import Attribute

_FLOAT_TYPES: dict[str, Attribute] = {
    "float16": Float16Type(),
    "float32": Float32Type(),
    "float64": Float64Type(),
    "bfloat16": BFloat16Type(),
}
_FLOAT_NAMES = {type_: name for name, type_ in _FLOAT_TYPES.items()}

NUMPY_DTYPES = {
    "float16": "<f2",
    "float32": "<f4",
    "float64": "<f8",
    "int8": "i1",
    "int16": "<i2",
    "int32": "<i4",
    "int64": "<i8",
    "uint8": "u1",
    "uint16": "<u2",
    "uint32": "<u4",
    "uint64": "<u8",
    "bool": "?",
}
"""numpy dtype strings for the Relay dtypes whose buffers we decode."""


class UnknownDTypeError(ValueError):
    """A dtype string or element type that Relay cannot express."""


_SHORTHANDS = {"int": "int32", "uint": "uint32", "float": "float32"}
"""Dtypes without a width, as TVM's ``DataType`` reads them (32 bits)."""


def element_type(dtype: str) -> Attribute:
    """The MLIR element type of a Relay dtype string (``int`` and ``float``
    are ``int32`` and ``float32``; ``float16x4`` a vector of 4 ``f16``)."""
    scalar, lanes = _split_lanes(dtype)
    if lanes is not None:
        if scalar == "bool":  # TVM spells a vector of bools uint1xN
            raise UnknownDTypeError(f"unknown dtype '{dtype}'")
        element = element_type(scalar)
        return element if lanes == 1 else VectorType(element, [lanes])
    dtype = _SHORTHANDS.get(dtype, dtype)
    if dtype in _FLOAT_TYPES:
        return _FLOAT_TYPES[dtype]
    if dtype == "bool":
        return IntegerType(1)
    for prefix, signedness in (
        ("int", Signedness.SIGNLESS),
        ("uint", Signedness.UNSIGNED),
    ):
        width = dtype.removeprefix(prefix)
        if width != dtype and width.isdigit() and int(width) in (1, 4, 8, 16, 32, 64):
            return IntegerType(int(width), signedness)
    raise UnknownDTypeError(f"unknown dtype '{dtype}'")


def _split_lanes(dtype: str) -> tuple[str, int | None]:
    """``("float16", 4)`` for ``float16x4``; the dtype and None without lanes."""
    scalar, x, lanes = dtype.rpartition("x")
    if x and scalar and lanes.isdigit() and int(lanes) > 0:
        return scalar, int(lanes)
    return dtype, None


def dtype_name(element: Attribute) -> str:
    """The Relay dtype string of an MLIR element type."""
    if isinstance(element, VectorType):
        shape = element.get_shape()
        scalar = element.get_element_type()
        if len(shape) != 1 or shape[0] < 2 or isinstance(scalar, VectorType):
            raise UnknownDTypeError(f"element type {element} has no Relay dtype")
        one_bit = isinstance(scalar, IntegerType) and scalar.width.data == 1
        name = "uint1" if one_bit else dtype_name(scalar)
        return f"{name}x{shape[0]}"
    if element in _FLOAT_NAMES:
        return _FLOAT_NAMES[element]
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return "bool"
        if element.signedness.data == Signedness.UNSIGNED:
            return f"uint{width}"
        return f"int{width}"
    raise UnknownDTypeError(f"element type {element} has no Relay dtype")


def bit_width(element: Attribute) -> int:
    """Storage width in bits of one element (bool is stored in a byte)."""
    if isinstance(element, VectorType):
        return bit_width(element.get_element_type()) * element.get_shape()[0]
    if isinstance(element, IntegerType):
        return max(8, element.width.data) if element.width.data == 1 else element.width.data
    return {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}[dtype_name(element)]
