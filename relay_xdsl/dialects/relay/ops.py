"""The `relay` dialect: TVM Relay programs as MLIR operations.

A Relay program maps onto MLIR as follows:

* each global function is a ``func.func``; calls to globals are ``func.call``;
* each Relay operator call is one op named ``relay.<operator>``, e.g.
  ``relay.nn.conv2d``; its Relay attributes live in the op's attribute
  dictionary and are checked against the operator's schema;
* an operator without a definition here is a ``relay.op`` carrying its name;
* a function literal called in place (a fused or composite function) is a
  ``relay.fn`` region op terminated by ``relay.return``;
* constants, tuples and tuple projections are ``relay.constant``,
  ``relay.tuple`` and ``relay.tuple_get_item``.

Relay types are builtin ``tensor<...>`` (``?`` for dynamic dimensions) and
builtin ``tuple<...>``.

Relay attribute values are stored as builtin attributes:

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

import math
from abc import ABC
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar, NamedTuple

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
)
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.bindings import LetOp

# ---------------------------------------------------------------------------
# Attribute schemas
# ---------------------------------------------------------------------------


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


class OpPattern(Enum):
    """TVM's ``TOpPattern``: how an operator combines with its neighbours in fusion."""

    ELEMWISE = 0
    BROADCAST = 1
    INJECTIVE = 2
    COMM_REDUCE = 3
    OUT_ELEMWISE_FUSABLE = 4
    TUPLE = 7
    OPAQUE = 8


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


def _is_int(attr: Attribute) -> bool:
    return (
        isinstance(attr, IntegerAttr)
        and isinstance(attr.type, IntegerType)
        and attr.type.width.data != 1
    )


def _is_number_array(attr: Attribute, scalar_ok) -> bool:
    if isinstance(attr, DenseArrayBase):
        return True
    return isinstance(attr, ArrayAttr) and all(scalar_ok(e) for e in attr.data)


def _accepts(kind: AttrKind, attr: Attribute) -> bool:
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


# ---------------------------------------------------------------------------
# Shared syntax helpers
# ---------------------------------------------------------------------------


def _is_relay_type(type_: Attribute) -> bool:
    if isinstance(type_, TensorType):
        return True
    if isinstance(type_, TupleType):
        return all(_is_relay_type(t) for t in type_.types.data)
    return False


def _verify_relay_type(what: str, type_: Attribute) -> None:
    if not _is_relay_type(type_):
        raise VerifyException(f"{what} must be a tensor or a tuple of tensors, got {type_}")


def _parse_extra_attributes(parser: Parser, reserved: tuple[str, ...]) -> dict[str, Attribute]:
    """An optional attribute dictionary that may not restate the inline fields."""
    pos = parser.pos
    attributes = parser.parse_optional_attr_dict()
    for name in reserved:
        if name in attributes:
            parser.raise_error(
                f"'{name}' is given inline and may not be repeated in the attribute dictionary",
                pos,
                parser.pos,
            )
    return attributes


def _parse_call_operands(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )


def _parse_signature(
    parser: Parser, operands: Sequence[UnresolvedOperand], pos: int
) -> tuple[list[SSAValue], Attribute]:
    """Parse ``: (arg types) -> result type`` and resolve the operands."""
    parser.parse_punctuation(":")
    signature = parser.parse_function_type()
    if len(signature.outputs.data) != 1:
        parser.raise_error("expected exactly one result type", pos, parser.pos)
    args = parser.resolve_operands(operands, signature.inputs.data, pos)
    return args, signature.outputs.data[0]


def _print_signature(printer: Printer, args: Sequence[SSAValue], result: Attribute) -> None:
    printer.print_string(" : ")
    printer.print_attribute(FunctionType.from_lists([a.type for a in args], [result]))


# ---------------------------------------------------------------------------
# Operator calls
# ---------------------------------------------------------------------------


class OperatorOp(IRDLOperation, ABC):
    """A call of a Relay operator.

    ``@relay_operator`` fixes, per subclass, the operator's name in Relay
    text, its attribute schema (TVM's attrs struct fields, in TVM's
    declaration order, with TVM's defaults), the number of arguments
    (``None`` for variadic), whether the result is a tuple, and the fusion
    pattern (TVM's ``TOpPattern``).

    Syntax::

        %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>}
               : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
    """

    args = var_operand_def()
    result = result_def()

    traits = traits_def(Pure())

    RELAY_NAME: ClassVar[str]
    RELAY_ATTRS: ClassVar[tuple[RelayAttr, ...]] = ()
    SCHEMA: ClassVar[dict[str, RelayAttr]] = {}
    ARITY: ClassVar[int | None] = 1
    RETURNS_TUPLE: ClassVar[bool | None] = False
    TUPLE_INPUT: ClassVar[bool] = False
    PATTERN: ClassVar[OpPattern] = OpPattern.OPAQUE

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[args],
            result_types=[result_type],
            attributes=dict(attributes or {}),
        )

    @property
    def operator_name(self) -> str:
        return self.RELAY_NAME

    def relay_attr(self, name: str) -> Any:
        """The Python value of attribute `name`, or its TVM default when absent."""
        if name in self.attributes:
            return attr_value(self.attributes[name])
        return self.SCHEMA[name].default

    def non_default_attributes(self) -> list[tuple[str, Attribute]]:
        """Stored attributes whose value differs from TVM's default, in schema order."""
        schema = self.SCHEMA
        return [
            (a.name, self.attributes[a.name])
            for a in schema.values()
            if a.name in self.attributes and attr_value(self.attributes[a.name]) != a.default
        ]

    def verify_(self) -> None:
        if self.ARITY is not None and len(self.args) != self.ARITY:
            raise VerifyException(
                f"'{self.RELAY_NAME}' expects {self.ARITY} argument(s), got {len(self.args)}"
            )
        for index, arg in enumerate(self.args):
            _verify_relay_type(f"argument #{index}", arg.type)
        _verify_relay_type("result", self.result.type)
        if self.TUPLE_INPUT and not (
            len(self.args) == 1 and isinstance(self.args[0].type, TupleType)
        ):
            raise VerifyException(f"'{self.RELAY_NAME}' takes a single tuple argument")
        if self.RETURNS_TUPLE is not None and self.RETURNS_TUPLE != isinstance(
            self.result.type, TupleType
        ):
            expected = "a tuple" if self.RETURNS_TUPLE else "a tensor"
            raise VerifyException(f"'{self.RELAY_NAME}' returns {expected}, got {self.result.type}")
        schema = self.SCHEMA
        for name, attr in self.attributes.items():
            spec = schema.get(name)
            if spec is None:
                valid = ", ".join(schema) or "none"
                raise VerifyException(
                    f"'{self.RELAY_NAME}' has no attribute '{name}' (valid: {valid})"
                )
            if isinstance(attr, UnitAttr):
                if spec.default is not None and not spec.required:
                    raise VerifyException(
                        f"attribute '{name}' of '{self.RELAY_NAME}' cannot be None"
                    )
            elif not _accepts(spec.kind, attr):
                raise VerifyException(
                    f"attribute '{name}' of '{self.RELAY_NAME}' expects "
                    f"{spec.kind.value}, got {attr}"
                )

    def _print_call(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        _print_signature(printer, self.args, self.result.type)

    def print(self, printer: Printer) -> None:
        self._print_call(printer)

    @classmethod
    def parse(cls, parser: Parser) -> OperatorOp:
        pos = parser.pos
        operands = _parse_call_operands(parser)
        attributes = parser.parse_optional_attr_dict()
        args, result_type = _parse_signature(parser, operands, pos)
        return cls(args, result_type, attributes)


@irdl_op_definition
class GenericOperatorOp(OperatorOp):
    """A call of a Relay operator that has no op definition of its own.

    It carries the operator name in ``op_name`` and keeps every attribute, so
    unknown operators round-trip unchanged. No schema is checked.

    Syntax::

        %r = relay.op "nn.my_op"(%x) {alpha = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    """

    name = "relay.op"
    op_name = attr_def(StringAttr)

    def __init__(
        self,
        op_name: str,
        args: Sequence[SSAValue | Operation],
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(args, result_type, attributes)
        self.attributes["op_name"] = StringAttr(op_name)

    @property
    def operator_name(self) -> str:
        return self.op_name.data

    def relay_attributes(self) -> list[tuple[str, Attribute]]:
        return [(k, v) for k, v in self.attributes.items() if k != "op_name"]

    def non_default_attributes(self) -> list[tuple[str, Attribute]]:
        return self.relay_attributes()

    def verify_(self) -> None:
        for index, arg in enumerate(self.args):
            _verify_relay_type(f"argument #{index}", arg.type)
        _verify_relay_type("result", self.result.type)
        if not self.op_name.data:
            raise VerifyException("'relay.op' needs a non-empty op_name")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.op_name)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(dict(self.relay_attributes()))
        _print_signature(printer, self.args, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> GenericOperatorOp:
        pos = parser.pos
        op_name = parser.parse_str_literal()
        operands = _parse_call_operands(parser)
        attributes = _parse_extra_attributes(parser, ("op_name",))
        args, result_type = _parse_signature(parser, operands, pos)
        return cls(op_name, args, result_type, attributes)


# ---------------------------------------------------------------------------
# Constants, tuples, functions
# ---------------------------------------------------------------------------


BLOB_THRESHOLD = 16
"""Constants with more elements than this print in MLIR's hex form."""


def _prints_as_blob(value: Attribute) -> bool:
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    if len(value) > BLOB_THRESHOLD:
        return True
    element = value.get_element_type()
    return not isinstance(element, IntegerType) and any(
        not math.isfinite(v) for v in value.get_values()
    )


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A Relay constant tensor.

    Exactly one of ``value`` (the tensor's contents, dense or
    ``dense_resource``) or ``meta_index`` (an opaque reference
    ``meta[relay.Constant][i]`` whose contents the source did not include)
    is present.

    Syntax::

        %c = relay.constant dense<1.0> : tensor<f32>
        %w = relay.constant meta[3] : tensor<64x3x7x7xf32>
    """

    name = "relay.constant"
    value = opt_attr_def(DenseIntOrFPElementsAttr | DenseResourceAttr)
    meta_index = opt_attr_def(IntegerAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        result_type: Attribute,
        value: DenseIntOrFPElementsAttr | DenseResourceAttr | None = None,
        meta_index: int | None = None,
    ):
        attributes: dict[str, Attribute] = {}
        if value is not None:
            attributes["value"] = value
        if meta_index is not None:
            attributes["meta_index"] = IntegerAttr(meta_index, i64)
        super().__init__(result_types=[result_type], attributes=attributes)

    def verify_(self) -> None:
        if (self.value is None) == (self.meta_index is None):
            raise VerifyException("'relay.constant' needs exactly one of 'value' or 'meta_index'")
        if self.value is not None and self.value.type != self.result.type:
            raise VerifyException(
                f"value type {self.value.type} does not match result type {self.result.type}"
            )
        if self.meta_index is not None and self.meta_index.value.data < 0:
            raise VerifyException("meta_index must be non-negative")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.value is not None:
            # The value's own type is the result type, so print it once.
            if _prints_as_blob(self.value):
                # MLIR's hex form: bit-exact (NaN and inf included) and written
                # straight from the buffer, never element by element.
                printer.print_string(f'dense<"0x{self.value.data.data.hex().upper()}"> : ')
                printer.print_attribute(self.value.type)
            else:
                printer.print_attribute(self.value)
            extra = {k: v for k, v in self.attributes.items() if k != "value"}
        else:
            assert self.meta_index is not None
            printer.print_string(f"meta[{self.meta_index.value.data}] : ")
            printer.print_attribute(self.result.type)
            extra = {k: v for k, v in self.attributes.items() if k != "meta_index"}
        printer.print_op_attributes(extra)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        if parser.parse_optional_keyword("meta"):
            parser.parse_punctuation("[")
            index = parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation("]")
            parser.parse_punctuation(":")
            op = cls(parser.parse_type(), meta_index=index)
        else:
            pos = parser.pos
            value = parser.parse_attribute()
            if not isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
                parser.raise_error("expected a dense or dense_resource value", pos, parser.pos)
            op = cls(value.type, value=value)
        op.attributes |= _parse_extra_attributes(parser, ("value", "meta_index"))
        return op


@irdl_op_definition
class TupleOp(IRDLOperation):
    """Builds a Relay tuple from its operands; the result type lists their types.

    Syntax::

        %t = relay.tuple(%a, %b) : tuple<tensor<2xf32>, tensor<3xf32>>
    """

    name = "relay.tuple"
    fields = var_operand_def()
    result = result_def(TupleType)

    traits = traits_def(Pure())

    def __init__(self, fields: Sequence[SSAValue | Operation]):
        values = [SSAValue.get(f) for f in fields]
        super().__init__(operands=[values], result_types=[TupleType(tuple(v.type for v in values))])

    def verify_(self) -> None:
        field_types = tuple(f.type for f in self.fields)
        if field_types != self.result.type.types.data:
            raise VerifyException(f"result type {self.result.type} does not match the field types")

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.fields, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> TupleOp:
        pos = parser.pos
        operands = _parse_call_operands(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_pos = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, TupleType):
            parser.raise_error("expected a tuple type", type_pos, parser.pos)
        fields = parser.resolve_operands(operands, type_.types.data, pos)
        op = cls(fields)
        op.attributes |= attributes
        return op


@irdl_op_definition
class TupleGetItemOp(IRDLOperation):
    """Projects field ``index`` out of a Relay tuple (Relay's ``%t.0``).

    Syntax::

        %x = relay.tuple_get_item %t[0] : tuple<tensor<2xf32>, tensor<3xf32>>
    """

    name = "relay.tuple_get_item"
    tuple_value = operand_def(TupleType)
    index = attr_def(IntegerAttr)
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, tuple_value: SSAValue | Operation, index: int):
        value = SSAValue.get(tuple_value)
        assert isinstance(value.type, TupleType)
        types = value.type.types.data
        result_type = types[index] if 0 <= index < len(types) else value.type
        super().__init__(
            operands=[value],
            result_types=[result_type],
            attributes={"index": IntegerAttr(index, i64)},
        )

    def verify_(self) -> None:
        assert isinstance(self.tuple_value.type, TupleType)
        types = self.tuple_value.type.types.data
        index = self.index.value.data
        if not 0 <= index < len(types):
            raise VerifyException(
                f"index {index} is out of range for a tuple of {len(types)} fields"
            )
        if self.result.type != types[index]:
            raise VerifyException(
                f"result type {self.result.type} does not match field {index} "
                f"of type {types[index]}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tuple_value)
        printer.print_string(f"[{self.index.value.data}]")
        printer.print_op_attributes({k: v for k, v in self.attributes.items() if k != "index"})
        printer.print_string(" : ")
        printer.print_attribute(self.tuple_value.type)

    @classmethod
    def parse(cls, parser: Parser) -> TupleGetItemOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation("]")
        attributes = _parse_extra_attributes(parser, ("index",))
        parser.parse_punctuation(":")
        type_pos = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, TupleType):
            parser.raise_error("expected a tuple type", type_pos, parser.pos)
        if index >= len(type_.types.data):
            parser.raise_error(f"index {index} is out of range", pos, parser.pos)
        (value,) = parser.resolve_operands([operand], [type_], pos)
        op = cls(value, index)
        op.attributes |= attributes
        return op


@irdl_op_definition
class FnOp(IRDLOperation):
    """A Relay function literal called in place: a fused or composite function.

    The operands are the call's arguments; the single block's arguments are
    the function's parameters; ``relay.return`` yields the call's result.
    The remaining attributes are the function's Relay attributes
    (``Composite``, ``Primitive``, ``PartitionedFromPattern``, ...), in
    their Relay order. The body sees nothing from outside
    (``IsolatedFromAbove``), so inlining it only needs the argument mapping.

    Syntax::

        %r = relay.fn(%p0 = %x : tensor<4xf32>, %p1 = %y : tensor<4xf32>)
               -> tensor<4xf32> attributes {Primitive = 1 : i32} {
          %s = relay.add(%p0, %p1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
          relay.return %s : tensor<4xf32>
        }
    """

    name = "relay.fn"
    args = var_operand_def()
    result = result_def()
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove())

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        result_type: Attribute,
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[args],
            result_types=[result_type],
            regions=[body],
            attributes=dict(attributes or {}),
        )

    @property
    def params(self) -> tuple[SSAValue, ...]:
        return self.body.block.args

    def relay_attributes(self) -> dict[str, Attribute]:
        return dict(self.attributes)

    def verify_(self) -> None:
        block = self.body.block
        if len(block.args) != len(self.args):
            raise VerifyException(
                f"'relay.fn' has {len(self.args)} argument(s) but its body takes "
                f"{len(block.args)} parameter(s)"
            )
        for index, (arg, param) in enumerate(zip(self.args, block.args)):
            if arg.type != param.type:
                raise VerifyException(
                    f"argument #{index} has type {arg.type} but parameter "
                    f"#{index} has type {param.type}"
                )
        terminator = block.last_op
        if not isinstance(terminator, ReturnOp):
            raise VerifyException("'relay.fn' body must end with 'relay.return'")
        if terminator.value.type != self.result.type:
            raise VerifyException(
                f"returned type {terminator.value.type} does not match result "
                f"type {self.result.type}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        with printer.indented():
            printer.print_list(
                zip(self.params, self.args),
                lambda pair: self._print_binding(printer, *pair),
            )
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)
        if self.attributes:
            printer.print_string(" attributes")
            printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    @staticmethod
    def _print_binding(printer: Printer, param: SSAValue, arg: SSAValue) -> None:
        printer.print_ssa_value(param)
        printer.print_string(" = ")
        printer.print_operand(arg)
        printer.print_string(" : ")
        printer.print_attribute(arg.type)

    @classmethod
    def parse(cls, parser: Parser) -> FnOp:
        pos = parser.pos

        def parse_binding() -> tuple[Parser.UnresolvedArgument, UnresolvedOperand, Attribute]:
            param = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            operand = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            return param, operand, parser.parse_type()

        bindings = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_binding)
        types = [t for _, _, t in bindings]
        args = parser.resolve_operands([o for _, o, _ in bindings], types, pos)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        params = [p.resolve(t) for (p, _, _), t in zip(bindings, types)]
        body = parser.parse_region(params)
        return cls(args, result_type, body, attributes.data if attributes else None)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Terminates a ``relay.fn`` body, yielding the function's result.

    Syntax::

        relay.return %r : tensor<4xf32>
    """

    name = "relay.return"
    value = operand_def()

    traits = traits_def(IsTerminator(), HasParent(FnOp), ReturnLike())

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])


def make_fn_body(param_types: Sequence[Attribute]) -> tuple[Region, Block]:
    """An empty single-block region whose block takes `param_types`."""
    block = Block(arg_types=param_types)
    return Region(block), block


# ---------------------------------------------------------------------------
# Operator definitions
# ---------------------------------------------------------------------------


def relay_operator(
    relay_name: str,
    attrs: tuple[RelayAttr, ...] = (),
    *,
    arity: int | None = 1,
    returns_tuple: bool | None = False,
    tuple_input: bool = False,
    pattern: OpPattern = OpPattern.OPAQUE,
):
    """Attach a Relay operator's name, schema, arity and fusion pattern to its op class.

    ``returns_tuple=None`` means the result may be a tensor or a tuple
    depending on the attributes (``topk``).
    """

    def decorate(cls: type[OperatorOp]) -> type[OperatorOp]:
        cls.RELAY_NAME = relay_name
        cls.RELAY_ATTRS = attrs
        cls.SCHEMA = {a.name: a for a in attrs}
        cls.ARITY = arity
        cls.RETURNS_TUPLE = returns_tuple
        cls.TUPLE_INPUT = tuple_input
        cls.PATTERN = pattern
        return cls

    return decorate


_CONV2D_ATTRS = (
    RelayAttr("strides", AttrKind.INTS, (1, 1)),
    RelayAttr("padding", AttrKind.INTS, (0, 0)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1)),
    RelayAttr("groups", AttrKind.INT, 1),
    RelayAttr("channels", AttrKind.INT, None),
    RelayAttr("kernel_size", AttrKind.INTS, None),
    RelayAttr("data_layout", AttrKind.STR, "NCHW"),
    RelayAttr("kernel_layout", AttrKind.STR, "OIHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Conv2DAttrs``."""

_CONV2D_TRANSPOSE_ATTRS = (
    RelayAttr("channels", AttrKind.INT, None),
    RelayAttr("kernel_size", AttrKind.INTS, None),
    RelayAttr("strides", AttrKind.INTS, (1, 1)),
    RelayAttr("output_padding", AttrKind.INTS, (0, 0)),
    RelayAttr("padding", AttrKind.INTS, (0, 0)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1)),
    RelayAttr("groups", AttrKind.INT, 1),
    RelayAttr("data_layout", AttrKind.STR, "NCHW"),
    RelayAttr("kernel_layout", AttrKind.STR, "IOHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Conv2DTransposeAttrs``."""

_CONV1D_ATTRS = (
    RelayAttr("strides", AttrKind.INTS, (1,)),
    RelayAttr("padding", AttrKind.INTS, (0, 0)),
    RelayAttr("dilation", AttrKind.INTS, (1,)),
    RelayAttr("groups", AttrKind.INT, 1),
    RelayAttr("channels", AttrKind.INT, None),
    RelayAttr("kernel_size", AttrKind.INTS, None),
    RelayAttr("data_layout", AttrKind.STR, "NCW"),
    RelayAttr("kernel_layout", AttrKind.STR, "OIW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Conv1DAttrs``."""

_CONV1D_TRANSPOSE_ATTRS = (
    RelayAttr("channels", AttrKind.INT, None),
    RelayAttr("kernel_size", AttrKind.INTS, None),
    RelayAttr("strides", AttrKind.INTS, (1,)),
    RelayAttr("output_padding", AttrKind.INTS, (0,)),
    RelayAttr("padding", AttrKind.INTS, (0,)),
    RelayAttr("dilation", AttrKind.INTS, (1,)),
    RelayAttr("groups", AttrKind.INT, 1),
    RelayAttr("data_layout", AttrKind.STR, "NCW"),
    RelayAttr("kernel_layout", AttrKind.STR, "IOW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Conv1DTransposeAttrs``."""

_CONV3D_ATTRS = (
    RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("groups", AttrKind.INT, 1),
    RelayAttr("channels", AttrKind.INT, None),
    RelayAttr("kernel_size", AttrKind.INTS, None),
    RelayAttr("data_layout", AttrKind.STR, "NCDHW"),
    RelayAttr("kernel_layout", AttrKind.STR, "OIDHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Conv3DAttrs``."""

_CONV3D_TRANSPOSE_ATTRS = (
    RelayAttr("channels", AttrKind.INT, None),
    RelayAttr("kernel_size", AttrKind.INTS, None),
    RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("output_padding", AttrKind.INTS, (0, 0, 0)),
    RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("groups", AttrKind.INT, 1),
    RelayAttr("data_layout", AttrKind.STR, "NCDHW"),
    RelayAttr("kernel_layout", AttrKind.STR, "IODHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Conv3DTransposeAttrs``."""

_DENSE_ATTRS = (
    RelayAttr("units", AttrKind.INT, None, required=True),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``DenseAttrs``."""

_MATMUL_ATTRS = (
    RelayAttr("units", AttrKind.INT, None, required=True),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
    RelayAttr("transpose_a", AttrKind.BOOL, False),
    RelayAttr("transpose_b", AttrKind.BOOL, False),
)
"""Fields of TVM's ``MatmulAttrs``."""

_BATCH_MATMUL_ATTRS = (
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
    RelayAttr("transpose_a", AttrKind.BOOL, False),
    RelayAttr("transpose_b", AttrKind.BOOL, False),
)
"""Fields of TVM's ``BatchMatmulAttrs``."""

_BIAS_ADD_ATTRS = (RelayAttr("axis", AttrKind.INT, 1),)
"""Fields of TVM's ``BiasAddAttrs``."""

_LEAKY_RELU_ATTRS = (RelayAttr("alpha", AttrKind.FLOAT, 0.25),)
"""Fields of TVM's ``LeakyReluAttrs``."""

_P_RELU_ATTRS = (RelayAttr("axis", AttrKind.INT, 1),)
"""Fields of TVM's ``PReluAttrs``."""

_SOFTMAX_ATTRS = (RelayAttr("axis", AttrKind.INT, -1),)
"""Fields of TVM's ``SoftmaxAttrs``."""

_MAX_POOL1D_ATTRS = (
    RelayAttr("pool_size", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, (1,)),
    RelayAttr("dilation", AttrKind.INTS, (1,)),
    RelayAttr("padding", AttrKind.INTS, (0,)),
    RelayAttr("layout", AttrKind.STR, "NCW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("ceil_mode", AttrKind.BOOL, False),
)
"""Fields of TVM's ``MaxPool1DAttrs``."""

_MAX_POOL2D_ATTRS = (
    RelayAttr("pool_size", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, (1, 1)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1)),
    RelayAttr("padding", AttrKind.INTS, (0, 0)),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("ceil_mode", AttrKind.BOOL, False),
)
"""Fields of TVM's ``MaxPool2DAttrs``."""

_MAX_POOL3D_ATTRS = (
    RelayAttr("pool_size", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
    RelayAttr("layout", AttrKind.STR, "NCDHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("ceil_mode", AttrKind.BOOL, False),
)
"""Fields of TVM's ``MaxPool3DAttrs``."""

_AVG_POOL1D_ATTRS = (
    RelayAttr("pool_size", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, (1,)),
    RelayAttr("dilation", AttrKind.INTS, (1,)),
    RelayAttr("padding", AttrKind.INTS, (0,)),
    RelayAttr("layout", AttrKind.STR, "NCW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("ceil_mode", AttrKind.BOOL, False),
    RelayAttr("count_include_pad", AttrKind.BOOL, False),
)
"""Fields of TVM's ``AvgPool1DAttrs``."""

_AVG_POOL2D_ATTRS = (
    RelayAttr("pool_size", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, (1, 1)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1)),
    RelayAttr("padding", AttrKind.INTS, (0, 0)),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("ceil_mode", AttrKind.BOOL, False),
    RelayAttr("count_include_pad", AttrKind.BOOL, False),
)
"""Fields of TVM's ``AvgPool2DAttrs``."""

_AVG_POOL3D_ATTRS = (
    RelayAttr("pool_size", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("dilation", AttrKind.INTS, (1, 1, 1)),
    RelayAttr("padding", AttrKind.INTS, (0, 0, 0)),
    RelayAttr("layout", AttrKind.STR, "NCDHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
    RelayAttr("ceil_mode", AttrKind.BOOL, False),
    RelayAttr("count_include_pad", AttrKind.BOOL, False),
)
"""Fields of TVM's ``AvgPool3DAttrs``."""

_GLOBAL_POOL2D_ATTRS = (
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
)
"""Fields of TVM's ``GlobalPool2DAttrs``."""

_ADAPTIVE_POOL2D_ATTRS = (
    RelayAttr("output_size", AttrKind.INTS, ()),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("out_layout", AttrKind.STR, ""),
)
"""Fields of TVM's ``AdaptivePool2DAttrs``."""

_BATCH_NORM_ATTRS = (
    RelayAttr("axis", AttrKind.INT, 1),
    RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
    RelayAttr("center", AttrKind.BOOL, True),
    RelayAttr("scale", AttrKind.BOOL, True),
)
"""Fields of TVM's ``BatchNormAttrs``."""

_LAYER_NORM_ATTRS = (
    RelayAttr("axis", AttrKind.INT, -1),
    RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
    RelayAttr("center", AttrKind.BOOL, True),
    RelayAttr("scale", AttrKind.BOOL, True),
)
"""Fields of TVM's ``LayerNormAttrs``."""

_INSTANCE_NORM_ATTRS = (
    RelayAttr("axis", AttrKind.INT, 1),
    RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
    RelayAttr("center", AttrKind.BOOL, True),
    RelayAttr("scale", AttrKind.BOOL, True),
)
"""Fields of TVM's ``InstanceNormAttrs``."""

_GROUP_NORM_ATTRS = (
    RelayAttr("num_groups", AttrKind.INT, 0),
    RelayAttr("axis", AttrKind.INT, 1),
    RelayAttr("epsilon", AttrKind.FLOAT, 1e-05),
    RelayAttr("center", AttrKind.BOOL, True),
    RelayAttr("scale", AttrKind.BOOL, True),
)
"""Fields of TVM's ``GroupNormAttrs``."""

_LRN_ATTRS = (
    RelayAttr("size", AttrKind.INT, 5),
    RelayAttr("axis", AttrKind.INT, 1),
    RelayAttr("bias", AttrKind.FLOAT, 2.0),
    RelayAttr("alpha", AttrKind.FLOAT, 0.0001),
    RelayAttr("beta", AttrKind.FLOAT, 0.75),
)
"""Fields of TVM's ``LRNAttrs``."""

_L2_NORMALIZE_ATTRS = (
    RelayAttr("eps", AttrKind.FLOAT, None, required=True),
    RelayAttr("axis", AttrKind.INTS, None, required=True),
)
"""Fields of TVM's ``L2NormalizeAttrs``."""

_DROPOUT_ATTRS = (RelayAttr("rate", AttrKind.FLOAT, 0.5),)
"""Fields of TVM's ``DropoutAttrs``."""

_PAD_ATTRS = (
    RelayAttr("pad_width", AttrKind.ANY, None, required=True),
    RelayAttr("pad_mode", AttrKind.STR, "constant"),
)
"""Fields of TVM's ``PadAttrs``."""

_MIRROR_PAD_ATTRS = (
    RelayAttr("mode", AttrKind.STR, "SYMMETRIC"),
    RelayAttr("pad_width", AttrKind.ANY, None, required=True),
)
"""Fields of TVM's ``MirrorPadAttrs``."""

_UP_SAMPLING_ATTRS = (
    RelayAttr("scale_h", AttrKind.FLOAT, None, required=True),
    RelayAttr("scale_w", AttrKind.FLOAT, None, required=True),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("method", AttrKind.STR, "nearest_neighbor"),
    RelayAttr("align_corners", AttrKind.BOOL, False),
)
"""Fields of TVM's ``UpSamplingAttrs``."""

_UP_SAMPLING3D_ATTRS = (
    RelayAttr("scale_d", AttrKind.FLOAT, None, required=True),
    RelayAttr("scale_h", AttrKind.FLOAT, None, required=True),
    RelayAttr("scale_w", AttrKind.FLOAT, None, required=True),
    RelayAttr("layout", AttrKind.STR, "NCDHW"),
    RelayAttr("method", AttrKind.STR, "nearest_neighbor"),
    RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
)
"""Fields of TVM's ``UpSampling3DAttrs``."""

_SUB_PIXEL_ATTRS = (
    RelayAttr("block_size", AttrKind.INT, 1),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("mode", AttrKind.STR, "DCR"),
)
"""Fields of TVM's ``SubPixelAttrs``."""

_CLIP_ATTRS = (
    RelayAttr("a_min", AttrKind.FLOAT, None, required=True),
    RelayAttr("a_max", AttrKind.FLOAT, None, required=True),
)
"""Fields of TVM's ``ClipAttrs``."""

_CAST_ATTRS = (RelayAttr("dtype", AttrKind.DTYPE, None, required=True),)
"""Fields of TVM's ``CastAttrs``."""

_INIT_OP_ATTRS = (
    RelayAttr("shape", AttrKind.INTS, None, required=True),
    RelayAttr("dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``InitOpAttrs``."""

_SQUEEZE_ATTRS = (RelayAttr("axis", AttrKind.INTS, None),)
"""Fields of TVM's ``SqueezeAttrs``."""

_EXPAND_DIMS_ATTRS = (
    RelayAttr("axis", AttrKind.INT, None, required=True),
    RelayAttr("num_newaxis", AttrKind.INT, 1),
)
"""Fields of TVM's ``ExpandDimsAttrs``."""

_RESHAPE_ATTRS = (
    RelayAttr("newshape", AttrKind.INTS, None, required=True),
    RelayAttr("allowzero", AttrKind.BOOL, False),
)
"""Fields of TVM's ``ReshapeAttrs``."""

_RESHAPE_LIKE_ATTRS = (
    RelayAttr("lhs_begin", AttrKind.INT, 0),
    RelayAttr("lhs_end", AttrKind.INT, None),
    RelayAttr("rhs_begin", AttrKind.INT, 0),
    RelayAttr("rhs_end", AttrKind.INT, None),
)
"""Fields of TVM's ``ReshapeLikeAttrs``."""

_TRANSPOSE_ATTRS = (RelayAttr("axes", AttrKind.INTS, None, required=True),)
"""Fields of TVM's ``TransposeAttrs``."""

_CONCATENATE_ATTRS = (RelayAttr("axis", AttrKind.INT, 0),)
"""Fields of TVM's ``ConcatenateAttrs``."""

_STACK_ATTRS = (RelayAttr("axis", AttrKind.INT, 0),)
"""Fields of TVM's ``StackAttrs``."""

_SPLIT_ATTRS = (
    RelayAttr("indices_or_sections", AttrKind.ANY, None, required=True),
    RelayAttr("axis", AttrKind.INT, 0),
)
"""Fields of TVM's ``SplitAttrs``."""

_STRIDED_SLICE_ATTRS = (
    RelayAttr("begin", AttrKind.INTS, None, required=True),
    RelayAttr("end", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, None, required=True),
    RelayAttr("slice_mode", AttrKind.STR, "end"),
    RelayAttr("axes", AttrKind.INTS, None, required=True),
)
"""Fields of TVM's ``StridedSliceAttrs``."""

_SLICE_LIKE_ATTRS = (RelayAttr("axes", AttrKind.INTS, None, required=True),)
"""Fields of TVM's ``SliceLikeAttrs``."""

_TAKE_ATTRS = (
    RelayAttr("batch_dims", AttrKind.INT, 0),
    RelayAttr("axis", AttrKind.INT, None),
    RelayAttr("mode", AttrKind.STR, "clip"),
)
"""Fields of TVM's ``TakeAttrs``."""

_GATHER_ATTRS = (RelayAttr("axis", AttrKind.INT, None),)
"""Fields of TVM's ``GatherAttrs``."""

_GATHERND_ATTRS = (
    RelayAttr("batch_dims", AttrKind.INT, 0),
    RelayAttr("index_rank", AttrKind.INT, None),
)
"""Fields of TVM's ``GatherNDAttrs``."""

_TILE_ATTRS = (RelayAttr("reps", AttrKind.INTS, None, required=True),)
"""Fields of TVM's ``TileAttrs``."""

_REPEAT_ATTRS = (
    RelayAttr("repeats", AttrKind.INT, None, required=True),
    RelayAttr("axis", AttrKind.INT, None),
)
"""Fields of TVM's ``RepeatAttrs``."""

_REVERSE_ATTRS = (RelayAttr("axis", AttrKind.INT, None),)
"""Fields of TVM's ``ReverseAttrs``."""

_ONE_HOT_ATTRS = (
    RelayAttr("depth", AttrKind.INT, 1),
    RelayAttr("axis", AttrKind.INT, -1),
    RelayAttr("dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``OneHotAttrs``."""

_LAYOUT_TRANSFORM_ATTRS = (
    RelayAttr("src_layout", AttrKind.STR, None, required=True),
    RelayAttr("dst_layout", AttrKind.STR, None, required=True),
)
"""Fields of TVM's ``LayoutTransformAttrs``."""

_SHAPE_OF_ATTRS = (RelayAttr("dtype", AttrKind.DTYPE, ""),)
"""Fields of TVM's ``ShapeOfAttrs``."""

_REDUCE_ATTRS = (
    RelayAttr("axis", AttrKind.INTS, None),
    RelayAttr("keepdims", AttrKind.BOOL, False),
    RelayAttr("exclude", AttrKind.BOOL, False),
)
"""Fields of TVM's ``ReduceAttrs``."""

_ARG_REDUCE_ATTRS = (
    RelayAttr("axis", AttrKind.INTS, None),
    RelayAttr("keepdims", AttrKind.BOOL, False),
    RelayAttr("select_last_index", AttrKind.BOOL, False),
    RelayAttr("exclude", AttrKind.BOOL, False),
)
"""Fields of TVM's ``ArgReduceAttrs``."""

_VARIANCE_ATTRS = (
    RelayAttr("axis", AttrKind.INTS, None),
    RelayAttr("keepdims", AttrKind.BOOL, False),
    RelayAttr("exclude", AttrKind.BOOL, False),
    RelayAttr("unbiased", AttrKind.BOOL, False),
)
"""Fields of TVM's ``VarianceAttrs``."""

_RESIZE1D_ATTRS = (
    RelayAttr("size", AttrKind.INTS, None),
    RelayAttr("roi", AttrKind.FLOATS, None),
    RelayAttr("layout", AttrKind.STR, "NCW"),
    RelayAttr("method", AttrKind.STR, "linear"),
    RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
    RelayAttr("rounding_method", AttrKind.STR, "round"),
    RelayAttr("cubic_alpha", AttrKind.FLOAT, -0.5),
    RelayAttr("cubic_exclude", AttrKind.INT, 0),
    RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Resize1DAttrs``."""

_RESIZE2D_ATTRS = (
    RelayAttr("size", AttrKind.INTS, None),
    RelayAttr("roi", AttrKind.FLOATS, None),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("method", AttrKind.STR, "linear"),
    RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
    RelayAttr("rounding_method", AttrKind.STR, "round"),
    RelayAttr("cubic_alpha", AttrKind.FLOAT, -0.5),
    RelayAttr("cubic_exclude", AttrKind.INT, 0),
    RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Resize2DAttrs``."""

_RESIZE3D_ATTRS = (
    RelayAttr("size", AttrKind.INTS, None),
    RelayAttr("roi", AttrKind.FLOATS, None),
    RelayAttr("layout", AttrKind.STR, "NCDHW"),
    RelayAttr("method", AttrKind.STR, "linear"),
    RelayAttr("coordinate_transformation_mode", AttrKind.STR, "half_pixel"),
    RelayAttr("rounding_method", AttrKind.STR, "round"),
    RelayAttr("cubic_alpha", AttrKind.FLOAT, -0.5),
    RelayAttr("cubic_exclude", AttrKind.INT, 0),
    RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``Resize3DAttrs``."""

_CROP_AND_RESIZE_ATTRS = (
    RelayAttr("crop_size", AttrKind.INTS, None),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("method", AttrKind.STR, "bilinear"),
    RelayAttr("extrapolation_value", AttrKind.FLOAT, 0.0),
    RelayAttr("out_dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``CropAndResizeAttrs``."""

_GRID_SAMPLE_ATTRS = (
    RelayAttr("method", AttrKind.STR, "bilinear"),
    RelayAttr("layout", AttrKind.STR, "NCHW"),
    RelayAttr("padding_mode", AttrKind.STR, "zeros"),
    RelayAttr("align_corners", AttrKind.BOOL, True),
)
"""Fields of TVM's ``GridSampleAttrs``."""

_ARGSORT_ATTRS = (
    RelayAttr("axis", AttrKind.INT, -1),
    RelayAttr("is_ascend", AttrKind.BOOL, True),
    RelayAttr("dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``ArgsortAttrs``."""

_TOPK_ATTRS = (
    RelayAttr("k", AttrKind.INT, None, required=True),
    RelayAttr("axis", AttrKind.INT, -1),
    RelayAttr("ret_type", AttrKind.STR, "both"),
    RelayAttr("is_ascend", AttrKind.BOOL, False),
    RelayAttr("dtype", AttrKind.DTYPE, ""),
)
"""Fields of TVM's ``TopKAttrs``."""


@relay_operator("nn.conv2d", _CONV2D_ATTRS, arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class Conv2DOp(OperatorOp):
    """2D convolution of data (N,C,H,W by default) with weight (O, I/groups, KH,
    KW); padding may have 1, 2 or 4 entries (top, left, bottom, right)."""

    name = "relay.nn.conv2d"


@relay_operator(
    "nn.conv2d_transpose",
    _CONV2D_TRANSPOSE_ATTRS,
    arity=2,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class Conv2DTransposeOp(OperatorOp):
    """2D transposed convolution (gradient of conv2d w.r.t. its input); default
    weight layout IOHW; output_padding adds extra size on one side of the output."""

    name = "relay.nn.conv2d_transpose"


@relay_operator("nn.conv1d", _CONV1D_ATTRS, arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class Conv1DOp(OperatorOp):
    """1D convolution of data (N,C,W) with weight (O, I/groups, KW)."""

    name = "relay.nn.conv1d"


@relay_operator(
    "nn.conv1d_transpose",
    _CONV1D_TRANSPOSE_ATTRS,
    arity=2,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class Conv1DTransposeOp(OperatorOp):
    """1D transposed convolution; default weight layout IOW."""

    name = "relay.nn.conv1d_transpose"


@relay_operator("nn.conv3d", _CONV3D_ATTRS, arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class Conv3DOp(OperatorOp):
    """3D convolution of data (N,C,D,H,W) with weight (O, I/groups, KD, KH, KW)."""

    name = "relay.nn.conv3d"


@relay_operator(
    "nn.conv3d_transpose",
    _CONV3D_TRANSPOSE_ATTRS,
    arity=2,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class Conv3DTransposeOp(OperatorOp):
    """3D transposed convolution; default weight layout IODHW."""

    name = "relay.nn.conv3d_transpose"


@relay_operator("nn.dense", _DENSE_ATTRS, arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class DenseOp(OperatorOp):
    """Fully connected layer: Y = X * W^T, with data (..., K) and weight (units, K)."""

    name = "relay.nn.dense"


@relay_operator("nn.matmul", _MATMUL_ATTRS, arity=2, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class MatmulOp(OperatorOp):
    """General matrix multiply Y = A * B where either operand may be marked
    transposed via transpose_a / transpose_b."""

    name = "relay.nn.matmul"


@relay_operator(
    "nn.batch_matmul",
    _BATCH_MATMUL_ATTRS,
    arity=2,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class BatchMatmulOp(OperatorOp):
    """Batched matrix multiply of 3D tensors A (b,M,K) and B (b,K,N) or transposed
    variants; C++ default transpose_b=false but the Python wrapper defaults
    transpose_b=True (so it is printed)."""

    name = "relay.nn.batch_matmul"


@relay_operator("nn.bias_add", _BIAS_ADD_ATTRS, arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class BiasAddOp(OperatorOp):
    """Adds a 1D bias tensor to data along dimension `axis` (broadcast over all
    other dimensions)."""

    name = "relay.nn.bias_add"


@relay_operator("nn.relu", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class ReluOp(OperatorOp):
    """Elementwise rectified linear unit max(x, 0)."""

    name = "relay.nn.relu"


@relay_operator("nn.leaky_relu", _LEAKY_RELU_ATTRS, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class LeakyReluOp(OperatorOp):
    """Elementwise x if x > 0 else alpha * x."""

    name = "relay.nn.leaky_relu"


@relay_operator("nn.prelu", _P_RELU_ATTRS, arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class PreluOp(OperatorOp):
    """Parametric ReLU: x if x > 0 else alpha[c] * x, with a learned 1D alpha tensor
    indexed along `axis`."""

    name = "relay.nn.prelu"


@relay_operator("nn.softmax", _SOFTMAX_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class SoftmaxOp(OperatorOp):
    """Softmax normalization along `axis`: exp(x) / sum(exp(x))."""

    name = "relay.nn.softmax"


@relay_operator("nn.fast_softmax", _SOFTMAX_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class FastSoftmaxOp(OperatorOp):
    """Softmax along `axis` using a fast approximate exp."""

    name = "relay.nn.fast_softmax"


@relay_operator("nn.log_softmax", _SOFTMAX_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class LogSoftmaxOp(OperatorOp):
    """log(softmax(x)) along `axis`, computed in a numerically stable way."""

    name = "relay.nn.log_softmax"


@relay_operator("nn.max_pool1d", _MAX_POOL1D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class MaxPool1DOp(OperatorOp):
    """1D max pooling over the W dimension."""

    name = "relay.nn.max_pool1d"


@relay_operator("nn.max_pool2d", _MAX_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class MaxPool2DOp(OperatorOp):
    """2D max pooling over windows of size pool_size with given
    strides/dilation/padding on the H and W dimensions."""

    name = "relay.nn.max_pool2d"


@relay_operator("nn.max_pool3d", _MAX_POOL3D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class MaxPool3DOp(OperatorOp):
    """3D max pooling over D, H and W."""

    name = "relay.nn.max_pool3d"


@relay_operator("nn.avg_pool1d", _AVG_POOL1D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class AvgPool1DOp(OperatorOp):
    """1D average pooling over the W dimension."""

    name = "relay.nn.avg_pool1d"


@relay_operator("nn.avg_pool2d", _AVG_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class AvgPool2DOp(OperatorOp):
    """2D average pooling; count_include_pad decides whether padded zeros count in
    the divisor."""

    name = "relay.nn.avg_pool2d"


@relay_operator("nn.avg_pool3d", _AVG_POOL3D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class AvgPool3DOp(OperatorOp):
    """3D average pooling over D, H and W."""

    name = "relay.nn.avg_pool3d"


@relay_operator(
    "nn.global_avg_pool2d", _GLOBAL_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE
)
@irdl_op_definition
class GlobalAvgPool2DOp(OperatorOp):
    """Averages each channel over the whole H x W plane, producing spatial size 1x1."""

    name = "relay.nn.global_avg_pool2d"


@relay_operator(
    "nn.global_max_pool2d", _GLOBAL_POOL2D_ATTRS, pattern=OpPattern.OUT_ELEMWISE_FUSABLE
)
@irdl_op_definition
class GlobalMaxPool2DOp(OperatorOp):
    """Takes the maximum of each channel over the whole H x W plane, producing
    spatial size 1x1."""

    name = "relay.nn.global_max_pool2d"


@relay_operator(
    "nn.adaptive_avg_pool2d",
    _ADAPTIVE_POOL2D_ATTRS,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class AdaptiveAvgPool2DOp(OperatorOp):
    """Average pooling whose windows are chosen so the output has spatial size
    output_size (empty output_size keeps the input size)."""

    name = "relay.nn.adaptive_avg_pool2d"


@relay_operator(
    "nn.adaptive_max_pool2d",
    _ADAPTIVE_POOL2D_ATTRS,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class AdaptiveMaxPool2DOp(OperatorOp):
    """Max pooling whose windows are chosen so the output has spatial size
    output_size."""

    name = "relay.nn.adaptive_max_pool2d"


@relay_operator(
    "nn.batch_norm",
    _BATCH_NORM_ATTRS,
    arity=5,
    returns_tuple=True,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class BatchNormOp(OperatorOp):
    """Batch normalization with inputs (data, gamma, beta, moving_mean, moving_var);
    returns a 3-tuple (normalized output, new moving mean, new moving var). Usually
    decomposed by SimplifyInference."""

    name = "relay.nn.batch_norm"


@relay_operator("nn.layer_norm", _LAYER_NORM_ATTRS, arity=3, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class LayerNormOp(OperatorOp):
    """Layer normalization: normalizes data along `axis` with inputs (data, gamma,
    beta)."""

    name = "relay.nn.layer_norm"


@relay_operator("nn.instance_norm", _INSTANCE_NORM_ATTRS, arity=3, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class InstanceNormOp(OperatorOp):
    """Instance normalization: normalizes each sample and channel over the spatial
    dims, inputs (data, gamma, beta)."""

    name = "relay.nn.instance_norm"


@relay_operator("nn.group_norm", _GROUP_NORM_ATTRS, arity=3, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class GroupNormOp(OperatorOp):
    """Group normalization: splits channels (along axis) into num_groups groups and
    normalizes within each, inputs (data, gamma, beta)."""

    name = "relay.nn.group_norm"


@relay_operator("nn.lrn", _LRN_ATTRS, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class LrnOp(OperatorOp):
    """Local response normalization across `size` neighbouring channels along
    `axis`."""

    name = "relay.nn.lrn"


@relay_operator("nn.l2_normalize", _L2_NORMALIZE_ATTRS, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class L2NormalizeOp(OperatorOp):
    """Divides data by the L2 norm computed over `axis` (with lower bound eps)."""

    name = "relay.nn.l2_normalize"


@relay_operator("nn.dropout", _DROPOUT_ATTRS, returns_tuple=True, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class DropoutOp(OperatorOp):
    """Dropout; returns a 2-tuple (output, mask). It is an identity at inference and
    is removed by SimplifyInference."""

    name = "relay.nn.dropout"


@relay_operator("nn.batch_flatten", pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class BatchFlattenOp(OperatorOp):
    """Flattens all dimensions except the first: (N, d1, d2, ...) -> (N, d1*d2*...)."""

    name = "relay.nn.batch_flatten"


@relay_operator("nn.pad", _PAD_ATTRS, arity=2, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class PadOp(OperatorOp):
    """Pads data; 2 inputs (data, pad_value scalar tensor); pad_width is ((before_0,
    after_0), ...) per axis; pad_mode constant/edge/reflect."""

    name = "relay.nn.pad"


@relay_operator("nn.mirror_pad", _MIRROR_PAD_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class MirrorPadOp(OperatorOp):
    """Pads data by mirroring (mode SYMMETRIC or REFLECT); one input."""

    name = "relay.nn.mirror_pad"


@relay_operator("nn.upsampling", _UP_SAMPLING_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class UpsamplingOp(OperatorOp):
    """Upsamples H and W by scale_h / scale_w using nearest_neighbor, bilinear or
    bicubic interpolation."""

    name = "relay.nn.upsampling"


@relay_operator("nn.upsampling3d", _UP_SAMPLING3D_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class Upsampling3DOp(OperatorOp):
    """Upsamples D, H and W by scale_d/scale_h/scale_w."""

    name = "relay.nn.upsampling3d"


@relay_operator("nn.depth_to_space", _SUB_PIXEL_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class DepthToSpaceOp(OperatorOp):
    """Rearranges blocks of channel data into spatial blocks (block_size), DCR or
    CDR ordering."""

    name = "relay.nn.depth_to_space"


@relay_operator("nn.space_to_depth", _SUB_PIXEL_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class SpaceToDepthOp(OperatorOp):
    """Rearranges spatial blocks of size block_size into the channel dimension."""

    name = "relay.nn.space_to_depth"


@relay_operator("add", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class AddOp(OperatorOp):
    """Elementwise addition with NumPy-style broadcasting."""

    name = "relay.add"


@relay_operator("subtract", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class SubtractOp(OperatorOp):
    """Elementwise subtraction with broadcasting."""

    name = "relay.subtract"


@relay_operator("multiply", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class MultiplyOp(OperatorOp):
    """Elementwise multiplication with broadcasting."""

    name = "relay.multiply"


@relay_operator("divide", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class DivideOp(OperatorOp):
    """Elementwise division with broadcasting (integer division truncates like C)."""

    name = "relay.divide"


@relay_operator("floor_divide", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class FloorDivideOp(OperatorOp):
    """Elementwise floor(lhs / rhs) with broadcasting."""

    name = "relay.floor_divide"


@relay_operator("trunc_divide", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class TruncDivideOp(OperatorOp):
    """Elementwise trunc(lhs / rhs) with broadcasting."""

    name = "relay.trunc_divide"


@relay_operator("power", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class PowerOp(OperatorOp):
    """Elementwise lhs ** rhs with broadcasting."""

    name = "relay.power"


@relay_operator("mod", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class ModOp(OperatorOp):
    """Elementwise remainder (truncated, C semantics) with broadcasting."""

    name = "relay.mod"


@relay_operator("floor_mod", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class FloorModOp(OperatorOp):
    """Elementwise remainder with floor semantics (sign follows divisor) with
    broadcasting."""

    name = "relay.floor_mod"


@relay_operator("trunc_mod", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class TruncModOp(OperatorOp):
    """Elementwise truncated remainder with broadcasting."""

    name = "relay.trunc_mod"


@relay_operator("maximum", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class MaximumOp(OperatorOp):
    """Elementwise maximum of two tensors with broadcasting."""

    name = "relay.maximum"


@relay_operator("minimum", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class MinimumOp(OperatorOp):
    """Elementwise minimum of two tensors with broadcasting."""

    name = "relay.minimum"


@relay_operator("equal", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class EqualOp(OperatorOp):
    """Elementwise lhs == rhs with broadcasting, bool result."""

    name = "relay.equal"


@relay_operator("not_equal", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class NotEqualOp(OperatorOp):
    """Elementwise lhs != rhs with broadcasting, bool result."""

    name = "relay.not_equal"


@relay_operator("less", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class LessOp(OperatorOp):
    """Elementwise lhs < rhs with broadcasting, bool result."""

    name = "relay.less"


@relay_operator("less_equal", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class LessEqualOp(OperatorOp):
    """Elementwise lhs <= rhs with broadcasting, bool result."""

    name = "relay.less_equal"


@relay_operator("greater", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class GreaterOp(OperatorOp):
    """Elementwise lhs > rhs with broadcasting, bool result."""

    name = "relay.greater"


@relay_operator("greater_equal", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class GreaterEqualOp(OperatorOp):
    """Elementwise lhs >= rhs with broadcasting, bool result."""

    name = "relay.greater_equal"


@relay_operator("logical_and", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class LogicalAndOp(OperatorOp):
    """Elementwise boolean AND with broadcasting."""

    name = "relay.logical_and"


@relay_operator("logical_or", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class LogicalOrOp(OperatorOp):
    """Elementwise boolean OR with broadcasting."""

    name = "relay.logical_or"


@relay_operator("logical_xor", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class LogicalXorOp(OperatorOp):
    """Elementwise boolean XOR with broadcasting."""

    name = "relay.logical_xor"


@relay_operator("bitwise_and", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class BitwiseAndOp(OperatorOp):
    """Elementwise bitwise AND with broadcasting."""

    name = "relay.bitwise_and"


@relay_operator("bitwise_or", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class BitwiseOrOp(OperatorOp):
    """Elementwise bitwise OR with broadcasting."""

    name = "relay.bitwise_or"


@relay_operator("bitwise_xor", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class BitwiseXorOp(OperatorOp):
    """Elementwise bitwise XOR with broadcasting."""

    name = "relay.bitwise_xor"


@relay_operator("left_shift", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class LeftShiftOp(OperatorOp):
    """Elementwise lhs << rhs with broadcasting."""

    name = "relay.left_shift"


@relay_operator("right_shift", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class RightShiftOp(OperatorOp):
    """Elementwise lhs >> rhs with broadcasting."""

    name = "relay.right_shift"


@relay_operator("negative", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class NegativeOp(OperatorOp):
    """Elementwise -x."""

    name = "relay.negative"


@relay_operator("exp", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class ExpOp(OperatorOp):
    """Elementwise e**x."""

    name = "relay.exp"


@relay_operator("fast_exp", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class FastExpOp(OperatorOp):
    """Elementwise approximate e**x."""

    name = "relay.fast_exp"


@relay_operator("log", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class LogOp(OperatorOp):
    """Elementwise natural logarithm."""

    name = "relay.log"


@relay_operator("log2", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class Log2Op(OperatorOp):
    """Elementwise base-2 logarithm."""

    name = "relay.log2"


@relay_operator("log10", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class Log10Op(OperatorOp):
    """Elementwise base-10 logarithm."""

    name = "relay.log10"


@relay_operator("sqrt", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class SqrtOp(OperatorOp):
    """Elementwise square root."""

    name = "relay.sqrt"


@relay_operator("rsqrt", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class RsqrtOp(OperatorOp):
    """Elementwise 1/sqrt(x)."""

    name = "relay.rsqrt"


@relay_operator("erf", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class ErfOp(OperatorOp):
    """Elementwise Gauss error function."""

    name = "relay.erf"


@relay_operator("fast_erf", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class FastErfOp(OperatorOp):
    """Elementwise approximate error function."""

    name = "relay.fast_erf"


@relay_operator("tanh", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class TanhOp(OperatorOp):
    """Elementwise hyperbolic tangent."""

    name = "relay.tanh"


@relay_operator("fast_tanh", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class FastTanhOp(OperatorOp):
    """Elementwise approximate hyperbolic tangent."""

    name = "relay.fast_tanh"


@relay_operator("sigmoid", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class SigmoidOp(OperatorOp):
    """Elementwise logistic function 1/(1+exp(-x))."""

    name = "relay.sigmoid"


@relay_operator("cos", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class CosOp(OperatorOp):
    """Elementwise cosine."""

    name = "relay.cos"


@relay_operator("sin", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class SinOp(OperatorOp):
    """Elementwise sine."""

    name = "relay.sin"


@relay_operator("tan", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class TanOp(OperatorOp):
    """Elementwise tangent."""

    name = "relay.tan"


@relay_operator("cosh", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class CoshOp(OperatorOp):
    """Elementwise hyperbolic cosine."""

    name = "relay.cosh"


@relay_operator("sinh", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class SinhOp(OperatorOp):
    """Elementwise hyperbolic sine."""

    name = "relay.sinh"


@relay_operator("acos", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class AcosOp(OperatorOp):
    """Elementwise arc cosine."""

    name = "relay.acos"


@relay_operator("asin", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class AsinOp(OperatorOp):
    """Elementwise arc sine."""

    name = "relay.asin"


@relay_operator("atan", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class AtanOp(OperatorOp):
    """Elementwise arc tangent."""

    name = "relay.atan"


@relay_operator("floor", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class FloorOp(OperatorOp):
    """Elementwise floor."""

    name = "relay.floor"


@relay_operator("ceil", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class CeilOp(OperatorOp):
    """Elementwise ceiling."""

    name = "relay.ceil"


@relay_operator("round", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class RoundOp(OperatorOp):
    """Elementwise rounding to nearest integer value."""

    name = "relay.round"


@relay_operator("trunc", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class TruncOp(OperatorOp):
    """Elementwise truncation toward zero."""

    name = "relay.trunc"


@relay_operator("abs", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class AbsOp(OperatorOp):
    """Elementwise absolute value."""

    name = "relay.abs"


@relay_operator("sign", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class SignOp(OperatorOp):
    """Elementwise sign (-1, 0 or 1)."""

    name = "relay.sign"


@relay_operator("copy", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class CopyOp(OperatorOp):
    """Returns a copy of the input tensor."""

    name = "relay.copy"


@relay_operator("logical_not", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class LogicalNotOp(OperatorOp):
    """Elementwise boolean NOT."""

    name = "relay.logical_not"


@relay_operator("bitwise_not", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class BitwiseNotOp(OperatorOp):
    """Elementwise bitwise NOT."""

    name = "relay.bitwise_not"


@relay_operator("isnan", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class IsnanOp(OperatorOp):
    """Elementwise test for NaN, bool result."""

    name = "relay.isnan"


@relay_operator("isinf", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class IsinfOp(OperatorOp):
    """Elementwise test for +/-inf, bool result."""

    name = "relay.isinf"


@relay_operator("isfinite", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class IsfiniteOp(OperatorOp):
    """Elementwise test for finite values, bool result."""

    name = "relay.isfinite"


@relay_operator("zeros_like", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class ZerosLikeOp(OperatorOp):
    """Tensor of zeros with the same shape and dtype as the input."""

    name = "relay.zeros_like"


@relay_operator("ones_like", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class OnesLikeOp(OperatorOp):
    """Tensor of ones with the same shape and dtype as the input."""

    name = "relay.ones_like"


@relay_operator("clip", _CLIP_ATTRS, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class ClipOp(OperatorOp):
    """Clamps every element to [a_min, a_max] (single tensor input; bounds are
    attributes)."""

    name = "relay.clip"


@relay_operator("cast", _CAST_ATTRS, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class CastOp(OperatorOp):
    """Converts the elements to data type `dtype`."""

    name = "relay.cast"


@relay_operator("cast_like", arity=2, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class CastLikeOp(OperatorOp):
    """Converts data to the dtype of the second tensor."""

    name = "relay.cast_like"


@relay_operator("reinterpret", _CAST_ATTRS, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class ReinterpretOp(OperatorOp):
    """Bitwise reinterpretation of the elements as `dtype` (same bit width)."""

    name = "relay.reinterpret"


@relay_operator("full", _INIT_OP_ATTRS, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class FullOp(OperatorOp):
    """Creates a tensor of `shape` / `dtype` filled with the scalar tensor input
    fill_value (1 input)."""

    name = "relay.full"


@relay_operator("full_like", arity=2, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class FullLikeOp(OperatorOp):
    """Tensor shaped like data filled with the scalar fill_value (2 inputs)."""

    name = "relay.full_like"


@relay_operator("zeros", _INIT_OP_ATTRS, arity=0, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class ZerosOp(OperatorOp):
    """Creates a tensor of zeros of given shape and dtype; takes no tensor inputs."""

    name = "relay.zeros"


@relay_operator("ones", _INIT_OP_ATTRS, arity=0, pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class OnesOp(OperatorOp):
    """Creates a tensor of ones of given shape and dtype; takes no tensor inputs."""

    name = "relay.ones"


@relay_operator("where", arity=3, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class WhereOp(OperatorOp):
    """Elementwise select: condition ? x : y, all three broadcast together."""

    name = "relay.where"


@relay_operator("squeeze", _SQUEEZE_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class SqueezeOp(OperatorOp):
    """Removes size-1 dimensions: the listed `axis` entries, or all of them if axis
    is None."""

    name = "relay.squeeze"


@relay_operator("expand_dims", _EXPAND_DIMS_ATTRS, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class ExpandDimsOp(OperatorOp):
    """Inserts num_newaxis size-1 dimensions at position `axis`."""

    name = "relay.expand_dims"


@relay_operator("reshape", _RESHAPE_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class ReshapeOp(OperatorOp):
    """Reshapes to newshape; supports the special values 0 (copy dim, unless
    allowzero), -1 (infer), -2, -3, -4."""

    name = "relay.reshape"


@relay_operator("reshape_like", _RESHAPE_LIKE_ATTRS, arity=2, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class ReshapeLikeOp(OperatorOp):
    """Reshapes data to the shape of the second tensor (optionally only a sub-range
    of axes)."""

    name = "relay.reshape_like"


@relay_operator("transpose", _TRANSPOSE_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class TransposeOp(OperatorOp):
    """Permutes dimensions by `axes`; reverses the dimension order when axes is
    None."""

    name = "relay.transpose"


@relay_operator("concatenate", _CONCATENATE_ATTRS, pattern=OpPattern.INJECTIVE, tuple_input=True)
@irdl_op_definition
class ConcatenateOp(OperatorOp):
    """Joins a tuple of tensors along `axis`; the single Relay argument is a tuple
    expression."""

    name = "relay.concatenate"


@relay_operator("stack", _STACK_ATTRS, pattern=OpPattern.INJECTIVE, tuple_input=True)
@irdl_op_definition
class StackOp(OperatorOp):
    """Stacks a tuple of equally shaped tensors along a new dimension `axis`."""

    name = "relay.stack"


@relay_operator("split", _SPLIT_ATTRS, returns_tuple=True, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class SplitOp(OperatorOp):
    """Splits data along `axis` into equal sections (int) or at the given indices
    (array); returns a tuple."""

    name = "relay.split"


@relay_operator("strided_slice", _STRIDED_SLICE_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class StridedSliceOp(OperatorOp):
    """NumPy-style slice with begin/end/strides (optionally only along `axes`);
    slice_mode 'size' treats end as sizes."""

    name = "relay.strided_slice"


@relay_operator("slice_like", _SLICE_LIKE_ATTRS, arity=2, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class SliceLikeOp(OperatorOp):
    """Slices data to the shape of the second tensor along `axes` (all axes if
    empty/None)."""

    name = "relay.slice_like"


@relay_operator("take", _TAKE_ATTRS, arity=2, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class TakeOp(OperatorOp):
    """Gathers elements of data at `indices` along `axis` (flattened data when axis
    is None); mode clip/wrap/fast for out-of-bound indices."""

    name = "relay.take"


@relay_operator("gather", _GATHER_ATTRS, arity=2, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class GatherOp(OperatorOp):
    """Gathers values along `axis` using an index tensor of the same rank (like
    torch.gather)."""

    name = "relay.gather"


@relay_operator("gather_nd", _GATHERND_ATTRS, arity=2, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class GatherNdOp(OperatorOp):
    """Gathers slices of data addressed by the leading dimension of the indices
    tensor."""

    name = "relay.gather_nd"


@relay_operator("tile", _TILE_ATTRS, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class TileOp(OperatorOp):
    """Repeats the whole tensor reps[i] times along each dimension."""

    name = "relay.tile"


@relay_operator("repeat", _REPEAT_ATTRS, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class RepeatOp(OperatorOp):
    """Repeats each element `repeats` times along `axis`."""

    name = "relay.repeat"


@relay_operator("reverse", _REVERSE_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class ReverseOp(OperatorOp):
    """Reverses the order of elements along `axis`."""

    name = "relay.reverse"


@relay_operator("broadcast_to", _INIT_OP_ATTRS, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class BroadcastToOp(OperatorOp):
    """Broadcasts data to `shape` (uses InitOpAttrs; dtype unused)."""

    name = "relay.broadcast_to"


@relay_operator("broadcast_to_like", arity=2, pattern=OpPattern.BROADCAST)
@irdl_op_definition
class BroadcastToLikeOp(OperatorOp):
    """Broadcasts data to the shape of the second tensor."""

    name = "relay.broadcast_to_like"


@relay_operator("one_hot", _ONE_HOT_ATTRS, arity=3, pattern=OpPattern.OUT_ELEMWISE_FUSABLE)
@irdl_op_definition
class OneHotOp(OperatorOp):
    """One-hot encoding of integer indices with depth `depth` on `axis`; inputs
    (indices, on_value, off_value)."""

    name = "relay.one_hot"


@relay_operator("layout_transform", _LAYOUT_TRANSFORM_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class LayoutTransformOp(OperatorOp):
    """Converts a tensor between layouts, e.g. NCHW -> NCHW16c."""

    name = "relay.layout_transform"


@relay_operator("shape_of", _SHAPE_OF_ATTRS, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class ShapeOfOp(OperatorOp):
    """Returns the shape of the input as a 1D tensor of dtype `dtype`."""

    name = "relay.shape_of"


@relay_operator("sum", _REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class SumOp(OperatorOp):
    """Sum over `axis` (all axes when None; the complementary axes if exclude)."""

    name = "relay.sum"


@relay_operator("mean", _REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class MeanOp(OperatorOp):
    """Arithmetic mean over `axis`."""

    name = "relay.mean"


@relay_operator("max", _REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class MaxOp(OperatorOp):
    """Maximum over `axis`."""

    name = "relay.max"


@relay_operator("min", _REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class MinOp(OperatorOp):
    """Minimum over `axis`."""

    name = "relay.min"


@relay_operator("prod", _REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class ProdOp(OperatorOp):
    """Product over `axis`."""

    name = "relay.prod"


@relay_operator("all", _REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class AllOp(OperatorOp):
    """Logical AND reduction over `axis`."""

    name = "relay.all"


@relay_operator("any", _REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class AnyOp(OperatorOp):
    """Logical OR reduction over `axis`."""

    name = "relay.any"


@relay_operator("argmax", _ARG_REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class ArgmaxOp(OperatorOp):
    """Index of the maximum along `axis` (first occurrence unless
    select_last_index)."""

    name = "relay.argmax"


@relay_operator("argmin", _ARG_REDUCE_ATTRS, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class ArgminOp(OperatorOp):
    """Index of the minimum along `axis`."""

    name = "relay.argmin"


@relay_operator("variance", _VARIANCE_ATTRS, arity=2, pattern=OpPattern.COMM_REDUCE)
@irdl_op_definition
class VarianceOp(OperatorOp):
    """Variance over `axis`; takes 2 inputs (data, precomputed mean); unbiased
    divides by N-1."""

    name = "relay.variance"


@relay_operator("image.resize1d", _RESIZE1D_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class Resize1DOp(OperatorOp):
    """Resizes the W dimension to `size` with nearest/linear/cubic interpolation."""

    name = "relay.image.resize1d"


@relay_operator("image.resize2d", _RESIZE2D_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class Resize2DOp(OperatorOp):
    """Resizes the H and W dimensions to `size` using nearest_neighbor/linear/cubic
    interpolation and the chosen coordinate transformation mode."""

    name = "relay.image.resize2d"


@relay_operator("image.resize3d", _RESIZE3D_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class Resize3DOp(OperatorOp):
    """Resizes D, H and W to `size`."""

    name = "relay.image.resize3d"


@relay_operator(
    "image.crop_and_resize",
    _CROP_AND_RESIZE_ATTRS,
    arity=3,
    pattern=OpPattern.INJECTIVE,
)
@irdl_op_definition
class CropAndResizeOp(OperatorOp):
    """Crops boxes from the images and resizes each crop to crop_size; inputs (data,
    boxes, box_indices)."""

    name = "relay.image.crop_and_resize"


@relay_operator("image.grid_sample", _GRID_SAMPLE_ATTRS, arity=2, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class GridSampleOp(OperatorOp):
    """Samples data at the locations given by a grid tensor
    (bilinear/nearest/bicubic)."""

    name = "relay.image.grid_sample"


@relay_operator("argsort", _ARGSORT_ATTRS, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class ArgsortOp(OperatorOp):
    """Indices that sort data along `axis`."""

    name = "relay.argsort"


@relay_operator("sort", _ARGSORT_ATTRS, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class SortOp(OperatorOp):
    """Sorts data along `axis`."""

    name = "relay.sort"


@relay_operator("topk", _TOPK_ATTRS, returns_tuple=None, pattern=OpPattern.OPAQUE)
@irdl_op_definition
class TopkOp(OperatorOp):
    """Top-k values/indices along `axis`; result is a 2-tuple (values, indices) when
    ret_type='both' (default), a single tensor for 'values' or 'indices'."""

    name = "relay.topk"


# ---------------------------------------------------------------------------
# Relax-only operators
# ---------------------------------------------------------------------------
#
# TVM Relax (Relay's successor) has operators that Relay lacks, or whose
# semantics differ from the Relay operator of the same name. The Relax
# importer maps a Relax operator onto a Relay operator above only when the
# two agree exactly; the operators below cover the Relax ones that have no
# exact Relay counterpart. Their op names are ``relay.relax.<relax name>``
# and their schemas are the fields of the Relax attrs struct, with Relax's
# defaults. They are not in ``OPERATOR_OPS``/``OPERATORS`` (the Relay
# operator tables) but in ``RELAX_OPERATOR_OPS``/``RELAX_OPERATORS``.

_RELAX_MATMUL_ATTRS = (RelayAttr("out_dtype", AttrKind.DTYPE, ""),)
"""Fields of Relax's ``MatmulAttrs`` (``""``: the inputs' dtype)."""

_RELAX_STRIDED_SLICE_ATTRS = (
    RelayAttr("axes", AttrKind.INTS, None, required=True),
    RelayAttr("begin", AttrKind.INTS, None, required=True),
    RelayAttr("end", AttrKind.INTS, None, required=True),
    RelayAttr("strides", AttrKind.INTS, None),
    RelayAttr("assume_inbound", AttrKind.BOOL, False),
)
"""Relax ``strided_slice``'s static tuple arguments and its ``StridedSliceAttrs``."""


@relay_operator(
    "relax.matmul",
    _RELAX_MATMUL_ATTRS,
    arity=2,
    pattern=OpPattern.OUT_ELEMWISE_FUSABLE,
)
@irdl_op_definition
class RelaxMatmulOp(OperatorOp):
    """Relax `matmul`: matrix product with numpy `matmul` semantics. A 1-D lhs is
    a row vector and a 1-D rhs a column vector, the promoted axis being dropped
    from the result; operands of rank > 2 are stacks of matrices whose batch
    dimensions broadcast; `out_dtype` ("" means the operands' dtype) is the
    result's dtype. Relay's nn.matmul, nn.dense and nn.batch_matmul each cover
    only a special case."""

    name = "relay.relax.matmul"


@relay_operator("relax.strided_slice", _RELAX_STRIDED_SLICE_ATTRS, pattern=OpPattern.INJECTIVE)
@irdl_op_definition
class RelaxStridedSliceOp(OperatorOp):
    """Relax `strided_slice`: slices the listed `axes` only, keeping the others
    whole; `axes`, `begin`, `end` and `strides` have one entry per listed axis,
    and absent `strides` means stride 1. Without `assume_inbound`, out-of-range
    indices are clamped to the axis. Relax passes the four lists as tuple
    arguments; static integer tuples are stored here as attributes, keeping
    their integer width."""

    name = "relay.relax.strided_slice"


@relay_operator("relax.nn.gelu", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class RelaxGeluOp(OperatorOp):
    """Relax `nn.gelu`: x * Phi(x), with Phi the exact standard normal CDF."""

    name = "relay.relax.nn.gelu"


@relay_operator("relax.nn.gelu_tanh", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class RelaxGeluTanhOp(OperatorOp):
    """Relax `nn.gelu_tanh`: GELU with the tanh approximation
    0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))."""

    name = "relay.relax.nn.gelu_tanh"


@relay_operator("relax.nn.silu", pattern=OpPattern.ELEMWISE)
@irdl_op_definition
class RelaxSiluOp(OperatorOp):
    """Relax `nn.silu`: x * sigmoid(x)."""

    name = "relay.relax.nn.silu"


RELAX_OPERATOR_OPS: tuple[type[OperatorOp], ...] = (
    RelaxMatmulOp,
    RelaxStridedSliceOp,
    RelaxGeluOp,
    RelaxGeluTanhOp,
    RelaxSiluOp,
)
"""Relax operators without an exact Relay counterpart."""

RELAX_OPERATORS: dict[str, type[OperatorOp]] = {op.RELAY_NAME: op for op in RELAX_OPERATOR_OPS}
"""Relax operator name → op class, for the Relax-only operators."""


OPERATOR_OPS: tuple[type[OperatorOp], ...] = (
    Conv2DOp,
    Conv2DTransposeOp,
    Conv1DOp,
    Conv1DTransposeOp,
    Conv3DOp,
    Conv3DTransposeOp,
    DenseOp,
    MatmulOp,
    BatchMatmulOp,
    BiasAddOp,
    ReluOp,
    LeakyReluOp,
    PreluOp,
    SoftmaxOp,
    FastSoftmaxOp,
    LogSoftmaxOp,
    MaxPool1DOp,
    MaxPool2DOp,
    MaxPool3DOp,
    AvgPool1DOp,
    AvgPool2DOp,
    AvgPool3DOp,
    GlobalAvgPool2DOp,
    GlobalMaxPool2DOp,
    AdaptiveAvgPool2DOp,
    AdaptiveMaxPool2DOp,
    BatchNormOp,
    LayerNormOp,
    InstanceNormOp,
    GroupNormOp,
    LrnOp,
    L2NormalizeOp,
    DropoutOp,
    BatchFlattenOp,
    PadOp,
    MirrorPadOp,
    UpsamplingOp,
    Upsampling3DOp,
    DepthToSpaceOp,
    SpaceToDepthOp,
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivideOp,
    FloorDivideOp,
    TruncDivideOp,
    PowerOp,
    ModOp,
    FloorModOp,
    TruncModOp,
    MaximumOp,
    MinimumOp,
    EqualOp,
    NotEqualOp,
    LessOp,
    LessEqualOp,
    GreaterOp,
    GreaterEqualOp,
    LogicalAndOp,
    LogicalOrOp,
    LogicalXorOp,
    BitwiseAndOp,
    BitwiseOrOp,
    BitwiseXorOp,
    LeftShiftOp,
    RightShiftOp,
    NegativeOp,
    ExpOp,
    FastExpOp,
    LogOp,
    Log2Op,
    Log10Op,
    SqrtOp,
    RsqrtOp,
    ErfOp,
    FastErfOp,
    TanhOp,
    FastTanhOp,
    SigmoidOp,
    CosOp,
    SinOp,
    TanOp,
    CoshOp,
    SinhOp,
    AcosOp,
    AsinOp,
    AtanOp,
    FloorOp,
    CeilOp,
    RoundOp,
    TruncOp,
    AbsOp,
    SignOp,
    CopyOp,
    LogicalNotOp,
    BitwiseNotOp,
    IsnanOp,
    IsinfOp,
    IsfiniteOp,
    ZerosLikeOp,
    OnesLikeOp,
    ClipOp,
    CastOp,
    CastLikeOp,
    ReinterpretOp,
    FullOp,
    FullLikeOp,
    ZerosOp,
    OnesOp,
    WhereOp,
    SqueezeOp,
    ExpandDimsOp,
    ReshapeOp,
    ReshapeLikeOp,
    TransposeOp,
    ConcatenateOp,
    StackOp,
    SplitOp,
    StridedSliceOp,
    SliceLikeOp,
    TakeOp,
    GatherOp,
    GatherNdOp,
    TileOp,
    RepeatOp,
    ReverseOp,
    BroadcastToOp,
    BroadcastToLikeOp,
    OneHotOp,
    LayoutTransformOp,
    ShapeOfOp,
    SumOp,
    MeanOp,
    MaxOp,
    MinOp,
    ProdOp,
    AllOp,
    AnyOp,
    ArgmaxOp,
    ArgminOp,
    VarianceOp,
    Resize1DOp,
    Resize2DOp,
    Resize3DOp,
    CropAndResizeOp,
    GridSampleOp,
    ArgsortOp,
    SortOp,
    TopkOp,
)


OPERATORS: dict[str, type[OperatorOp]] = {op.RELAY_NAME: op for op in OPERATOR_OPS}
"""Relay operator name → op class, for every operator with a definition."""


Relay = Dialect(
    "relay",
    [
        *OPERATOR_OPS,
        *RELAX_OPERATOR_OPS,
        GenericOperatorOp,
        ConstantOp,
        TupleOp,
        TupleGetItemOp,
        FnOp,
        ReturnOp,
        LetOp,
    ],
    [],
)
