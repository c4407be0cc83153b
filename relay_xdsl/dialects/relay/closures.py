"""Functions as values: ``relay.function``, ``relay.call``, ``relay.global``
and ``relay.operator_ref``.

A Relay function literal that is used as a value (bound with ``let``,
returned, passed, stored in a tuple, called later or from several places)
is a ``relay.function``: a region op whose result is the function, of
builtin function type ``(T1, T2) -> R``. Its body sees the enclosing values
(the region is not isolated), so a closure captures what it uses by
referring to it. ``relay.call`` calls a function-typed value.

A function literal called in place (a fused or composite function) is not a
value: it stays a ``relay.fn`` at its call site (structure.py), which
``relay-defuse`` inlines as TVM's ``DefuseOps`` does. The passes leave
``relay.function`` bodies as they are written, apart from working inside
them as inside any body.

A recursive function (``let %f = fn (...) { ... %f(...) ... }``) refers to
itself through an extra first block argument of its own function type: an
SSA value cannot be used inside the region of the op that defines it.
Recursive global functions are ``func.call`` of themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    FlatSymbolRefAttr,
    FunctionType,
    StringAttr,
    TupleType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    base,
    irdl_op_definition,
    operand_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from relay_xdsl.dialects.relay.structure import ReturnOp, verify_call_attrs
from relay_xdsl.dialects.relay.syntax import parse_call_operands, verify_relay_type
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, RefType, TypeVarType

TYPE_PARAMS = "type_params"
"""The attribute of a ``relay.function`` or ``func.func`` listing its type
parameters (``fn [A, B](...)``) as ``!relay.type_var`` types."""


ARG_ATTRS = "arg_attrs"
"""The attribute of a ``relay.fn`` or ``relay.function`` holding its
parameters' attributes (``%x {virtual_device=...}: T``), one dictionary per
parameter, as ``func.func`` holds them in its ``arg_attrs``."""


def compatible(declared: Attribute, actual: Attribute) -> bool:
    """Whether a value of type `actual` may stand where `declared` is expected.

    Equal types are; a type not yet inferred (``!relay.incomplete``) or a type
    parameter matches anything, also inside tuples, function types, ADTs and
    references.
    """
    if declared == actual:
        return True
    if isinstance(declared, IncompleteType | TypeVarType) or isinstance(
        actual, IncompleteType | TypeVarType
    ):
        return True
    if isinstance(declared, TupleType) and isinstance(actual, TupleType):
        fields = declared.types.data, actual.types.data
        return len(fields[0]) == len(fields[1]) and all(map(compatible, *fields))
    if isinstance(declared, FunctionType) and isinstance(actual, FunctionType):
        return (
            len(declared.inputs) == len(actual.inputs)
            and len(declared.outputs) == len(actual.outputs)
            and all(map(compatible, declared.inputs.data, actual.inputs.data))
            and all(map(compatible, declared.outputs.data, actual.outputs.data))
        )
    if isinstance(declared, AdtType) and isinstance(actual, AdtType):
        return (
            declared.type_name == actual.type_name
            and len(declared.args) == len(actual.args)
            and all(map(compatible, declared.args.data, actual.args.data))
        )
    if isinstance(declared, RefType) and isinstance(actual, RefType):
        return compatible(declared.value_type, actual.value_type)
    return False


def print_result_type(printer: Printer, type_: Attribute) -> None:
    """The type after ``->``; a function type in parentheses, as MLIR spells a
    function returning a function."""
    if isinstance(type_, FunctionType):
        printer.print_string("(")
        printer.print_attribute(type_)
        printer.print_string(")")
    else:
        printer.print_attribute(type_)


def parse_result_type(parser: Parser) -> Attribute:
    """The type `print_result_type` prints."""
    if parser.parse_optional_punctuation("(") is not None:
        type_ = parser.parse_type()
        parser.parse_punctuation(")")
        return type_
    return parser.parse_type()


@irdl_op_definition
class FunctionOp(IRDLOperation):
    """A function value: Relay's ``fn (%x: T, ...) -> R { body }`` used as a value.

    The result has builtin function type ``(T, ...) -> R``. The block's
    arguments are the parameters, preceded, for a recursive function, by the
    function itself (an argument of the result type). ``relay.return`` ends
    the body with a value of type ``R`` (any value when ``R`` is
    ``!relay.incomplete``). The attributes are the function's Relay
    attributes, except ``type_params``: the type parameters
    (``fn [A](...)``).

    Syntax::

        %f = relay.function(%x : tensor<f32>) -> tensor<f32> {
          relay.return %x : tensor<f32>
        }
        %g = relay.function self(%g) (%n : tensor<i32>) -> tensor<i32> {
          %r = relay.call %g(%n) : ((tensor<i32>) -> tensor<i32>, tensor<i32>) -> tensor<i32>
          relay.return %r : tensor<i32>
        }
    """

    name = "relay.function"
    result = result_def(FunctionType)
    body = region_def("single_block")

    def __init__(
        self,
        function_type: FunctionType,
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            result_types=[function_type], regions=[body], attributes=dict(attributes or {})
        )

    @property
    def function_type(self) -> FunctionType:
        assert isinstance(self.result.type, FunctionType)
        return self.result.type

    @property
    def recursive(self) -> bool:
        """Whether the first block argument is the function itself."""
        return len(self.body.block.args) == len(self.function_type.inputs) + 1

    @property
    def self_value(self) -> BlockArgument | None:
        """The block argument standing for the function itself, if recursive."""
        return self.body.block.args[0] if self.recursive else None

    @property
    def params(self) -> tuple[BlockArgument, ...]:
        args = self.body.block.args
        return args[1:] if self.recursive else args

    def relay_attributes(self) -> dict[str, Attribute]:
        """The function's Relay attributes (all but ``type_params`` and ``arg_attrs``)."""
        return {k: v for k, v in self.attributes.items() if k not in (TYPE_PARAMS, ARG_ATTRS)}

    def verify_(self) -> None:
        type_ = self.function_type
        if len(type_.outputs) != 1:
            raise VerifyException("a 'relay.function' returns exactly one value")
        args = self.body.block.args
        inputs = type_.inputs.data
        if len(args) not in (len(inputs), len(inputs) + 1):
            raise VerifyException(
                f"'relay.function' of type {type_} takes {len(inputs)} parameter(s), "
                f"but its body has {len(args)} argument(s)"
            )
        if self.recursive and args[0].type != type_:
            raise VerifyException(
                f"the self argument of a recursive 'relay.function' has type "
                f"{args[0].type}, expected {type_}"
            )
        for index, (param, input_type) in enumerate(zip(self.params, inputs)):
            if param.type != input_type:
                raise VerifyException(
                    f"parameter #{index} has type {param.type} but the function type "
                    f"says {input_type}"
                )
        terminator = self.body.block.last_op
        if not isinstance(terminator, ReturnOp):
            raise VerifyException("'relay.function' body must end with 'relay.return'")
        if not compatible(type_.outputs.data[0], terminator.value.type):
            raise VerifyException(
                f"returned type {terminator.value.type} does not match the declared "
                f"result type {type_.outputs.data[0]}"
            )
        type_params = self.attributes.get(TYPE_PARAMS)
        if type_params is not None and not (
            isinstance(type_params, ArrayAttr)
            and all(isinstance(t, TypeVarType) for t in type_params.data)
        ):
            raise VerifyException(f"'{TYPE_PARAMS}' must be an array of !relay.type_var")

    def print(self, printer: Printer) -> None:
        self_value = self.self_value
        if self_value is not None:
            printer.print_string(" self(")
            printer.print_ssa_value(self_value)
            printer.print_string(")")
        printer.print_string(" (")
        printer.print_list(self.params, printer.print_block_argument)
        printer.print_string(") -> ")
        print_result_type(printer, self.function_type.outputs.data[0])
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> FunctionOp:
        self_arg = None
        if parser.parse_optional_keyword("self") is not None:
            parser.parse_punctuation("(")
            self_arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation(")")

        def parse_param() -> Parser.Argument:
            param = parser.parse_argument(expect_type=True)
            # print_block_argument writes the location of a parameter that has one.
            location = parser.parse_optional_location()
            if location is not None:
                param = Parser.Argument(param.name, param.type, location)
            return param

        params = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_param)
        parser.parse_punctuation("->")
        output = parse_result_type(parser)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        inputs = [p.type for p in params]
        function_type = FunctionType.from_lists(inputs, [output])
        args: list[Parser.Argument] = list(params)
        if self_arg is not None:
            args.insert(0, self_arg.resolve(function_type))
        body = parser.parse_region(args)
        return cls(function_type, body, attributes.data if attributes else None)


EXPRESSION = "relay.expression"
"""On ``func.func @main``: the function is a bare Relay expression as TVM's
``parse_expr`` reads it, without type inference, and some of its types are
left unchecked (a call whose operator's relation rejects its arguments, a
call of a value that is not a function, a global the module does not
define); the printer writes it back as a bare expression and
``relay-infer-type`` reports what is wrong with it."""


def in_expression(op: Operation) -> bool:
    """Whether `op` is in a function marked ``relay.expression``."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    return parent is not None and EXPRESSION in parent.attributes


@irdl_op_definition
class CallOp(IRDLOperation):
    """Calls a function-typed value: Relay's ``%f(%x)`` where ``%f`` is not a literal.

    The callee has a function type whose parameters accept the arguments
    (see `compatible`) and whose result is the call's result; a callee whose
    type is not known (``!relay.incomplete``) takes any arguments. The
    call's Relay attributes, if any, are in ``relay.call_attrs`` (`CALL_ATTRS`).

    Syntax (the types of callee and arguments, then the result type)::

        %r = relay.call %f(%x) : ((tensor<f32>) -> tensor<f32>, tensor<f32>) -> tensor<f32>
    """

    name = "relay.call"
    callee = operand_def()
    args = var_operand_def()
    result = result_def()

    def __init__(
        self,
        callee: SSAValue | Operation,
        args: Sequence[SSAValue | Operation],
        result_type: Attribute | None = None,
    ):
        callee = SSAValue.get(callee)
        if result_type is None:
            type_ = callee.type
            result_type = (
                type_.outputs.data[0]
                if isinstance(type_, FunctionType) and len(type_.outputs) == 1
                else IncompleteType()
            )
        super().__init__(operands=[callee, args], result_types=[result_type])

    def verify_(self) -> None:
        verify_call_attrs(self)
        type_ = self.callee.type
        if isinstance(type_, IncompleteType):
            return
        if not isinstance(type_, FunctionType):
            if in_expression(self):
                return  # left unchecked, as TVM's parse_expr leaves it (EXPRESSION)
            raise VerifyException(f"'relay.call' calls a value of type {type_}, not a function")
        inputs = type_.inputs.data
        if len(inputs) != len(self.args):
            raise VerifyException(
                f"the callee takes {len(inputs)} argument(s) but the call passes {len(self.args)}"
            )
        for index, (arg, input_type) in enumerate(zip(self.args, inputs)):
            if not compatible(input_type, arg.type):
                raise VerifyException(
                    f"argument #{index} has type {arg.type} but the callee expects {input_type}"
                )
        if len(type_.outputs) != 1 or not compatible(type_.outputs.data[0], self.result.type):
            raise VerifyException(
                f"result type {self.result.type} does not match the callee's type {type_}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.callee)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(
            FunctionType.from_lists(
                [self.callee.type, *(a.type for a in self.args)], [self.result.type]
            )
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        pos = parser.pos
        callee = parser.parse_unresolved_operand()
        operands = parse_call_operands(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        signature = parser.parse_function_type()
        if len(signature.outputs) != 1 or len(signature.inputs) != len(operands) + 1:
            parser.raise_error(
                "expected the callee's and the arguments' types and one result type",
                pos,
                parser.pos,
            )
        values = parser.resolve_operands([callee, *operands], signature.inputs.data, pos)
        op = cls(values[0], values[1:], signature.outputs.data[0])
        op.attributes |= attributes
        return op


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A global function as a value: Relay's ``@f`` not called in place.

    Used where ``func.call`` cannot stand: a global passed, returned or bound
    as a value, and a call of a generic global (``def @id[A](%x: A) -> A``),
    whose argument types are instances of its parameter types; such a call is
    a ``relay.call`` of this value. The result type is the global's type, or
    ``!relay.incomplete`` for a global a bare expression names without the
    module defining it (TVM's ``parse_expr`` of ``@f``).

    Syntax::

        %g = relay.global @id : (!relay.type_var<"A">) -> !relay.type_var<"A">
    """

    name = "relay.global"
    callee = attr_def(FlatSymbolRefAttr)
    result = result_def(base(FunctionType) | base(IncompleteType))

    traits = traits_def(Pure())

    def __init__(self, callee: str, function_type: FunctionType | IncompleteType):
        super().__init__(
            result_types=[function_type], attributes={"callee": FlatSymbolRefAttr(callee)}
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_op_attributes({k: v for k, v in self.attributes.items() if k != "callee"})
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        callee = parser.parse_symbol_name()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        if not isinstance(type_, FunctionType | IncompleteType):
            parser.raise_error(f"expected a function type or !relay.incomplete, got {type_}")
        op = cls(callee.data, type_)
        op.attributes |= attributes
        return op


@irdl_op_definition
class OperatorRefOp(IRDLOperation):
    """A Relay operator as a value: Relay's ``nn.relu`` not called in place
    (bound with ``let``, returned, passed or stored in a tuple), as TVM's
    parser reads an operator name that no argument list follows.

    TVM types an operator value by its type relation, which no Relay type
    spells out (its printer writes ``fn [in0, out](in0) -> out``); here the
    result is ``!relay.incomplete`` unless something gives it a type, and a
    call of the value (``relay.call``) has the result type its annotation
    gives, or an incomplete one. The operator is named as in Relay text and
    need not have a registry row.

    Syntax::

        %f = relay.operator_ref "nn.relu" : !relay.incomplete
    """

    name = "relay.operator_ref"
    op_name = attr_def(StringAttr)
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, op_name: str, result_type: Attribute | None = None):
        super().__init__(
            result_types=[result_type if result_type is not None else IncompleteType()],
            attributes={"op_name": StringAttr(op_name)},
        )

    def verify_(self) -> None:
        if not self.op_name.data:
            raise VerifyException("'relay.operator_ref' needs a non-empty op_name")
        verify_relay_type("result", self.result.type)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.op_name)
        printer.print_op_attributes({k: v for k, v in self.attributes.items() if k != "op_name"})
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> OperatorRefOp:
        op_name = parser.parse_str_literal()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(op_name, parser.parse_type())
        op.attributes |= attributes
        return op
