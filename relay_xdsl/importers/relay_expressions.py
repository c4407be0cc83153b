"""Dataflow expressions: the fourth layer of the Relay text parser.

:class:`RelayExpressionParser` reads expressions into ops of the current
block: operator calls (``nn.conv2d(%x, %w, padding=[1, 1])`` and TVM's
infix operators), tuples and projections (``%t.0``), constants (literals and
``meta[relay.Constant][i]``), variables and globals. A call's type is the
``ty=`` annotation, checked against what the operator's type relation gives
for the arguments and attributes, or else that inferred type; what neither
gives is ``!relay.incomplete`` for the type solver.

The layers above define what this one leaves open: binding sequences
(`parse_sequence`, relay_lang.py), functions as callees and values
(`function_value`, `function_call`, relay_functions.py) and the expressions
that start with a keyword (`parse_keyword_expression`).
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    IntAttr,
    IntegerAttr,
    LocationAttr,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
    i32,
)
from xdsl.dialects.func import CallOp
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.adts import agrees, compatible
from relay_xdsl.dialects.relay.type_agreement import agreement_record, record_agreement
from relay_xdsl.dialects.relay.type_solver import rejection
from relay_xdsl.dialects.relay.types import IncompleteType, is_complete
from relay_xdsl.importers.relay_attributes import RelayAttributeParser
from relay_xdsl.importers.relay_base import describe
from relay_xdsl.importers.relay_ops import (
    CheckedCalls,
    constant_op,
    operator_op,
    tuple_get_item_op,
)
from relay_xdsl.importers.relay_scope import (
    Binding,
    CaptureError,
    ExpressionValue,
    FnLiteral,
    GlobalRef,
    LetFunction,
    OperatorRef,
    Scope,
)
from relay_xdsl.importers.unknown_operators import untyped_operator_message
from relay_xdsl.relay_text.lexer import Kind, Token, int_literal, meta_reference
from relay_xdsl.relay_text.source import SourceFile
from relay_xdsl.relay_text.types import RelayExportError, relay_type
from relay_xdsl.support.depth import MAX_NESTING
from relay_xdsl.support.xdsl_internals import append_new_op

_BINARY_OPERATORS = {
    "==": ("equal", 0),
    "!=": ("not_equal", 0),
    "<": ("less", 1),
    ">": ("greater", 1),
    "<=": ("less_equal", 1),
    ">=": ("greater_equal", 1),
    "+": ("add", 2),
    "-": ("subtract", 2),
    "*": ("multiply", 3),
    "/": ("divide", 3),
}
"""Infix operators of the text format: Relay operator and precedence."""


class RelayExpressionParser(RelayAttributeParser, ABC):
    """Operator calls, tuples, projections, constants and variables."""

    def __init__(self, source: SourceFile, tokens: list[Token]):
        super().__init__(source, tokens)
        self.block: Block = Block()
        # The #[metadata] section's constants, when the text has one.
        self.constants: list[DenseIntOrFPElementsAttr] | None = None
        self.scalar_values: dict[str, DenseIntOrFPElementsAttr] = {}
        self.checked_calls = CheckedCalls()
        # Where each op came from, for the type solver's errors.
        self.op_tokens: dict[Operation, Token] = {}
        # The identifiers found to start no keyword expression (the keywords
        # and constructors are known before any expression is read): each an
        # operator name wherever it stands, looked up once.
        self.operator_names: set[str] = set()
        self.incomplete = False  # whether some type is left for the solver
        # A bare expression, which TVM's parse_expr reads without type
        # inference: contradictions are kept unchecked (`defer`).
        self.expression = False
        self.deferred = False  # whether some check was left to relay-infer-type

    # -- what the layers above define ---------------------------------------

    @abstractmethod
    def parse_sequence(self, scope: Scope, nested: bool = True) -> ExpressionValue:
        """TVM's ``ParseExpr``: bindings, ``e1; e2`` sequencing, an expression."""

    @abstractmethod
    def function_value(self, value: FnLiteral | LetFunction | GlobalRef, token: Token) -> SSAValue:
        """A function literal or global used as a value."""

    @abstractmethod
    def function_call(
        self,
        callee: SSAValue | FnLiteral | LetFunction | GlobalRef,
        args: list[SSAValue],
        open_token: Token,
        close: Token,
    ) -> SSAValue:
        """A call of anything but an operator."""

    def parse_keyword_expression(self, token: Token, scope: Scope) -> ExpressionValue | None:
        """The expression that starts with the identifier `token` (``fn``,
        ``if``, ``match``, a constructor...), or None when `token` starts
        none: then it is an operator name. Each layer adds its own."""
        return None

    # -- building ops -------------------------------------------------------

    def known(self, type_: Attribute | None) -> Attribute:
        """`type_`, or ``!relay.incomplete`` for None; notes what the solver must type."""
        if type_ is None:
            self.incomplete = True
            return IncompleteType()
        if not is_complete(type_):
            self.incomplete = True
        return type_

    def insert(self, op: Operation, location: LocationAttr | None = None) -> None:
        if location is not None:
            op.location = location
        if op.regions or op.parent is not None:
            self.block.add_op(op)  # with its checks
        else:  # most ops: one just made, that cannot hold the block
            append_new_op(self.block, op)

    def type_text(self, type_: Attribute) -> str:
        """`type_` in Relay syntax, for messages."""
        try:
            return relay_type(type_)
        except RelayExportError:
            return str(type_)

    def annotate(self, op: Operation, token: Token, check: bool = True) -> None:
        """Insert `op`, checking a following ``ty=`` comment against its type
        (or, where its type is incomplete, taking it)."""
        self.annotate_with(op, token, self.annotation(), check)

    def annotate_with(
        self,
        op: Operation,
        token: Token,
        annotation: tuple[Attribute | None, LocationAttr | None],
        check: bool = True,
    ) -> None:
        """`annotate` with the comment's type and location already read."""
        type_, location = annotation
        self.op_tokens[op] = token
        result = op.results[0]
        if check and type_ is not None and type_ is not result.type and type_ != result.type:
            if clash(result.type, type_):
                self.error(
                    token,
                    f"expression has type {self.type_text(result.type)} but is annotated as {self.type_text(type_)}",
                )
            if not is_complete(result.type):
                Rewriter.replace_value_with_new_type(result, type_)
        self.insert(op, location)

    def defer(self, token: Token) -> FileLineColLoc:
        """Leave a contradiction at `token` of a bare expression unchecked, as
        TVM's ``parse_expr`` does (it runs no type inference): the function is
        marked ``relay.expression`` and the op gets this location, where
        ``relay-infer-type`` reports it."""
        self.deferred = True
        line, column = self.source.line_col(token.start)
        return FileLineColLoc(StringAttr(self.source.name), IntAttr(line), IntAttr(column))

    # -- bodies -------------------------------------------------------------

    def parse_body_into(
        self, block: Block, scope: Scope, return_type: Attribute | None
    ) -> SSAValue:
        """Parse bindings and a result expression into `block`; add the return."""
        saved = self.block
        self.block = block
        result = self.parse_body(scope)
        if return_type is not None:
            refined = self.returned(result, self.known(return_type))
            if refined is None:
                refined = _generalised(result, return_type)
            if refined is None:
                self.error(
                    self.peek(),
                    f"function body has type {self.type_text(result.type)} but the declared return type is {self.type_text(return_type)}",
                )
            result = refined
        self.block = saved
        return result

    def parse_body(self, scope: Scope) -> SSAValue:
        """A function body or branch: bindings and a result expression."""
        token = self.peek()
        return self.value_of(self.parse_sequence(scope, nested=False), token)

    def returned(self, value: SSAValue, declared: Attribute) -> SSAValue | None:
        """`value` as a body's result of the `declared` return type (see `refine`);
        None when it has another type."""
        refined = self.refine(value, declared)
        return refined if refined is not None and agrees(refined.type, declared) else None

    def refine(self, value: SSAValue, type_: Attribute) -> SSAValue | None:
        """`value`, given the better known `type_` where its op allows it;
        None when `value` does not fit `type_`. Here no op allows it:
        relay_adts.py retypes constructor applications and matches."""
        if value.type == type_ or compatible(value.type, type_):
            return value
        return None

    def parse_binding_value(self, scope: Scope) -> Binding:
        tokens = self.tokens
        token = tokens[self.pos]
        if (
            token.kind is Kind.IDENT
            and token.text in self.operator_names
            and (opening := tokens[self.pos + 1]).text == "("
            and opening.kind is Kind.PUNCT
        ):
            # Most bindings call an operator of an undotted name: read as
            # `parse_expr` reads it, from its call on.
            self.nest(token, "expression", MAX_NESTING + 1)
            try:
                self.pos += 1
                call = self.parse_call(OperatorRef(token.text, token), scope)
                value = self.parse_postfix_operators(call, scope)
            finally:
                self.depth -= 1
            value = self.parse_infix(value, scope, 0)
        else:
            value = self.parse_expr(scope)
        if isinstance(value, GlobalRef):
            return self.value_of(value, value.token)
        return value

    # -- expressions --------------------------------------------------------

    def parse_expr(self, scope: Scope, min_precedence: int = 0) -> ExpressionValue:
        """An expression, with TVM's infix operators (``a + b * c``)."""
        return self.parse_infix(self.parse_postfix(scope), scope, min_precedence)

    def parse_infix(
        self, value: ExpressionValue, scope: Scope, min_precedence: int
    ) -> ExpressionValue:
        """The expression `value` (just read) starts, with the infix
        operators of at least `min_precedence` that follow it."""
        while True:
            operator = self.peek_binary_operator()
            if operator is None or _BINARY_OPERATORS[operator][1] < min_precedence:
                return value
            token = self.peek()
            for _ in operator:
                self.next()
            name, precedence = _BINARY_OPERATORS[operator]
            rhs = self.parse_expr(scope, precedence + 1)
            args = [self.value_of(value, token), self.value_of(rhs, token)]
            value = self.operator_call(OperatorRef(name, token), args, {}, token)

    def peek_binary_operator(self) -> str | None:
        first = self.peek()
        if first.kind is not Kind.PUNCT or first.text not in "+-*/<>=!":
            return None
        second = self.peek(1)
        pair = (
            first.text + second.text
            if second.kind is Kind.PUNCT and second.start == first.end
            else ""
        )
        if pair in _BINARY_OPERATORS:
            return pair
        return first.text if first.text in _BINARY_OPERATORS else None

    def parse_postfix(self, scope: Scope) -> ExpressionValue:
        # The innermost operand is entered too: MAX_NESTING calls take one more.
        self.nest(self.peek(), "expression", MAX_NESTING + 1)
        try:
            return self.parse_postfix_operators(self.parse_primary(scope), scope)
        finally:
            self.depth -= 1

    def parse_postfix_operators(self, value: ExpressionValue, scope: Scope) -> ExpressionValue:
        """`value` (just read), called (``(...)``) or projected (``.N``) by
        what follows it."""
        while True:
            token = self.peek()
            if token.kind is not Kind.PUNCT:
                return value
            if token.text == "(":
                value = self.parse_call(value, scope)
            elif token.text == ".":
                dot = self.next()
                token = self.expect_kind(Kind.INT, "a tuple index after '.'")
                if not isinstance(value, SSAValue) or not isinstance(
                    value.type, TupleType | IncompleteType
                ):
                    self.error(
                        dot,
                        "'.N' projects a field out of a tuple, but the value is not a tuple",
                    )
                index, _ = int_literal(token)
                fields = value.type.types.data if isinstance(value.type, TupleType) else ()
                if isinstance(value.type, TupleType) and not 0 <= index < len(fields):
                    self.error(
                        token,
                        f"tuple index {index} is out of range for a tuple of {len(fields)} fields",
                    )
                op = tuple_get_item_op(value, index)
                self.annotate(op, token)
                value = op.result
            else:
                return value

    def parse_primary(self, scope: Scope) -> ExpressionValue:
        token = self.peek()
        kind = token.kind
        if kind in (Kind.LOCAL, Kind.GRAPH):
            self.next()
            return self.variable(token, scope)
        if kind is Kind.GLOBAL:
            self.next()
            return GlobalRef(token.text[1:], token)
        if kind in _CONSTANTS:
            self.next()
            return self.constant(token)
        if kind is Kind.PUNCT and token.text == "(":
            return self.parse_tuple(scope)
        if kind is Kind.PUNCT and token.text == "-":
            self.next()
            operand = self.value_of(self.parse_postfix(scope), token)
            return self.operator_call(OperatorRef("negative", token), [operand], {}, token)
        if kind is Kind.IDENT:
            if token.text not in self.operator_names:
                value = self.parse_keyword_expression(token, scope)
                if value is not None:
                    return value
                if token.text in ("let", "def", "free_var"):
                    self.error(token, f"'{token.text}' is not allowed here")
                self.operator_names.add(token.text)
            return self.parse_operator_name()
        self.error(token, f"expected an expression, found {describe(token)}")

    def parse_operator_name(self) -> OperatorRef:
        first = self.next()
        parts = [first.text]
        while self.at(".") and self.peek(1).kind is Kind.IDENT:
            self.next()
            parts.append(self.next().text)
        return OperatorRef(".".join(parts), first)

    def parse_tuple(self, scope: Scope) -> ExpressionValue:
        open_token = self.expect("(")
        fields: list[ExpressionValue] = []
        trailing_comma = False
        while not self.at(")"):
            fields.append(self.parse_item(scope))
            trailing_comma = bool(self.accept(","))
            if not trailing_comma and not self.at(")"):
                self.error(
                    self.peek(),
                    f"expected ',' or ')' in a tuple, found {describe(self.peek())}",
                )
        self.expect(")")
        if len(fields) == 1 and not trailing_comma:
            return fields[0]
        op = relay.TupleOp([self.value_of(f, open_token) for f in fields])
        self.annotate(op, open_token)
        return op.result

    def parse_item(self, scope: Scope) -> ExpressionValue:
        """A call argument or tuple field: `parse_sequence`, straight to the
        variable's binding or the constant where it is one alone (``%3`` or
        ``meta[relay.Constant][0] /* ty=... */`` before ``,`` or ``)``), as
        most are."""
        # The token list read directly, as `peek` reads it: this runs once an argument.
        tokens = self.tokens
        token = tokens[self.pos]
        kind = token.kind
        if kind in _ATOMS:
            index = self.pos + 1
            after = tokens[index]
            while after.kind is Kind.COMMENT:
                index += 1
                after = tokens[index]
            if after.kind is Kind.PUNCT and (after.text == "," or after.text == ")"):
                if self.depth > MAX_NESTING:
                    # A level too many, as `parse_postfix` would enter one for it.
                    self.nest(token, "expression", MAX_NESTING + 1)
                self.pos += 1
                if kind is Kind.GRAPH or kind is Kind.LOCAL:
                    return self.variable(token, scope)
                return self.constant(token)
        return self.parse_sequence(scope)

    def variable(self, token: Token, scope: Scope) -> ExpressionValue:
        """What the variable `token` (just read) is bound to in `scope`."""
        binding, crossed = scope.lookup(token.text)
        if binding is None:
            self.error(token, f"unknown variable {token.text}")
        if crossed and isinstance(binding, SSAValue | LetFunction):
            # A relay.fn body is isolated: the literal is a closure (relay_functions.py).
            raise CaptureError
        return binding

    def value_of(self, value: ExpressionValue, token: Token) -> SSAValue:
        """`value` as an SSA value: an operator used as a value is a
        ``relay.operator_ref``, a function see `function_value`."""
        # An op's result mostly: tested by class first, as SSAValue is an ABC (slow to test).
        if value.__class__ is OpResult or isinstance(value, SSAValue):
            return value
        if isinstance(value, OperatorRef):
            ref = relay.OperatorRefOp(value.name)
            self.op_tokens[ref] = value.token
            self.insert(ref)
            return ref.result
        return self.function_value(value, token)

    # -- constants ----------------------------------------------------------

    def constant(self, token: Token) -> SSAValue:
        """The constant that the literal or ``meta[...]`` `token` (just read)
        stands for, with the annotation that follows it."""
        if token.kind is Kind.META:
            return self.meta_constant(token)
        op = self.scalar_constant(token)
        self.annotate(op, token)
        return op.result

    def scalar_constant(self, token: Token) -> relay.ConstantOp:
        # A literal's spelling determines its value and type: build each once.
        value = self.scalar_values.get(token.text)
        if value is None:
            value = self.scalar_values[token.text] = self.scalar_value(token)
        return constant_op(value.type, value)

    def meta_constant(self, token: Token) -> SSAValue:
        key, index = meta_reference(token)
        if key != "relay.Constant":
            self.error(
                token,
                f"unsupported meta reference meta[{key}][{index}]: only relay.Constant is supported",
            )
        annotated, location = self.annotation()
        return self.meta_constant_op(token, index, annotated, location)

    def meta_constant_op(
        self,
        token: Token,
        index: int,
        annotated: Attribute | None,
        location: LocationAttr | None,
    ) -> SSAValue:
        """``meta[relay.Constant][index]`` at `token`, of its comment's type and location."""
        if self.constants is not None:
            if index >= len(self.constants):
                self.error(
                    token,
                    f"meta[relay.Constant][{index}] is out of range: the metadata section has {len(self.constants)} constant(s)",
                )
            value = self.constants[index]
            if annotated is not None and annotated != value.type:
                self.error(
                    token,
                    f"meta[relay.Constant][{index}] is annotated as {self.type_text(annotated)} but its metadata is {self.type_text(value.type)}",
                )
            op = constant_op(value.type, value=value)
        else:
            # Without metadata, the constant is typed by its uses (type_solver.py).
            op = constant_op(self.known(annotated), meta_index=index)
        self.op_tokens[op] = token
        self.insert(op, location)
        (result,) = op.results  # unpacked: `op.result` is a Python descriptor
        return result

    # -- calls --------------------------------------------------------------

    def parse_call(self, callee: ExpressionValue, scope: Scope) -> SSAValue:
        """The call of `callee` whose ``(`` is the next token."""
        open_token = self.next()
        args: list[SSAValue] = []
        attributes: dict[str, Attribute] = {}
        attribute_tokens: dict[str, Token] = {}
        while True:
            token = self.peek()
            if token.kind is Kind.PUNCT and token.text == ")":
                break
            if (
                token.kind is Kind.IDENT
                and (after := self.peek(1)).text == "="
                and after.kind is Kind.PUNCT
            ):
                self.parse_attribute(token, attributes, attribute_tokens)
            else:
                if attributes:
                    self.error(token, "positional arguments must come before attributes")
                args.append(self.value_of(self.parse_item(scope), token))
            if not self.accept(","):
                break
        close = self.expect(")", "to close the argument list")
        if isinstance(callee, OperatorRef):
            return self.operator_call(callee, args, attributes, close, attribute_tokens)
        result = self.function_call(callee, args, open_token, close)
        if attributes:
            self.set_call_attrs(result, attributes, open_token)
        return result

    def parse_attribute(
        self, token: Token, attributes: dict[str, Attribute], attribute_tokens: dict[str, Token]
    ) -> None:
        """The call attribute whose name is `token`, the next token, before its ``=``."""
        self.pos += 1  # past the name; `next` skips any comment before '='
        self.next()
        if token.text in attributes:
            self.error(token, f"duplicate attribute '{token.text}'")
        attribute_tokens[token.text] = token
        attributes[token.text] = self.parse_attr_value()

    def set_call_attrs(
        self, result: SSAValue, attributes: dict[str, Attribute], token: Token
    ) -> None:
        """Record the attributes of the call of anything but an operator that
        gave `result` (``relay.call_attrs``). TVM's parser takes them only with
        an ``attrs_type_key``, and none at all when that is empty."""
        key = attributes.get("attrs_type_key")
        if not isinstance(key, StringAttr):
            self.error(
                token,
                "unable to determine the 'attrs_type_key' with which to represent the call "
                "attributes: a call of anything but an operator takes attributes only with "
                'attrs_type_key="..."',
            )
        if not key.data:
            return
        owner = result.owner
        if not isinstance(owner, relay.FnOp | relay.CallOp | CallOp):
            self.error(token, "attributes on this kind of call are not supported")
        owner.attributes[relay.CALL_ATTRS] = DictionaryAttr(attributes)

    def operator_call(
        self,
        callee: OperatorRef,
        args: list[SSAValue],
        attributes: dict[str, Attribute],
        close: Token,
        attribute_tokens: dict[str, Token] | None = None,
    ) -> SSAValue:
        op_class = self.check_operator_arguments(callee, args, attributes, attribute_tokens)
        return self.annotated_operator_call(callee, op_class, args, attributes, self.annotation())

    def check_operator_arguments(
        self,
        callee: OperatorRef,
        args: list[SSAValue],
        attributes: dict[str, Attribute],
        attribute_tokens: dict[str, Token] | None = None,
    ) -> type[relay.RegisteredOperatorOp] | None:
        """The class of the operator `callee` names (None for one the dialect
        does not define), its `attributes` checked against its schema (a
        ``None`` value of an attribute without default is dropped) and the
        number of `args` against its arity."""
        op_class = relay.OPERATORS.get(callee.name)
        if op_class is not None:
            row = op_class.OPERATOR
            schema = row.schema
            for key in list(attributes):
                spec = schema.get(key)
                if spec is None:
                    close_names = difflib.get_close_matches(key, list(schema), n=1)
                    hint = f"; did you mean '{close_names[0]}'?" if close_names else ""
                    self.error(
                        (attribute_tokens or {}).get(key, callee.token),
                        f"'{callee.name}' has no attribute '{key}'{hint} (valid: {', '.join(schema) or 'none'})",
                    )
                if (
                    attributes[key].__class__ is UnitAttr
                ):  # `None`: parse_attr_value's only UnitAttr
                    if spec.default is None:
                        del attributes[key]
                    elif not spec.required:
                        self.error(
                            callee.token, f"attribute '{key}' of '{callee.name}' cannot be None"
                        )
            if row.arity is not None and len(args) != row.arity:
                self.error(
                    callee.token,
                    f"'{callee.name}' expects {row.arity} argument(s), got {len(args)}",
                )
        return op_class

    def annotated_operator_call(
        self,
        callee: OperatorRef,
        op_class: type[relay.RegisteredOperatorOp] | None,
        args: list[SSAValue],
        attributes: dict[str, Attribute],
        annotation: tuple[Attribute | None, LocationAttr | None],
    ) -> SSAValue:
        """The call, its arguments checked (`check_operator_arguments`), of
        the type and location its comment gives (`annotation`): the type is
        checked against the operator's relation, or inferred from it.
        `attributes` is not changed: the op has its own copy."""
        type_, location = annotation
        arg_types = [a.type for a in args]
        if callee.name == "split" and type_ is not None:
            attributes = _with_split_points(attributes, arg_types, type_, self.attribute_values)
        complete = all(map(is_complete, arg_types))
        inferred = None
        record: tuple[object, ...] = ()  # the agreement record of a call of type `inferred`
        checked = False  # whether the op's type is known to agree with its relation
        if op_class is not None and complete:
            operator = op_class.OPERATOR
            inferred, problem, record = self.checked_calls(operator, arg_types, attributes)
            checked = True
            if self.expression and (problem is not None or (inferred is None and type_ is None)):
                deferred_at = self.defer(callee.token)
                location = location or deferred_at
                checked = False
            elif inferred is None and type_ is None:
                self.error(callee.token, rejection(operator, arg_types, attributes))
            elif problem is not None:
                self.error(callee.token, problem)
        if (
            type_ is not None
            and inferred is not None
            and type_ is not inferred  # shared types: mostly the very same
            and type_ != inferred
            and _is_static(type_)
            and _is_static(inferred)
        ):
            self.error(
                callee.token,
                f"'{callee.name}' is annotated as {self.type_text(type_)} but its arguments and attributes give {self.type_text(inferred)}",
            )
        if type_ is None:
            type_ = inferred
            if type_ is None and op_class is None:
                self.error(callee.token, untyped_operator_message(callee.name))
            type_ = self.known(type_)
        if op_class is not None:
            op: Operation = operator_op(op_class, args, type_, attributes, location)
            location = None
            if checked:
                if type_ is not inferred:
                    record = agreement_record(type_, arg_types, attributes)
                record_agreement(op, record)
        else:
            op = relay.GenericOperatorOp(callee.name, args, type_, attributes)
        self.op_tokens[op] = callee.token
        self.insert(op, location)
        (result,) = op.results  # unpacked: indexing `SSAValues` is a Python method
        return result


# Tuples: membership tests identity first, and enum members hash slowly.
_CONSTANTS = (Kind.META, Kind.INT, Kind.FLOAT, Kind.BOOL)
"""The kinds of token that are a constant by themselves."""
_ATOMS = (Kind.GRAPH, Kind.LOCAL, *_CONSTANTS)
"""The kinds of token that are an expression by themselves."""


def clash(left: Attribute, right: Attribute) -> bool:
    """Two complete types that differ; incomplete ones are left to the solver."""
    return left != right and is_complete(left) and is_complete(right)


def _generalised(value: SSAValue, declared: Attribute) -> SSAValue | None:
    """`value` (an op's tensor result) retyped to the `declared` return type
    that has ``?`` where `value`'s type has sizes: TVM's type solver unifies
    a size with ``?`` to ``?``, so the function's body takes the declared
    type. None when `value` does not fit `declared` that way."""
    actual = value.type
    if not (
        isinstance(value, OpResult)
        and isinstance(actual, TensorType)
        and isinstance(declared, TensorType)
        and actual.element_type == declared.element_type
        and len(actual.shape) == len(declared.shape)
        and all(
            d == DYNAMIC_INDEX or d == a for a, d in zip(actual.get_shape(), declared.get_shape())
        )
    ):
        return None
    return Rewriter.replace_value_with_new_type(value, declared)


def _is_static(type_: Attribute) -> bool:
    if isinstance(type_, TensorType):
        return DYNAMIC_INDEX not in type_.get_shape()
    return isinstance(type_, TupleType) and all(_is_static(t) for t in type_.types.data)


def _with_split_points(
    attributes: dict[str, Attribute],
    arg_types: list[Attribute],
    annotated: Attribute,
    shared: dict[tuple[int, ...] | str, Attribute],
) -> dict[str, Attribute]:
    """`attributes`, or a copy of them, that give a ``split`` whose points are metadata references (TVM's ONNX
    frontend prints ``indices_or_sections=[meta[runtime.BoxInt][0], ...]``, and
    a text without its ``#[metadata]`` section lacks their values) the points
    its annotated result type implies: where each field but the last ends
    along ``axis``. Equal points are one attribute, kept in `shared` under
    their spelling as an int array literal, as the parser keeps its values.
    `attributes` itself is left as it is: the binding line builder passes
    one dict to every call of the same operator and attribute text."""
    points = attributes.get("indices_or_sections")
    if not isinstance(points, ArrayAttr) or not any(
        isinstance(p, relay.MetaRefAttr) for p in points.data
    ):
        return attributes
    data = arg_types[0] if arg_types else None
    if not isinstance(annotated, TupleType) or not isinstance(data, TensorType):
        return attributes
    fields = annotated.types.data
    axis_attr = attributes.get("axis")
    axis = axis_attr.value.data if isinstance(axis_attr, IntegerAttr) else 0
    rank = len(data.get_shape())
    if not -rank <= axis < rank or len(fields) != len(points.data) + 1:
        return attributes
    if not all(isinstance(f, TensorType) and len(f.get_shape()) == rank for f in fields):
        return attributes
    ends, end = [], 0
    for field_type in fields[:-1]:
        assert isinstance(field_type, TensorType)
        end += field_type.get_shape()[axis]
        ends.append(end)
    spelling = f"[{', '.join(map(str, ends))}]"
    value = shared.get(spelling)
    if value is None:
        value = shared[spelling] = DenseArrayBase.from_list(i32, ends)
    return {**attributes, "indices_or_sections": value}
