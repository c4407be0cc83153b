"""The structural ops of the relay dialect: constants, tuples and function literals.

* ``relay.constant``: a constant tensor, inline or a ``meta[relay.Constant]``
  reference;
* ``relay.tuple`` and ``relay.tuple_get_item``: Relay tuples and their
  projections (``%t.0``);
* ``relay.fn`` and ``relay.return``: a function literal called in place (a
  fused or composite function), with its body.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeGuard, cast

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    TupleType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    base,
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
from xdsl.traits import IsolatedFromAbove, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.syntax import (
    parse_call_operands,
    parse_dense_literal,
    parse_extra_attributes,
    parse_relay_type,
    print_type,
    read_bindings,
    reuse_line_tail,
    reuse_printed,
)
from relay_xdsl.dialects.relay.types import IncompleteType, OrIncomplete
from relay_xdsl.dialects.relay.verified import verification_key, verified_by_key
from relay_xdsl.support.created import created
from relay_xdsl.support.memo import memoised

BLOB_THRESHOLD = 16
"""Constants with more elements than this print in MLIR's hex form."""


def _prints_as_blob(value: Attribute) -> TypeGuard[DenseIntOrFPElementsAttr]:
    """Whether `value` is a dense tensor to print in hex: a large one, or a
    float one with a NaN or an infinity."""
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    if len(value) > BLOB_THRESHOLD:
        return True
    element = value.get_element_type()
    return not isinstance(element, IntegerType) and any(
        not math.isfinite(v) for v in value.get_values()
    )


class _FloatTexts(Printer):
    """Keeps what xDSL's float printing writes, a piece of text a value,
    instead of writing it (a float's text holds no newline)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        self.texts.append(text)


def _float_list_text(value: Attribute) -> str | None:
    """``dense<[[...], ...]>`` as xDSL prints a small float tensor of a static
    shape, each element spelled by xDSL's ``print_float``; None for other
    tensors (splats, integers, complex numbers), which xDSL prints itself.

    Going through xDSL's generic list printing costs half the printing of a
    graph whose bias constants are a few floats each.
    """
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return None
    element = value.get_element_type()
    if (
        not isinstance(element, AnyFloat)
        or not value.shape_is_complete
        or value.is_splat()
        or len(value) > 100  # printed in hex
    ):
        return None
    shape = value.get_shape()
    floats = _FloatTexts()
    texts = []
    packing = _PACKINGS.get(type(element))
    for number in value.get_values():
        text = _float_text(cast(float, number), packing) if packing is not None else None
        if text is None:
            floats.texts.clear()
            floats.print_float(cast(float, number), element)
            text = "".join(floats.texts)
        texts.append(text)
    if not texts:
        return None
    return f"dense<{_nested_list(texts, shape)}>"


_PACKINGS = {Float32Type: (struct.Struct("<f"), "{:.9g}"), Float64Type: (None, "{:.17g}")}
"""How xDSL's ``print_float`` checks a spelling of an f32 and f64 (the
packing that rounds it to the type, if any) and its longer spelling."""


def _float_text(number: float, packing: tuple[struct.Struct | None, str]) -> str | None:
    """A finite `number` as xDSL's ``print_float`` spells it: six significant
    digits in scientific notation where they read back as the same value of
    the type, else the type's full precision; None where that has no ``.``
    (xDSL then writes the bits in hex)."""
    text = f"{number:.5e}"
    exponent = text.find("e")
    text = text[:exponent] + "0" + text[exponent:]
    rounding, full = packing
    parsed = float(text)
    if rounding is not None:
        try:
            parsed = rounding.unpack(rounding.pack(parsed))[0]
        except OverflowError:  # rounded past the type's largest value: xDSL's to tell
            return None
    if parsed == number:
        return text
    text = full.format(number)
    return text if "." in text else None


def _nested_list(texts: list[str], shape: Sequence[int]) -> str:
    """`texts` (row-major, at least one) nested as ``[[a, b], [c, d]]`` by `shape`."""
    # Innermost dimension first, each a pass grouping the rows of the one before.
    rows = texts
    for size in reversed(shape[1:]):
        rows = ["[" + ", ".join(rows[i : i + size]) + "]" for i in range(0, len(rows), size)]
    return "[" + ", ".join(rows) + "]"


def constant_verification_key(op: Operation) -> Hashable | None:
    """`verification_key` with the tensor's contents left out: the checks read
    only its class and type, and the table need not keep weights alive."""
    return verification_key(
        op,
        tuple(
            (name, (type(value), value.type))
            if name == "value" and isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr)
            else (name, value)
            for name, value in op.attributes.items()
        ),
    )


def constant_identified(op: Operation) -> Sequence[object]:
    """What stands for a constant's attributes in `constant_verification_key`,
    by identity: a dense value's class and type, any other attribute itself."""
    objects: list[object] = []
    for name, value in op.attributes.items():
        if name == "value" and isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
            objects += (type(value), value.type)
        else:
            objects.append(value)
    return objects


@verified_by_key(constant_verification_key, constant_identified)
@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A Relay constant tensor.

    Exactly one of ``value`` (the tensor's contents, dense or
    ``dense_resource``) or ``meta_index`` (an opaque reference
    ``meta[relay.Constant][i]`` whose contents the source did not include)
    is present. A ``meta_index`` constant that nothing typed is
    ``!relay.incomplete``.

    Syntax::

        %c = relay.constant dense<1.0> : tensor<f32>
        %w = relay.constant meta[3] : tensor<64x3x7x7xf32>
    """

    name = "relay.constant"
    value = opt_attr_def(base(DenseIntOrFPElementsAttr) | base(DenseResourceAttr))
    meta_index = opt_attr_def(IntegerAttr)
    result = result_def(OrIncomplete(TensorType))

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
        # As ``Operation.create`` builds it: the IRDL builder's generic checks
        # of the arguments cost more than the op, and these have its shape.
        Operation.__init__(self, result_types=(result_type,), attributes=attributes)

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
                print_type(printer, self.value.type)
            elif (text := _float_list_text(self.value)) is not None:
                printer.print_string(text)
                printer.print_string(" : ")
                print_type(printer, self.value.type)
            else:
                printer.print_attribute(self.value)
            extra = {k: v for k, v in self.attributes.items() if k != "value"}
        else:
            assert self.meta_index is not None
            printer.print_string(f"meta[{self.meta_index.value.data}] : ")
            print_type(printer, self.result.type)
            extra = {k: v for k, v in self.attributes.items() if k != "meta_index"}
        printer.print_op_attributes(extra)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        if parser.parse_optional_keyword("meta"):
            parser.parse_punctuation("[")
            index = parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation("]")
            parser.parse_punctuation(":")
            op = cls(parse_relay_type(parser), meta_index=index)
        else:
            pos = parser.pos
            value = parse_dense_literal(parser)
            if not isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
                parser.raise_error("expected a dense or dense_resource value", pos, parser.pos)
            op = created(cls, (), value.type, {"value": value})  # cls(value.type, value=value)
        op.attributes |= parse_extra_attributes(parser, ("value", "meta_index"))
        return op


@verified_by_key()
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
        values = [SSAValue.get(f, type=TypeAttribute) for f in fields]
        super().__init__(
            operands=[values], result_types=[TupleType(ArrayAttr(v.type for v in values))]
        )

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
        operands = parse_call_operands(parser)
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


@memoised(maxsize=256)
def _index_attr(index: int) -> IntegerAttr:
    """The ``index`` of a projection: one attribute per index, as a module has
    thousands of projections of a few fields."""
    return IntegerAttr(index, i64)


@verified_by_key()
@irdl_op_definition
class TupleGetItemOp(IRDLOperation):
    """Projects field ``index`` out of a Relay tuple (Relay's ``%t.0``).

    A tuple of unknown type (``!relay.incomplete``) gives an unknown field.

    Syntax::

        %x = relay.tuple_get_item %t[0] : tuple<tensor<2xf32>, tensor<3xf32>>
    """

    name = "relay.tuple_get_item"
    tuple_value = operand_def(OrIncomplete(TupleType))
    index = attr_def(IntegerAttr)
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, tuple_value: SSAValue | Operation, index: int):
        value = SSAValue.get(tuple_value)
        result_type, attributes = self.parts(value.type, index)
        # As ``Operation.create`` builds it (see `ConstantOp`).
        Operation.__init__(
            self, operands=(value,), result_types=(result_type,), attributes=attributes
        )

    @staticmethod
    def parts(tuple_type: Attribute, index: int) -> tuple[Attribute, dict[str, Attribute]]:
        """The result type and attributes of field `index`'s projection out of
        a value of `tuple_type`: the field's type (the tuple's own where
        `index` is out of range, for the verifier to reject), unknown where
        the tuple is."""
        result_type: Attribute
        if isinstance(tuple_type, TupleType):
            types = tuple_type.types.data
            result_type = types[index] if 0 <= index < len(types) else tuple_type
        else:
            result_type = IncompleteType()
        return result_type, {"index": _index_attr(index)}

    def verify_(self) -> None:
        if not isinstance(self.tuple_value.type, TupleType):
            return  # an unknown tuple: nothing to check yet
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
        attributes = parse_extra_attributes(parser, ("index",))
        parser.parse_punctuation(":")
        type_pos = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, TupleType | IncompleteType):
            parser.raise_error("expected a tuple type", type_pos, parser.pos)
        if isinstance(type_, TupleType) and index >= len(type_.types.data):
            parser.raise_error(f"index {index} is out of range", pos, parser.pos)
        (value,) = parser.resolve_operands([operand], [type_], pos)
        op = cls(value, index)
        op.attributes |= attributes
        return op


LITERAL = "relay.literal"
"""On ``relay.fn``: the function literal it calls, shared with the other
``relay.fn`` ops of its block that carry the same number."""

CALL_ATTRS = "relay.call_attrs"
"""On ``relay.fn``, ``relay.call`` and ``func.call``: the call's attributes,
Relay's ``%f(%x, name="n", attrs_type_key="attrs.TestAttrs")``. TVM's parser
takes attributes on a call of anything but an operator only with the
``attrs_type_key`` that names their TVM attributes type, so the dictionary
holds ``attrs_type_key``, a non-empty string, and the attributes."""


def verify_call_attrs(op: Operation) -> None:
    """Raise unless `op`'s ``relay.call_attrs``, if any, is such a dictionary."""
    attrs = op.attributes.get(CALL_ATTRS)
    if attrs is None:
        return
    key = attrs.data.get("attrs_type_key") if isinstance(attrs, DictionaryAttr) else None
    if not (isinstance(key, StringAttr) and key.data):
        raise VerifyException(
            f"'{CALL_ATTRS}' must be a dictionary with a non-empty string 'attrs_type_key', "
            f"got {attrs}"
        )


class _IsolatedBody(IsolatedFromAbove):
    """xDSL's ``IsolatedFromAbove``, which walks up from the owner of every
    operand in the body, with a shortcut for the usual ``relay.fn`` body: one
    block of ops without regions whose operands are all the block's
    arguments or results of its ops passes without the walk. Any other body,
    or one that fails, goes through xDSL's check, which names the culprit."""

    def verify(self, op: Operation) -> None:
        regions = op.regions
        if len(regions) == 1 and len(regions[0].blocks) == 1:
            block = regions[0].block
            for child in block.ops:
                if child.regions:
                    break
                for operand in child.operands:
                    owner = operand.owner
                    if owner is not block and owner.parent is not block:
                        break
                else:
                    continue
                break
            else:
                return
        super().verify(op)


@irdl_op_definition
class FnOp(IRDLOperation):
    """A Relay function literal called in place: a fused or composite function.

    The operands are the call's arguments; the single block's arguments are
    the function's parameters; ``relay.return`` yields the call's result.
    The remaining attributes are the function's Relay attributes
    (``Composite``, ``Primitive``, ``PartitionedFromPattern``, ...), in
    their Relay order, except ``relay.call_attrs`` (the call's attributes,
    see `CALL_ATTRS`) and ``relay.literal``: ``relay.fn`` ops of one
    block with the same ``relay.literal`` integer call one function literal
    (the text bound it once and called it from each of them); without it,
    each op is a literal of its own. The body sees nothing from outside
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

    traits = traits_def(_IsolatedBody())

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        result_type: Attribute,
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        # As ``Operation.create`` builds it (see `ConstantOp`).
        Operation.__init__(
            self,
            operands=[SSAValue.get(arg) for arg in args],
            result_types=(result_type,),
            regions=(body,),
            attributes=dict(attributes or {}),
        )

    @property
    def params(self) -> tuple[SSAValue, ...]:
        return self.body.block.args

    @property
    def literal(self) -> int | None:
        """Which function literal of its block this op calls, if the text shared one."""
        attr = self.attributes.get(LITERAL)
        return attr.value.data if isinstance(attr, IntegerAttr) else None

    def relay_attributes(self) -> dict[str, Attribute]:
        return {k: v for k, v in self.attributes.items() if k not in (LITERAL, CALL_ATTRS)}

    def verify_(self) -> None:
        verify_call_attrs(self)
        literal = self.attributes.get(LITERAL)
        if literal is not None and not (
            isinstance(literal, IntegerAttr) and literal.type == IntegerType(64)
        ):
            raise VerifyException(f"'{LITERAL}' must be an i64 integer, got {literal}")
        block = self.body.block
        if len(block.args) != len(self.args):
            raise VerifyException(
                f"'relay.fn' has {len(self.args)} argument(s) but its body takes "
                f"{len(block.args)} parameter(s)"
            )
        for index, (arg, param) in enumerate(zip(self.args, block.args)):
            # Mostly the same object: comparing types by value walks them.
            if arg.type is not param.type and arg.type != param.type:
                raise VerifyException(
                    f"argument #{index} has type {arg.type} but parameter "
                    f"#{index} has type {param.type}"
                )
        terminator = block.last_op
        if not isinstance(terminator, ReturnOp):
            raise VerifyException("'relay.fn' body must end with 'relay.return'")
        if (
            terminator.value.type is not self.result.type
            and terminator.value.type != self.result.type
        ):
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

        def print_result_and_attributes() -> None:
            printer.print_attribute(self.result.type)
            if self.attributes:
                printer.print_string(" attributes")
                printer.print_op_attributes(self.attributes)

        key = (self.result.type, tuple(self.attributes.items()))
        reuse_printed(printer, key, print_result_and_attributes)
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
            return param, operand, parse_relay_type(parser)

        def parse_result_and_attributes() -> tuple[Attribute, DictionaryAttr | None]:
            parser.parse_punctuation("->")
            return parser.parse_type(), parser.parse_optional_attr_dict_with_keyword()

        bindings = read_bindings(parser)
        if bindings is None:
            bindings = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_binding)
        types = [t for _, _, t in bindings]
        args = parser.resolve_operands([o for _, o, _ in bindings], types, pos)
        result_type, attributes = reuse_line_tail(
            parser, parse_result_and_attributes, before_region=True
        )
        params = [p.resolve(t) for (p, _, _), t in zip(bindings, types)]
        body = parser.parse_region(params)
        return cls(args, result_type, body, attributes.data if attributes else None)


def return_verification_key(op: Operation) -> Hashable | None:
    """`verification_key`, the name of the op whose body `op` is in and
    whether `op` ends its block: what ``relay.return``'s checks read (its
    own, and its ``IsTerminator`` trait's)."""
    key = verification_key(op)
    if key is None:
        return None
    parent = op.parent_op()
    block = op.parent
    ends_block = block is None or block.last_op is op
    return (key, None if parent is None else parent.name, ends_block)


@verified_by_key(return_verification_key)
@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Terminates a ``relay.fn`` or ``relay.function`` body, or a ``relay.if``
    branch, yielding the function's (the branch's) result.

    Syntax::

        relay.return %r : tensor<4xf32>
    """

    name = "relay.return"
    value = operand_def()

    traits = traits_def(IsTerminator(), ReturnLike())

    def __init__(self, value: SSAValue | Operation):
        # As ``Operation.create`` builds it (see `ConstantOp`).
        Operation.__init__(self, operands=(SSAValue.get(value),))

    # As the assembly format ``$value attr-dict `:` type($value)`` would read
    # and write it; by hand, because the generic format reader is slow and
    # every relay.fn ends with one.
    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_type(printer, self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(operand, parse_relay_type(parser)))
        op.attributes |= attributes
        return op

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or parent.name not in RETURN_PARENTS:
            raise VerifyException(
                "'relay.return' expects parent op 'relay.fn', 'relay.function' or 'relay.if'"
            )


RETURN_PARENTS = frozenset({"relay.fn", "relay.function", "relay.if"})
"""The region ops whose blocks end in ``relay.return``."""


def make_fn_body(param_types: Sequence[Attribute]) -> tuple[Region, Block]:
    """An empty single-block region whose block takes `param_types`."""
    block = Block(arg_types=param_types)
    return Region(block), block
