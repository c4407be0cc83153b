"""Relay operator attributes: their kinds, schemas and stored values.

An operator's attributes are the fields of its TVM attrs struct. Each field
is a :class:`RelayAttr` (name, kind, TVM's default); an operator's schema is
the tuple of its fields in TVM's declaration order, written with one
constructor a kind: ``integer``, ``floating``, ``boolean``, ``string``,
``dtype``, ``ints``, ``floats`` and ``anything`` take the field's name and
TVM's default (``None`` when left out) and ``required=True`` for a field TVM
gives no default, so ``ints("strides", (1, 1))`` is
``RelayAttr("strides", AttrKind.INTS, (1, 1))``; ``builder_default=`` gives
the value TVM's Python builder sets where the struct leaves the field unset
and TVM's relation needs it. The values are stored as builtin attributes:

=================  ===========================================
Relay              MLIR
=================  ===========================================
``1`` / ``1i64``   ``1 : i32`` / ``1 : i64``
``0.5f``           ``5.000000e-01 : f32`` (``f64`` for ``f64``)
``True``           ``true``
``"NCHW"``         ``"NCHW"``
``[1, 1]``         ``array<i32: 1, 1>`` (``array<f32: ...>`` for floats)
nested arrays      ``[array<i32: 0, 0>, ...]``
``None``           ``unit`` (only where the default is None)
=================  ===========================================
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, NamedTuple

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    f32,
    i32,
)
from xdsl.ir import Attribute

from relay_xdsl.support.memo import memoised_by_identity


class AttrKind(Enum):
    """What values a Relay attribute accepts."""

    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    STR = "str"
    DTYPE = "dtype"
    INTS = "ints"
    FLOATS = "floats"
    ANY = "any"


class RelayAttr(NamedTuple):
    """One field of a Relay attrs struct: name, kind and TVM's default.

    A default of ``None`` means TVM leaves the field unset, so ``None`` is a
    legal value for it. A ``required`` field has no default in TVM; TVM's
    printer always prints it, ``None`` included.
    """

    name: str
    kind: AttrKind
    default: Any
    required: bool = False
    builder_default: Any = None
    """What a call that leaves the field unset (absent or ``None``) means,
    where the attrs struct leaves it unset but TVM's relation or compiler
    needs a value: the value TVM's Python builder sets (``relay.strided_slice``'s
    ``strides=[1]``, ``relay.image.resize2d``'s zero ``roi``). The printer
    writes it for such a call, as TVM prints the call its builder makes, so
    that TVM reads the call as the dialect does. ``None``: no such value."""


def integer(name: str, default: int | None = None, *, required: bool = False) -> RelayAttr:
    """An ``int`` field."""
    return RelayAttr(name, AttrKind.INT, default, required)


def floating(name: str, default: float | None = None, *, required: bool = False) -> RelayAttr:
    """A ``float`` field."""
    return RelayAttr(name, AttrKind.FLOAT, default, required)


def boolean(name: str, default: bool | None = None, *, required: bool = False) -> RelayAttr:
    """A ``bool`` field."""
    return RelayAttr(name, AttrKind.BOOL, default, required)


def string(name: str, default: str | None = None, *, required: bool = False) -> RelayAttr:
    """A string field."""
    return RelayAttr(name, AttrKind.STR, default, required)


def dtype(
    name: str,
    default: str | None = None,
    *,
    required: bool = False,
    builder_default: str | None = None,
) -> RelayAttr:
    """A data type field (``""`` is unset: the operator picks the dtype)."""
    return RelayAttr(name, AttrKind.DTYPE, default, required, builder_default)


def ints(
    name: str,
    default: tuple[int, ...] | None = None,
    *,
    required: bool = False,
    builder_default: tuple[int, ...] | None = None,
) -> RelayAttr:
    """An array-of-``int`` field."""
    return RelayAttr(name, AttrKind.INTS, default, required, builder_default)


def floats(
    name: str,
    default: tuple[float, ...] | None = None,
    *,
    required: bool = False,
    builder_default: tuple[float, ...] | None = None,
) -> RelayAttr:
    """An array-of-``float`` field."""
    return RelayAttr(name, AttrKind.FLOATS, default, required, builder_default)


def anything(name: str, default: Any = None, *, required: bool = False) -> RelayAttr:
    """A field of any value (``indices_or_sections``: an int or an array)."""
    return RelayAttr(name, AttrKind.ANY, default, required)


class OpPattern(Enum):
    """TVM's ``TOpPattern``: how an operator combines with its neighbours in fusion."""

    ELEMWISE = 0
    BROADCAST = 1
    INJECTIVE = 2
    COMM_REDUCE = 3
    OUT_ELEMWISE_FUSABLE = 4
    TUPLE = 7
    OPAQUE = 8


@memoised_by_identity(maxsize=4096)  # a module shares its attribute values
def attr_value(attr: Attribute) -> Any:
    """The Python value of a stored Relay attribute (``None`` for ``unit``)."""
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
            return bool(value)
        return value
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, DenseArrayBase):
        return tuple(attr.get_values())
    if isinstance(attr, ArrayAttr):
        return tuple(attr_value(element) for element in attr.data)
    if isinstance(attr, UnitAttr):
        return None
    return attr


def stored(value: Any) -> Attribute:
    """`value` (the inverse of :func:`attr_value`) stored as the Relay text
    importer stores the same literal: ``int`` as ``i32``, ``float`` as
    ``f32``, a flat list of either as a dense array, a nested list as an
    array of those, ``None`` as ``unit``."""
    if value is None:
        return UnitAttr()
    if isinstance(value, bool):
        return BoolAttr.from_bool(value)
    if isinstance(value, int):
        return IntegerAttr(value, i32)
    if isinstance(value, float):
        return FloatAttr(value, f32)
    if isinstance(value, str):
        return StringAttr(value)
    values = list(value)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return DenseArrayBase.from_list(i32, values)
    if all(isinstance(v, float) for v in values):
        return DenseArrayBase.from_list(f32, values)
    return ArrayAttr([stored(v) for v in values])


def _is_int(attr: Attribute) -> bool:
    return (
        isinstance(attr, IntegerAttr)
        and isinstance(attr.type, IntegerType)
        and attr.type.width.data != 1
    )


def _is_number_array(attr: Attribute, scalar_ok: Callable[[Attribute], bool]) -> bool:
    if isinstance(attr, DenseArrayBase):
        return True
    return isinstance(attr, ArrayAttr) and all(scalar_ok(e) for e in attr.data)


def accepts(kind: AttrKind, attr: Attribute) -> bool:
    """Whether `attr` (not ``unit``) is a value of kind `kind`."""
    match kind:
        case AttrKind.INT:
            return _is_int(attr)
        case AttrKind.FLOAT:
            return isinstance(attr, FloatAttr) or _is_int(attr)
        case AttrKind.BOOL:
            return isinstance(attr, IntegerAttr)
        case AttrKind.STR | AttrKind.DTYPE:
            return isinstance(attr, StringAttr)
        case AttrKind.INTS:
            return _is_number_array(attr, _is_int) and not (
                isinstance(attr, DenseArrayBase) and not isinstance(attr.elt_type, IntegerType)
            )
        case AttrKind.FLOATS:
            return _is_number_array(attr, lambda e: isinstance(e, FloatAttr) or _is_int(e))
        case AttrKind.ANY:
            return True
