"""Relay's types that MLIR's builtin types do not express.

Tensors are builtin ``tensor<...>`` (``?`` for a dynamic dimension, ``tensor<f32>``
for a scalar), tuples are builtin ``tuple<...>`` and function types are builtin
``(T1, T2) -> R``. The rest of Relay's type language is here:

* ``!relay.incomplete``: a type that nothing determines (TVM's
  ``IncompleteType`` left over after inference). A value of this type prints
  back without an annotation.
* ``!relay.type_var<"A">``: a type parameter, bound by the ``type_params`` of
  the function or type definition that declares it.
* ``!relay.ref<T>``: a mutable reference cell holding a ``T`` (``ref``,
  ``ref_read``, ``ref_write``).
* ``!relay.adt<"List", [T]>``: an algebraic data type, a ``type`` definition
  of the module applied to type arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from typing_extensions import TypeVar
from xdsl.dialects.builtin import ArrayAttr, StringAttr, TensorType, TupleType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    AttrConstraint,
    BaseAttr,
    IntConstraint,
    irdl_attr_definition,
    param_def,
)
from xdsl.irdl.constraints import VerificationContext
from xdsl.parser import AttrParser
from xdsl.printer import Printer


@irdl_attr_definition
class IncompleteType(ParametrizedAttribute, TypeAttribute):
    """A type that type inference could not determine.

    Syntax: ``!relay.incomplete``
    """

    name = "relay.incomplete"


@irdl_attr_definition
class TypeVarType(ParametrizedAttribute, TypeAttribute):
    """A type parameter ``A`` of a generic function or type definition.

    Syntax: ``!relay.type_var<"A">``
    """

    name = "relay.type_var"

    var_name: StringAttr = param_def(converter=StringAttr.get)

    def __init__(self, var_name: str | StringAttr):
        super().__init__(var_name)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.var_name.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal()),)


@irdl_attr_definition
class RefType(ParametrizedAttribute, TypeAttribute):
    """A mutable reference to a value of type ``T``: Relay's ``RefType``.

    Syntax: ``!relay.ref<tensor<f32>>``
    """

    name = "relay.ref"

    value_type: Attribute

    def __init__(self, value_type: Attribute):
        super().__init__(value_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.value_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)


@irdl_attr_definition
class AdtType(ParametrizedAttribute, TypeAttribute):
    """An algebraic data type: the module's ``type List[A] { ... }`` applied
    to type arguments (``List[Tensor[(2,), float32]]``).

    Syntax: ``!relay.adt<"List", [tensor<2xf32>]>``; with no arguments,
    ``!relay.adt<"Nat">``.
    """

    name = "relay.adt"

    type_name: StringAttr = param_def(converter=StringAttr.get)
    args: ArrayAttr[Attribute] = param_def(converter=ArrayAttr[Attribute].get)

    def __init__(self, type_name: str | StringAttr, args: Sequence[Attribute] = ()):
        super().__init__(type_name, tuple(args))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.type_name.data)
            if self.args.data:
                printer.print_string(", [")
                printer.print_list(self.args.data, printer.print_attribute)
                printer.print_string("]")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, ArrayAttr[Attribute]]:
        with parser.in_angle_brackets():
            type_name = StringAttr(parser.parse_str_literal())
            args: list[Attribute] = []
            if parser.parse_optional_punctuation(",") is not None:
                args = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_type)
        return (type_name, ArrayAttr(args))


def is_complete(type_: Attribute) -> bool:
    """Whether `type_` has no incomplete part (``!relay.incomplete``, in a tuple too)."""
    if type(type_) is TensorType:  # the common case, without the ABC's isinstance
        return True
    if isinstance(type_, IncompleteType):
        return False
    if isinstance(type_, TupleType):
        return all(is_complete(t) for t in type_.types.data)
    return True


@dataclass(frozen=True)
class OrIncomplete(AttrConstraint):
    """An attribute of base `base`, or ``!relay.incomplete`` (a type not known yet).

    Other attributes fail as ``base`` alone would have them fail."""

    base: type[Attribute]

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, IncompleteType):
            BaseAttr(self.base).verify(attr, constraint_context)

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> OrIncomplete:
        return self


RELAY_TYPES = (IncompleteType, TypeVarType, RefType, AdtType)
"""The type attributes of the ``relay`` dialect."""
