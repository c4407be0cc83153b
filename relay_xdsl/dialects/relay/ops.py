"""Operator calls: the base op of every Relay operator, and ``relay.op``.

Each Relay operator is one op named ``relay.<operator>``, e.g.
``relay.nn.conv2d``, a :class:`RegisteredOperatorOp` generated from the
operator's registry row (:mod:`relay_xdsl.dialects.relay.registry`) into
:mod:`relay_xdsl.dialects.relay.operator_ops`; its Relay attributes live in the op's
attribute dictionary and are checked against the operator's schema. An
operator without a row is a ``relay.op`` (:class:`GenericOperatorOp`)
carrying its name.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from xdsl.dialects.builtin import StringAttr, TupleType, UnitAttr
from xdsl.ir import Attribute, Operation, SSAValue, SSAValues
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.attributes import OpPattern, RelayAttr, accepts, attr_value
from relay_xdsl.dialects.relay.syntax import (
    parse_call,
    print_attributes_and_signature,
    verify_relay_type,
)
from relay_xdsl.dialects.relay.types import IncompleteType
from relay_xdsl.dialects.relay.verified import verified_by_key
from relay_xdsl.support.created import created

if TYPE_CHECKING:
    from relay_xdsl.dialects.relay.registry import Operator


class OperatorOp(IRDLOperation, ABC):
    """A call of a Relay operator: a :class:`RegisteredOperatorOp` or a
    :class:`GenericOperatorOp`.

    Syntax::

        %r = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>}
               : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
    """

    result = result_def()

    traits = traits_def(Pure())

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        # Built as ``Operation.create`` builds: any number of arguments, so that
        # a wrong count reaches the verifier, whose message names the operator.
        Operation.__init__(
            self,
            operands=[SSAValue.get(arg) for arg in args],
            result_types=[result_type],
            attributes=dict(attributes or {}),
        )

    @property
    def args(self) -> SSAValues[SSAValue]:
        """The arguments, in order: the operands, for walks that do not know
        the operator (a registered op also names each one, ``Conv2DOp.weight``)."""
        return SSAValues(self.operands)

    @property
    def operator_name(self) -> str:
        """The operator's name in Relay text (``nn.conv2d``)."""
        raise NotImplementedError

    @property
    def schema(self) -> Mapping[str, RelayAttr]:
        """The attribute schema by name: empty where the operator has no row."""
        return {}

    @property
    def pattern(self) -> OpPattern:
        """TVM's fusion pattern of the operator: ``OPAQUE`` where it has no row."""
        return OpPattern.OPAQUE

    def relay_attr(self, name: str) -> Any:
        """The Python value of attribute `name`, or its TVM default when absent."""
        if name in self.attributes:
            return attr_value(self.attributes[name])
        return self.schema[name].default

    def non_default_attributes(self) -> list[tuple[str, Attribute]]:
        """Stored attributes whose value differs from TVM's default, in schema order."""
        return [
            (a.name, self.attributes[a.name])
            for a in self.schema.values()
            if a.name in self.attributes and attr_value(self.attributes[a.name]) != a.default
        ]

    def _print_call(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        print_attributes_and_signature(printer, self.attributes, self.args, self.result.type)

    def print(self, printer: Printer) -> None:
        self._print_call(printer)

    @classmethod
    def parse(cls, parser: Parser) -> OperatorOp:
        pos = parser.pos
        attributes, args, result_type = parse_call(parser, pos, ())
        if cls.__init__ is OperatorOp.__init__:  # the same op, built faster
            return created(cls, args, result_type, attributes)
        return cls(args, result_type, attributes)


class RegisteredOperatorOp(OperatorOp, ABC):
    """A call of an operator that has a registry row: the base of the op
    classes generated from the rows (:mod:`.operator_ops`).

    The row (``OPERATOR``) fixes the operator's name in Relay text, its
    attribute schema (TVM's attrs struct fields, in TVM's declaration order,
    with TVM's defaults), its arguments (one named operand each, ``None``
    arity for any number), whether the result is a tuple, and the fusion
    pattern (TVM's ``TOpPattern``).
    """

    OPERATOR: ClassVar[Operator]
    """The registry row."""

    @property
    def operator_name(self) -> str:
        return self.OPERATOR.name

    @property
    def schema(self) -> Mapping[str, RelayAttr]:
        return self.OPERATOR.schema

    @property
    def pattern(self) -> OpPattern:
        return self.OPERATOR.pattern

    def verify(self, verify_nested_ops: bool = True) -> None:
        # The argument count first: xDSL's own check of the operand definitions,
        # which runs before ``verify_``, would say it without naming the operator.
        try:
            self._verify_arity()
        except VerifyException as err:
            self.emit_error(f"Operation does not verify: {err}", err)
        super().verify(verify_nested_ops)

    def _verify_arity(self) -> None:
        arity = self.OPERATOR.arity
        if arity is not None and len(self.operands) != arity:
            raise VerifyException(
                f"'{self.OPERATOR.name}' expects {arity} argument(s), got {len(self.operands)}"
            )

    def verify_(self) -> None:
        row = self.OPERATOR
        self._verify_arity()
        for index, arg in enumerate(self.operands):
            verify_relay_type(f"argument #{index}", arg.type)
        verify_relay_type("result", self.result.type)
        if row.tuple_input and not (
            len(self.operands) == 1
            and isinstance(self.operands[0].type, TupleType | IncompleteType)
        ):
            raise VerifyException(f"'{row.name}' takes a single tuple argument")
        # A type inference has not determined (still incomplete) may be either.
        if (
            row.returns_tuple is not None
            and row.returns_tuple != isinstance(self.result.type, TupleType)
            and not isinstance(self.result.type, IncompleteType)
        ):
            expected = "a tuple" if row.returns_tuple else "a tensor"
            raise VerifyException(f"'{row.name}' returns {expected}, got {self.result.type}")
        schema = row.schema
        for name, attr in self.attributes.items():
            spec = schema.get(name)
            if spec is None:
                valid = ", ".join(schema) or "none"
                raise VerifyException(f"'{row.name}' has no attribute '{name}' (valid: {valid})")
            if isinstance(attr, UnitAttr):
                if spec.default is not None and not spec.required:
                    raise VerifyException(f"attribute '{name}' of '{row.name}' cannot be None")
            elif not accepts(spec.kind, attr):
                raise VerifyException(
                    f"attribute '{name}' of '{row.name}' expects {spec.kind.value}, got {attr}"
                )


@verified_by_key()
@irdl_op_definition
class GenericOperatorOp(OperatorOp):
    """A call of a Relay operator that has no op definition of its own.

    It carries the operator name in ``op_name`` and keeps every attribute, so
    unknown operators round-trip unchanged. No schema is checked.

    Syntax::

        %r = relay.op "nn.my_op"(%x) {alpha = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    """

    name = "relay.op"
    args = var_operand_def()  # pyright: ignore[reportIncompatibleMethodOverride]
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
            verify_relay_type(f"argument #{index}", arg.type)
        verify_relay_type("result", self.result.type)
        if not self.op_name.data:
            raise VerifyException("'relay.op' needs a non-empty op_name")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.op_name)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        print_attributes_and_signature(
            printer, dict(self.relay_attributes()), self.args, self.result.type
        )

    @classmethod
    def parse(cls, parser: Parser) -> GenericOperatorOp:
        pos = parser.pos
        op_name = parser.parse_str_literal()
        attributes, args, result_type = parse_call(parser, pos, ("op_name",))
        return cls(op_name, args, result_type, attributes)
