"""The ``#[metadata]`` section of Relay text: constants as base64 NDArrays.

TVM writes the section with ``SaveJSON`` of a map ``{"relay.Constant": [...]}``:
a JSON object with ``root``, a flat ``nodes`` list (each node has a
``type_key`` and string ``attrs`` that refer to other nodes by index),
``b64ndarrays`` (one base64 string per tensor) and ``attrs``.

Each base64 string is TVM's NDArray save format, little-endian::

    u64 magic 0xDD5E40F096B4A13F, u64 reserved, i32 device_type, i32 device_id,
    i32 ndim, u8 dtype code, u8 bits, u16 lanes, i64 shape[ndim],
    i64 byte count, raw data

Decoding validates every field against the data before building anything
large, and turns the data into a ``dense`` attribute without per-element
Python objects.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    RankedStructure,
    TensorType,
)
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.support.memo import memoised

NDARRAY_MAGIC = 0xDD5E40F096B4A13F
MAX_ELEMENTS = 1 << 34
"""Largest element count accepted for one constant (16 Gi elements)."""

_HEADER = struct.Struct("<QQiiiBBH")
_DTYPE_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat"}
_CODE_OF = {"int": 0, "uint": 1, "float": 2, "bfloat": 4}
TVM_VERSION = "0.19.0"
_T = TypeVar("_T")
_E = TypeVar("_E", bound=Attribute)


class MetadataError(ValueError):
    """A malformed metadata section; `offset` is relative to the section text."""

    def __init__(self, message: str, offset: int | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset


def decode_metadata(text: str) -> list[DenseIntOrFPElementsAttr]:
    """The ``relay.Constant`` values of a metadata section, in index order.

    Every structural problem is a `MetadataError` naming what was expected
    and what was found, and for a constant, its index.
    """
    return read_metadata(text)[0]


def read_metadata(text: str) -> tuple[list[DenseIntOrFPElementsAttr], list[str]]:
    """`decode_metadata`'s constants, and the arrays of the section besides
    ``relay.Constant`` (``VirtualDevice``, ...) by their keys in the root map:
    the section's JSON, most of a large text, is read once for both."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise MetadataError(f"invalid JSON: {error.msg}", error.pos) from None
    except RecursionError:
        raise MetadataError("JSON nested too deeply") from None
    if not isinstance(document, dict):
        raise MetadataError(f"expected a JSON object, found {_kind(document)}")
    nodes = document.get("nodes")
    arrays = document.get("b64ndarrays", [])
    root = document.get("root")
    if not isinstance(nodes, list) or not isinstance(root, int) or not isinstance(arrays, list):
        raise MetadataError(
            "expected 'root' (a node index), 'nodes' (a list) and 'b64ndarrays' (a list)"
        )

    def node(index: object, what: str) -> dict:
        if (
            not isinstance(index, int)
            or isinstance(index, bool)
            or not 0 <= index < len(nodes)
            or not isinstance(nodes[index], dict)
        ):
            raise MetadataError(f"{what} refers to missing node {index!r}")
        return nodes[index]

    def field(entry: dict, key: str, kind: type[_T], default: _T, what: str) -> _T:
        value = entry.get(key, default)
        if not isinstance(value, kind):
            raise MetadataError(
                f"{what}: expected '{key}' to be a {kind.__name__}, found {_kind(value)}"
            )
        return value

    constants_array = None
    root_node = node(root, "root")
    keys = field(root_node, "keys", list, [], "the root map")
    data = field(root_node, "data", list, [], "the root map")
    others: list[str] = []
    if keys:
        for key, value in zip(keys, data):
            if key == "relay.Constant":
                constants_array = node(value, "'relay.Constant'")
        others = [key for key in keys if key != "relay.Constant"]
    else:
        # Maps with non-string keys list key and value nodes alternately.
        for key, value in zip(data[::2], data[1::2]):
            name = node(key, "a map key").get("repr_str")
            if name == "relay.Constant":
                constants_array = node(value, "'relay.Constant'")
            else:
                others.append(str(name))
    if constants_array is None:
        return [], others
    values = []
    entries = field(constants_array, "data", list, [], "the relay.Constant array")
    for position, index in enumerate(entries):
        constant = node(index, f"constant {position}")
        if constant.get("type_key") != "relay.Constant":
            raise MetadataError(
                f"constant {position}: expected a relay.Constant node, found "
                f"{constant.get('type_key')!r}"
            )
        attrs = field(constant, "attrs", dict, {}, f"constant {position}")
        array_index = attrs.get("data")
        if (
            not isinstance(array_index, str | int)
            or not str(array_index).isdigit()
            or int(array_index) >= len(arrays)
        ):
            raise MetadataError(
                f"constant {position} refers to missing NDArray {array_index!r} "
                f"(the section has {len(arrays)})"
            )
        encoded = arrays[int(array_index)]
        try:
            value = decode_ndarray(encoded)
        except MetadataError as error:
            at = text.find(encoded) if isinstance(encoded, str) and encoded else -1
            raise MetadataError(
                f"constant {position}: {error.message}", at if at >= 0 else None
            ) from None
        try:
            declared = _declared_type(nodes, attrs.get("_checked_type_"))
        except MetadataError as error:
            raise MetadataError(f"constant {position}: {error.message}") from None
        if declared is not None and declared != value.type:
            raise MetadataError(
                f"constant {position} is declared as {_type_text(declared)} but its "
                f"NDArray holds {_type_text(value.type)}"
            )
        values.append(value)
    return values, others


def _declared_type(nodes: list, reference: object) -> TensorType | None:
    """The ``_checked_type_`` TVM recorded for a constant, if there is one."""
    if reference is None or not str(reference).isdigit():
        return None
    index = int(str(reference))
    if not 0 < index < len(nodes) or not isinstance(nodes[index], dict):
        return None  # 0 is TVM's null reference
    type_node = nodes[index]
    if type_node.get("type_key") != "relay.TensorType":
        return None
    attrs = type_node.get("attrs")
    if not isinstance(attrs, dict):
        raise MetadataError("its declared type has no attributes")
    dtype = attrs.get("dtype")
    shape_ref = str(attrs.get("shape", ""))
    if not isinstance(dtype, str) or not shape_ref.isdigit() or int(shape_ref) >= len(nodes):
        raise MetadataError("its declared type needs a 'dtype' and a 'shape'")
    shape_node = nodes[int(shape_ref)]
    dims = shape_node.get("data", []) if isinstance(shape_node, dict) else None
    if not isinstance(dims, list):
        raise MetadataError("its declared shape is not an array")
    shape = []
    for dim in dims:
        dim_node = nodes[dim] if isinstance(dim, int) and 0 <= dim < len(nodes) else None
        if not isinstance(dim_node, dict) or dim_node.get("type_key") != "IntImm":
            return None  # a symbolic dimension: nothing to compare
        dim_attrs = dim_node.get("attrs")
        value = dim_attrs.get("value") if isinstance(dim_attrs, dict) else None
        if not isinstance(value, str) or not value.lstrip("-").isdigit():
            raise MetadataError(f"its declared shape has a bad dimension {value!r}")
        shape.append(int(value))
    try:
        return _tensor_type(dtypes.element_type(dtype), tuple(shape))
    except (dtypes.UnknownDTypeError, ValueError):
        raise MetadataError(f"its declared type has unknown dtype {dtype!r}") from None


def _type_text(type_: RankedStructure[Attribute]) -> str:
    dims = ", ".join(str(d) for d in type_.get_shape())
    return f"Tensor[({dims}), {dtypes.dtype_name(type_.element_type)}]"


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, int | float) else "null"
    )


def decode_ndarray(encoded: str) -> DenseIntOrFPElementsAttr:
    """A base64 TVM NDArray as a dense tensor attribute.

    The header is decoded from a short prefix and checked (`ndarray_header`)
    before the data is decoded, so a lying header costs nothing.
    """
    if not isinstance(encoded, str):
        raise MetadataError(f"expected an NDArray as a base64 string, found {_kind(encoded)}")
    if "=" in encoded[:-2]:
        raise MetadataError("NDArray is not valid base64: '=' padding inside the data")
    if len(encoded) % 4:
        raise MetadataError(
            f"NDArray base64 is truncated: {len(encoded)} characters, not a multiple of 4"
        )
    available = len(encoded) * 3 // 4 - encoded[-2:].count("=")
    header = ndarray_header(lambda size: _b64decode(encoded[: 4 * math.ceil(size / 3)]), available)
    if available - header.size != header.byte_count:
        raise MetadataError(
            f"NDArray holds {available - header.size} data bytes, {header.byte_count} declared"
        )
    raw = _b64decode(encoded)
    return DenseIntOrFPElementsAttr(header.type, BytesAttr(raw[header.size :]))


@dataclass(frozen=True)
class NDArrayHeader:
    """What a TVM NDArray record says before its data."""

    type: TensorType[IntegerType | AnyFloat]
    """The array's shape and element type."""
    size: int
    """The header's bytes: the data starts there."""
    byte_count: int
    """The data's bytes."""


def ndarray_header(read: Callable[[int], bytes], available: int) -> NDArrayHeader:
    """The header of the NDArray record that is `available` bytes long (or
    longer: more may follow it); ``read(n)`` gives its first n bytes.

    Every field is checked before the data is touched: the magic, the rank,
    the dtype (lanes 1), the shape against `MAX_ELEMENTS` and the declared
    byte count, and that count against `available`, so a lying header costs
    nothing.
    """
    prefix = read(_HEADER.size)
    if len(prefix) < _HEADER.size or available < _HEADER.size:
        raise MetadataError(
            f"NDArray is truncated: {min(len(prefix), available)} bytes, less than its "
            f"{_HEADER.size}-byte header"
        )
    magic, _, _, _, ndim, code, bits, lanes = _HEADER.unpack_from(prefix)
    if magic != NDARRAY_MAGIC:
        raise MetadataError(f"expected NDArray magic 0x{NDARRAY_MAGIC:016X}, found 0x{magic:016X}")
    if not 0 <= ndim <= 32:
        raise MetadataError(f"expected an NDArray rank from 0 to 32, found {ndim}")
    if lanes != 1:
        raise MetadataError(f"vector dtypes (lanes={lanes}) are not supported")
    dtype = _dtype(code, bits)
    header_size = _HEADER.size + 8 * ndim + 8
    head = read(header_size)
    if min(len(head), available) < header_size:
        raise MetadataError(
            f"NDArray is truncated: {min(len(head), available)} bytes, less than its "
            f"{header_size}-byte header"
        )
    shape = struct.unpack_from(f"<{ndim}q", head, _HEADER.size)
    (byte_count,) = struct.unpack_from("<q", head, _HEADER.size + 8 * ndim)
    if any(d < 0 for d in shape):
        raise MetadataError(f"negative dimension in shape {tuple(shape)}")
    elements = math.prod(shape)
    if elements > MAX_ELEMENTS:
        raise MetadataError(
            f"shape {tuple(shape)} has {elements} elements, more than the limit of {MAX_ELEMENTS}"
        )
    element_type = dtypes.element_type(dtype)
    expected = elements * ((bits + 7) // 8)
    if byte_count != expected:
        raise MetadataError(
            f"shape {tuple(shape)} of {dtype} needs {expected} bytes but the NDArray declares {byte_count}"
        )
    if available - header_size < byte_count:
        raise MetadataError(
            f"NDArray holds {available - header_size} data bytes, {byte_count} declared (truncated)"
        )
    # `_dtype` names integer and float dtypes only.
    assert isinstance(element_type, IntegerType | AnyFloat)
    return NDArrayHeader(_tensor_type(element_type, shape), header_size, byte_count)


@memoised(maxsize=1024)
def _tensor_type(element_type: _E, shape: tuple[int, ...]) -> TensorType[_E]:
    """``TensorType(element_type, shape)``, built once: a model's weights
    share a few shapes, and a tensor type costs an attribute per dimension."""
    return TensorType(element_type, shape)


def _b64decode(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        bad = next((c for c in text if c not in _BASE64_CHARACTERS), None)
        found = f"found {bad!r}" if bad is not None else "bad padding"
        raise MetadataError(f"NDArray is not valid base64: {found}") from None


_BASE64_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def _dtype(code: int, bits: int) -> str:
    if (code, bits) in ((1, 1), (6, 8)):  # TVM ≤ 0.19: uint1; DLPack 1.0's kDLBool (TVM ≥ 0.20)
        return "bool"
    kind = _DTYPE_CODES.get(code)
    if kind is None:
        raise MetadataError(
            f"expected a dtype code 0 (int), 1 (uint), 2 (float) or 4 (bfloat), found {code}"
        )
    dtype = f"{kind}{bits}"
    valid = {
        "int": (8, 16, 32, 64),
        "uint": (8, 16, 32, 64),
        "float": (16, 32, 64),
        "bfloat": (16,),
    }
    if bits not in valid[kind]:
        raise MetadataError(f"unsupported dtype {dtype} (code {code}, {bits} bits)")
    return dtype


def constant_bytes(value: Attribute) -> bytes:
    """The raw little-endian buffer of a dense constant."""
    assert isinstance(value, DenseIntOrFPElementsAttr)
    return value.data.data


def encode_ndarray(value: DenseIntOrFPElementsAttr) -> str:
    """A dense tensor attribute as a base64 TVM NDArray."""
    return "".join(encode_ndarray_pieces(value))


_PIECE_BYTES = 3 * 2**20
"""Bytes encoded per piece: a multiple of 3, so the pieces' base64 concatenates."""


def encode_ndarray_pieces(value: DenseIntOrFPElementsAttr) -> Iterator[str]:
    """`encode_ndarray` in pieces of at most 4 MiB, for writing without the whole text."""
    type_ = value.type
    dtype = dtypes.dtype_name(type_.element_type)
    bits = 1 if dtype == "bool" else dtypes.bit_width(type_.element_type)
    kind = "uint" if dtype == "bool" else dtype.rstrip("0123456789")
    shape = type_.get_shape()
    data = memoryview(value.data.data)
    header = _HEADER.pack(NDARRAY_MAGIC, 0, 1, 0, len(shape), _CODE_OF[kind], bits, 1)
    header += struct.pack(f"<{len(shape)}q", *shape) + struct.pack("<q", len(data))
    # The first piece carries the header, so the data is sliced, never copied whole.
    start = min(len(data), _PIECE_BYTES - len(header))
    yield base64.b64encode(header + data[:start]).decode("ascii")
    for offset in range(start, len(data), _PIECE_BYTES):
        yield base64.b64encode(data[offset : offset + _PIECE_BYTES]).decode("ascii")


def encode_metadata(values: Iterable[DenseIntOrFPElementsAttr]) -> Iterable[str]:
    """Chunks of a metadata section (JSON after ``#[metadata]``) for `values`.

    The nodes follow what TVM's ``SaveJSON`` writes for type-checked
    constants, so TVM's ``LoadJSON`` accepts them. The arrays come in
    base64 pieces of at most 4 MiB, so a caller writing the chunks holds
    one piece at a time, never the whole text or a whole array.
    """
    values = list(values)
    yield _metadata_header(values)
    for index, value in enumerate(values):
        yield ("\n    " if index == 0 else ", \n    ") + '"'
        yield from encode_ndarray_pieces(value)
        yield '"'
    yield '\n  ], \n  "attrs": {"tvm_version": "' + TVM_VERSION + '"}\n}'


def _metadata_header(values: list[DenseIntOrFPElementsAttr]) -> str:
    """The metadata JSON up to its base64 arrays: the graph of constant nodes."""
    nodes: list[dict] = [
        {"type_key": ""},
        {"type_key": "Map", "keys": ["relay.Constant"], "data": [2]},
        {"type_key": "Array", "data": []},
        {
            "type_key": "VirtualDevice",
            "attrs": {
                "device_type_int": "-1",
                "memory_scope": "4",
                "target": "0",
                "virtual_device_id": "-1",
            },
        },
        {"type_key": "runtime.String"},
    ]
    for array_index, value in enumerate(values):
        constant_index = len(nodes)
        nodes[2]["data"].append(constant_index)
        shape = value.type.get_shape()
        nodes.append(
            {
                "type_key": "relay.Constant",
                "attrs": {
                    "_checked_type_": str(constant_index + 1),
                    "data": str(array_index),
                    "span": "0",
                    "virtual_device_": "3",
                },
            }
        )
        nodes.append(
            {
                "type_key": "relay.TensorType",
                "attrs": {
                    "dtype": dtypes.dtype_name(value.type.element_type),
                    "shape": str(constant_index + 2),
                    "span": "0",
                },
            }
        )
        dims = list(range(constant_index + 3, constant_index + 3 + len(shape)))
        nodes.append({"type_key": "Array", "data": dims} if dims else {"type_key": "Array"})
        for dim in shape:
            nodes.append(
                {
                    "type_key": "IntImm",
                    "attrs": {"dtype": "int32", "span": "0", "value": str(dim)},
                }
            )
    return '{\n  "root": 1, \n  "nodes": ' + json.dumps(nodes) + ', \n  "b64ndarrays": ['
