"""How a Relax operator maps onto a dialect op, and how its attributes convert.

Each operator's registry row holds its :class:`RelaxOp` (or the reason why
it has none); the Relax importer and exporter share them, and this module
needs no TVM. A mapping ties one Relax operator to the row's op:

* a Relay operator (``relay.nn.conv2d`` for ``relax.nn.conv2d``) where the
  two have the same semantics; Relax attribute fields become the Relay
  attributes of the op's schema, under Relay's names and value kinds;
* a Relax-only operator (``relay.relax.matmul``) where Relax's semantics
  differ from every Relay operator.

Import stores every Relax field explicitly, so export gives back exactly
the Relax attributes. An op that came from Relay text may leave attributes
out; export then derives the Relax value from the Relay default (an empty
``out_layout`` is the data layout, two-entry padding is symmetric, ...).

A Relax call that a mapping cannot express exactly (say ``max_pool2d`` with
``count_include_pad=True``, which Relay's ``nn.max_pool2d`` lacks) raises
:class:`Unmappable`, and the importer falls back to the generic
``relay.op "relax.<name>"``, which carries every Relax attribute.

Attribute encodings used here:

=======================  ===========================================
Relax value              MLIR attribute
=======================  ===========================================
``int``                  ``i32`` (``i64`` when it does not fit)
``Array[int]``           ``array<i32: ...>`` (``array<i64: ...>`` likewise)
``float`` (a C double)   ``f64``, bit-exact
``bool``                 ``i1``
``str``, ``DataType``    string
``None``                 absent, or ``unit`` where Relay requires the field
typed ``IntImm``         integer of the IntImm's width (in typed positions)
typed ``FloatImm``       float of the FloatImm's width (in typed positions)
=======================  ===========================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    UnitAttr,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.attributes import RelayAttr, attr_value
from relay_xdsl.dialects.relay.bindings import BINDING_BLOCK, DATAFLOW

if TYPE_CHECKING:
    from relay_xdsl.dialects.relay.ops import OperatorOp

GLOBAL_NAME = "relax.global_name"
"""On a ``relay.fn``: the private global Relax function it was outlined into."""
LOCAL_NAME = "relax.local_name"
"""On a ``relay.fn``: the local variable its Relax function was bound to."""
SHAPE_VARS = "relax.shape_vars"
"""On a function or ``relay.fn``: names of the symbolic (``?``) parameter dimensions."""
ATTRS_TYPE = "relax.attrs_type"
"""On a generic ``relay.op``: the type key of the Relax attrs object."""
ARG_PREFIX = "relax.arg"
"""On a generic ``relay.op``: ``relax.arg<i>`` holds non-tensor argument ``i``."""

BOOKKEEPING = frozenset({GLOBAL_NAME, LOCAL_NAME, BINDING_BLOCK, DATAFLOW, SHAPE_VARS})
"""Function and ``relay.fn`` attributes that are not Relax function attributes."""


class Unmappable(Exception):
    """The Relax call has no exact form in the mapped op; import it generically."""


class PrimValue(NamedTuple):
    """A typed scalar (TVM's ``IntImm``/``FloatImm``): a value and its dtype."""

    value: int | float
    dtype: str


# ---------------------------------------------------------------------------
# Value kinds
# ---------------------------------------------------------------------------


class Kind(Enum):
    """How one Relax attribute field converts to and from its Relay attribute."""

    INT = "int"
    INTS = "ints"
    FLOAT = "float"
    BOOL = "bool"
    NEGATED_BOOL = "negated_bool"
    """A ``bool`` that Relay states the other way round (``descending`` and ``is_ascend``)."""
    STR = "str"
    DTYPE = "dtype"
    """``Optional[DataType]`` (or ``DataType``): ``None`` is Relay's ``""``."""
    OPT_INT = "opt_int"
    OPT_INTS = "opt_ints"
    SINGLE_AXIS = "single_axis"
    """A one-element Relax axis list that Relay stores as one int."""
    INTS_OR_NONE = "ints_or_none"
    """``Optional[Array[int]]`` where Relay's empty array means what Relax's None does."""
    INT64_OR_INT64S = "int64_or_int64s"
    """``split``'s ``indices_or_sections``: an int64 ``IntImm`` or an array of them."""


def _fits_i32(value: int) -> bool:
    return -(2**31) <= value < 2**31


def int_attr(value: int) -> IntegerAttr:
    """A plain Relax int as an MLIR integer (``i32`` when it fits, like Relay)."""
    return IntegerAttr(value, i32 if _fits_i32(value) else i64)


def ints_attr(values: Sequence[int]) -> DenseArrayBase:
    """A Relax ``Array[int]`` as a dense array (``i32`` elements when they all fit)."""
    element = i32 if all(_fits_i32(v) for v in values) else i64
    return DenseArrayBase.from_list(element, list(values))


def typed_attr(value: PrimValue) -> Attribute:
    """A typed scalar as an MLIR number of the same type."""
    if value.dtype == "bool":
        return BoolAttr.from_bool(bool(value.value))
    if value.dtype.startswith("int"):
        return IntegerAttr(int(value.value), IntegerType(int(value.dtype[3:])))
    if value.dtype == "float32":
        return FloatAttr(float(value.value), f32)
    if value.dtype == "float64":
        return FloatAttr(float(value.value), f64)
    raise Unmappable(f"scalar of dtype {value.dtype}")


def typed_value(attr: Attribute) -> PrimValue:
    """The typed scalar stored by :func:`typed_attr` (an int defaults to int32)."""
    if isinstance(attr, IntegerAttr):
        width = attr.type.width.data if isinstance(attr.type, IntegerType) else 64
        if width == 1:
            return PrimValue(bool(attr.value.data), "bool")
        return PrimValue(attr.value.data, f"int{width}")
    if isinstance(attr, FloatAttr):
        return PrimValue(attr.value.data, "float32" if attr.type == f32 else "float64")
    raise ValueError(f"{attr} is not a number")


def encode_value(value: Any) -> Attribute:
    """A Relax attribute value without a schema (function attributes, generic ops).

    Plain ints are ``i64`` and typed ``IntImm``s are signed integers of their
    width (``si32``), so the two stay apart; ``None`` is ``unit``.
    """
    if value is None:
        return UnitAttr()
    if isinstance(value, PrimValue):
        if isinstance(value.value, float):
            raise TypeError(f"typed float {value} has no schema-free encoding")
        width = 1 if value.dtype == "bool" else int(value.dtype.removeprefix("int"))
        return IntegerAttr(int(value.value), IntegerType(width, Signedness.SIGNED))
    if isinstance(value, bool):
        return BoolAttr.from_bool(value)
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, float):
        return FloatAttr(value, f64)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, dict):
        return DictionaryAttr({k: encode_value(v) for k, v in value.items()})
    if isinstance(value, tuple | list):
        if value and all(type(v) is int for v in value):
            return DenseArrayBase.from_list(i64, list(value))
        return ArrayAttr([encode_value(v) for v in value])
    raise ValueError(f"unsupported attribute value {value!r}")


def decode_value(attr: Attribute) -> Any:
    """The Python value of an attribute encoded by :func:`encode_value`."""
    if isinstance(attr, UnitAttr):
        return None
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType):
        width = attr.type.width.data
        if attr.type.signedness.data == Signedness.SIGNED:
            return PrimValue(attr.value.data, "bool" if width == 1 else f"int{width}")
        return bool(attr.value.data) if width == 1 else attr.value.data
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, DenseArrayBase):
        return list(attr.get_values())
    if isinstance(attr, ArrayAttr):
        return [decode_value(a) for a in attr.data]
    if isinstance(attr, DictionaryAttr):
        return {k: decode_value(v) for k, v in attr.data.items()}
    raise ValueError(f"attribute {attr} has no Relax value")


def _encode(kind: Kind, value: Any, spec: RelayAttr) -> Attribute | None:
    """The Relay attribute for Relax value `value`; None leaves it out."""
    if value is None:
        if kind is Kind.INTS_OR_NONE:
            return ints_attr([])
        if kind in (Kind.DTYPE, Kind.OPT_INT, Kind.OPT_INTS):
            if spec.required:
                return UnitAttr()
            if spec.default is None or kind is Kind.DTYPE:
                return None
        raise Unmappable(f"'{spec.name}' is None")
    match kind:
        case Kind.INT | Kind.OPT_INT:
            return int_attr(int(value))
        case Kind.INTS | Kind.OPT_INTS | Kind.INTS_OR_NONE:
            return ints_attr([int(v) for v in value])
        case Kind.FLOAT:
            return FloatAttr(float(value), f64)
        case Kind.BOOL:
            return BoolAttr.from_bool(bool(value))
        case Kind.NEGATED_BOOL:
            return BoolAttr.from_bool(not value)
        case Kind.STR | Kind.DTYPE:
            return StringAttr(str(value))
        case Kind.SINGLE_AXIS:
            if len(value) != 1:
                raise Unmappable(f"'{spec.name}' lists {len(value)} axes")
            return int_attr(int(value[0]))
        case Kind.INT64_OR_INT64S:
            if isinstance(value, PrimValue):
                if value.dtype != "int64":
                    raise Unmappable(f"'{spec.name}' is {value.dtype}")
                return IntegerAttr(int(value.value), i64)
            if not all(isinstance(v, PrimValue) and v.dtype == "int64" for v in value):
                raise Unmappable(f"'{spec.name}' is not a list of int64")
            return DenseArrayBase.from_list(i64, [int(v.value) for v in value])
    raise AssertionError(kind)


def _decode(kind: Kind, value: Any) -> Any:
    """The Relax value of Relay attribute value `value` (a Python value)."""
    if value is None:
        return None
    match kind:
        case Kind.INT | Kind.OPT_INT:
            return int(value)
        case Kind.INTS | Kind.OPT_INTS:
            return [int(v) for v in value]
        case Kind.INTS_OR_NONE:
            return [int(v) for v in value] or None
        case Kind.FLOAT:
            return float(value)
        case Kind.BOOL:
            return bool(value)
        case Kind.NEGATED_BOOL:
            return not value
        case Kind.STR:
            return str(value)
        case Kind.DTYPE:
            return str(value) or None
        case Kind.SINGLE_AXIS:
            return [int(value)]
        case Kind.INT64_OR_INT64S:
            if isinstance(value, tuple | list):
                return [PrimValue(int(v), "int64") for v in value]
            return PrimValue(int(value), "int64")
    raise AssertionError(kind)


# ---------------------------------------------------------------------------
# Mappings
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One Relax attribute field and the Relay attribute that holds it."""

    relax: str
    kind: Kind
    relay: str = ""
    """The Relay attribute's name; empty means the same as the Relax name."""

    @property
    def relay_name(self) -> str:
        return self.relay or self.relax


class ArgRole(Enum):
    """What a Relax call argument is, and where it lives in the dialect op."""

    TENSOR = "tensor"
    """An operand (a tensor, or a tuple of tensors)."""
    SHAPE = "shape"
    """A static ``ShapeExpr``, stored as an int array attribute."""
    PRIM = "prim"
    """A typed scalar (``FloatImm``/``IntImm``), stored as a typed number."""
    PRIM_TUPLE = "prim_tuple"
    """A tuple of typed integer scalars, stored as an int array of their type."""


@dataclass(frozen=True)
class Arg:
    """A positional Relax argument: its role and, if stored, the attribute name."""

    role: ArgRole
    attr: str = ""
    optional: bool = False
    """Only for trailing arguments: absent in the call when the attribute is absent."""


TENSOR = Arg(ArgRole.TENSOR)

ExportHook = Callable[["OperatorOp", dict[str, Any]], None]
"""Adjusts the Relax field values derived from an op (which may come from Relay text)."""


@dataclass(frozen=True)
class RelaxOp:
    """How one Relax operator maps onto one dialect op."""

    relax_name: str
    attrs_type: str | None = None
    """The Relax attrs type key; None when Relax calls of this op carry no attrs."""
    fields: tuple[Field, ...] = ()
    implied: tuple[tuple[str, Any], ...] = ()
    """Relax fields that the dialect op cannot store: mapped only at these values."""
    args: tuple[Arg, ...] | None = None
    """Argument roles; None means every argument is an operand."""
    relay_defaults_only: tuple[str, ...] = ()
    """Relay attributes without a Relax counterpart: export needs their default."""
    export_hook: ExportHook | None = None
    import_hook: Callable[[dict[str, Attribute]], None] | None = None
    """Completes the op's attributes after import (Relay-only flags)."""

    def encode_attributes(
        self, values: dict[str, Any], schema: Mapping[str, RelayAttr]
    ) -> dict[str, Attribute]:
        """The op's attributes (`schema` is the op's) for Relax field values
        `values` (Python values)."""
        for name, expected in self.implied:
            if values.get(name) != expected:
                raise Unmappable(f"'{name}' is {values.get(name)!r}")
        attributes: dict[str, Attribute] = {}
        for f in self.fields:
            attr = _encode(f.kind, values.get(f.relax), schema[f.relay_name])
            if attr is not None:
                attributes[f.relay_name] = attr
        return attributes

    def decode_attributes(self, op: OperatorOp) -> dict[str, Any]:
        """The Relax field values for dialect op `op` (defaults filled in)."""
        for name in self.relay_defaults_only:
            if op.relay_attr(name) != op.schema[name].default:
                raise ValueError(
                    f"'{op.operator_name}' with {name}={op.relay_attr(name)!r} "
                    f"has no Relax counterpart"
                )
        values = {f.relax: _decode(f.kind, op.relay_attr(f.relay_name)) for f in self.fields}
        values.update(self.implied)
        for arg in self.args or ():
            if arg.role is ArgRole.TENSOR:
                continue
            attr = op.attributes.get(arg.attr)
            if attr is None or isinstance(attr, UnitAttr):
                values[arg.attr] = None
            elif arg.role is ArgRole.PRIM:
                values[arg.attr] = typed_value(attr)
            elif arg.role is ArgRole.SHAPE:
                values[arg.attr] = [int(v) for v in attr_value(attr)]
            else:
                assert isinstance(attr, DenseArrayBase)
                width = attr.elt_type.width.data
                values[arg.attr] = [PrimValue(int(v), f"int{width}") for v in attr.get_values()]
        if self.export_hook is not None:
            self.export_hook(op, values)
        return values


# ---------------------------------------------------------------------------
# Export hooks shared by several operators: Relay defaults that Relax spells differently
# ---------------------------------------------------------------------------


def expand_padding(padding: Sequence[int], spatial: int) -> list[int]:
    """Relay's 1/2/4(/6) entry padding as Relax's (before..., after...) list."""
    padding = list(padding)
    if len(padding) == 2 * spatial:
        return padding
    if len(padding) == 1:
        return padding * (2 * spatial)
    if len(padding) == spatial:
        return padding + padding
    raise ValueError(f"padding {padding} does not fit {spatial} spatial axes")


def layouts_hook(data: str, *, spatial: int, pad: str = "padding") -> ExportHook:
    """Fill an empty ``out_layout`` from ``data`` and expand the padding."""

    def hook(op: OperatorOp, values: dict[str, Any]) -> None:
        if not values.get("out_layout"):
            values["out_layout"] = values[data]
        values[pad] = expand_padding(values[pad], spatial)

    return hook
