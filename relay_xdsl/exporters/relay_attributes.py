"""How values and names are spelled in Relay text, as TVM v0.19's printer
writes them: attribute values, literals, identifiers and function attributes.

* integers print bare when 32 bits wide, else with their width (``2i64``);
  ``i1`` prints as ``True``/``False``;
* floats print as the shortest decimal that reads back as the same value,
  with their type's suffix (``1f``, ``0.5f16``, ``2f64``);
* ``array<...>`` and ``[...]`` print as ``[a, b]``, a unit as ``None``;
* a rank-0 constant of a dtype TVM writes inline prints as its literal.
"""

from __future__ import annotations

import math
import re
import struct

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes
from relay_xdsl.relay_text.types import RelayExportError
from relay_xdsl.support.memo import memoised, memoised_by_identity


@memoised_by_identity(maxsize=4096)  # a module shares its attribute values
def attribute_value(attr: Attribute) -> str:
    """An attribute value in Relay syntax."""
    if isinstance(attr, IntegerAttr):
        return _integer(attr.value.data, attr.type)
    if isinstance(attr, FloatAttr):
        return _float(attr.value.data, attr.type)
    if isinstance(attr, StringAttr):
        if '"' in attr.data:
            # Relay strings have no escapes: a quote would end the string.
            raise RelayExportError(
                f"string {attr.data!r} contains '\"', which Relay text cannot hold"
            )
        return '"' + attr.data + '"'
    if isinstance(attr, DenseArrayBase):
        element = attr.elt_type
        if isinstance(element, IntegerType):
            return "[" + ", ".join(_integer(v, element) for v in attr.get_values()) + "]"
        return "[" + ", ".join(_float(v, element) for v in attr.get_values()) + "]"
    if isinstance(attr, ArrayAttr):
        return "[" + ", ".join(attribute_value(a) for a in attr.data) + "]"
    if isinstance(attr, UnitAttr):
        return "None"
    if isinstance(attr, relay.MetaRefAttr):
        return f"meta[{attr.kind.data}][{attr.index.data}]"
    raise RelayExportError(f"attribute value {attr} has no Relay equivalent")


def _integer(value: int, type_: Attribute) -> str:
    assert isinstance(type_, IntegerType)
    width = type_.width.data
    if width == 1:
        return "True" if value else "False"
    if width not in (8, 16, 32, 64):
        raise RelayExportError(f"integer type {type_} has no Relay literal")
    return str(value) if width == 32 else f"{value}i{width}"


_DOTTED_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_/]*(\.[A-Za-z_][A-Za-z0-9_/]*)*")
_RESERVED = {
    "fn",
    "def",
    "let",
    "free_var",
    "meta",
    "Tensor",
    "True",
    "False",
    "None",
    "if",
    "else",
    "match",
    "ref",
    "type",
    "extern",
}


def checked_name(name: str, what: str, dotted: bool = False) -> str:
    """`name` if Relay text can spell it as a `what`, else a `RelayExportError`."""
    if not _spellable(name, dotted):
        raise RelayExportError(f"{what} {name!r} is not a Relay identifier")
    return name


@memoised(maxsize=4096)  # a module repeats its attribute and operator names
def _spellable(name: str, dotted: bool) -> bool:
    pattern = _DOTTED_IDENTIFIER if dotted else _RELAY_IDENTIFIER
    # Only an operator name stands where a keyword would change the meaning.
    return bool(pattern.fullmatch(name)) and not (dotted and name.split(".")[0] in _RESERVED)


def _float(value: float, type_: Attribute) -> str:
    if math.isnan(value):
        raise RelayExportError("NaN has no Relay literal")
    type_name = _mlir_spelling(type_)
    if value in (float("inf"), float("-inf")):
        text = "inf" if value > 0 else "-inf"
    else:
        text = _shortest_repr(value, type_name)
    suffix = {"f32": "f", "f64": "f64", "f16": "f16"}.get(type_name, None)
    if suffix is None:
        raise RelayExportError(f"float type {type_name} has no Relay literal")
    return text + suffix


@memoised(maxsize=64)
def _mlir_spelling(type_: Attribute) -> str:
    """``f32``: `type_` as MLIR spells it (xDSL's printer is slow to start)."""
    return str(type_)


def _shortest_repr(value: float, type_name: str) -> str:
    """The shortest decimal that reads back as the same value of `type_name`."""
    packing = {"f32": "<f", "f16": "<e"}.get(type_name)
    text = repr(value)
    if packing is not None:
        stored = struct.pack(packing, value)
        for digits in range(1, 18):
            candidate = float(f"{value:.{digits}g}")
            if struct.pack(packing, candidate) == stored:
                text = repr(candidate)
                break
    return text.removesuffix(".0")


_SCALAR_FORMATS = {
    "float32": "<f",
    "float64": "<d",
    "float16": "<e",
    "int16": "<h",  # TVM's printer writes int16, int32 and int64 scalars inline
    "int32": "<i",
    "int64": "<q",
    "bool": "<?",
}


def scalar_literal(value: DenseIntOrFPElementsAttr) -> str | None:
    """The literal TVM prints for a rank-0 constant of a printable dtype."""
    type_ = value.type
    if type_.get_shape():
        return None
    dtype = dtypes.dtype_name(type_.element_type)
    fmt = _SCALAR_FORMATS.get(dtype)
    if fmt is None:
        return None
    (scalar,) = struct.unpack(fmt, value.data.data)
    if dtype == "bool":
        return "True" if scalar else "False"
    if dtype.startswith("int"):
        return _integer(scalar, type_.element_type)
    return _float(scalar, type_.element_type)


_RELAY_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_/]*")


def relay_identifier(name: str) -> str:
    """`name` made a valid Relay identifier (MLIR names may hold ``-`` or start with a digit)."""
    if _RELAY_IDENTIFIER.fullmatch(name):
        return name
    name = re.sub(r"[^A-Za-z0-9_/]", "_", name)
    return name if _RELAY_IDENTIFIER.fullmatch(name) else "v" + name


_FUNCTION_ATTRIBUTE_ORDER = (
    "Inline",
    "PartitionedFromPattern",
    "Composite",
    "Primitive",
    "Compiler",
    "global_symbol",
)
"""The order of these function attributes in TVM's printouts (its maps keep
insertion order: a text's ``Inline`` comes before the ``Primitive``,
``Compiler`` and ``global_symbol`` passes add). MLIR tools sort attribute
dictionaries, so the printer restores TVM's order; other attributes follow
in their stored order."""


def function_attributes(attributes: dict[str, Attribute]) -> list[str]:
    rank = {name: index for index, name in enumerate(_FUNCTION_ATTRIBUTE_ORDER)}
    ordered = sorted(attributes.items(), key=lambda item: rank.get(item[0], len(rank)))
    return [
        f"{checked_name(key, 'attribute name', dotted=True)}={attribute_value(value)}"
        for key, value in ordered
    ]
