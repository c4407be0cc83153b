"""The parts of the Relay text importer beyond dataflow: functions as values,
``if``, references, and let-bound (possibly recursive) functions.

How these constructs become IR (the parser in relay_text.py calls in here):

* ``let %f = fn (...) {...};`` → a ``relay.function`` bound by a
  ``relay.let`` named ``%f``; every let binding is kept, used or not. When
  ``%f`` occurs in its own body the function is recursive: the body refers
  to itself through the function's self argument. A literal whose
  parameters are not all typed is built at its first use, with the first
  call's argument types (TVM infers one monomorphic type for it too), and
  placed where the ``let`` stands; a literal never used gets
  ``!relay.incomplete`` parameter types.
* ``%f(...)`` of a function-typed value → ``relay.call``. A function
  literal called in place stays a ``relay.fn`` per call site, unless its
  body uses values from outside it: such a closure becomes a
  ``relay.function`` called with ``relay.call``.
* a graph-bound literal (``%0 = fn ...``) used as a value (returned, passed,
  stored) → a ``relay.function`` where it is used.
* ``if (c) {...} else {...}`` → ``relay.if``; ``ref``, ``ref_read`` and
  ``ref_write`` → ``relay.ref``, ``relay.ref_read`` and ``relay.ref_write``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    FunctionType,
    IntAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.adts import instantiate
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.dialects.relay.types import IncompleteType, is_complete
from relay_xdsl.importers.relay_ops import let_op
from relay_xdsl.relay_text.lexer import Kind, Token
from relay_xdsl.relay_text.metadata import other_node_kinds

if TYPE_CHECKING:
    from relay_xdsl.importers.relay_text import _Binding, _Callee, _Param, _RelayParser, _Scope


class CaptureError(Exception):
    """A ``relay.fn`` body (isolated) refers to a value from outside it."""


@dataclass(eq=False)
class LetFunction:
    """A function literal bound by ``let``: its ``relay.function`` is built
    where the ``let`` stands, now or (untyped parameters) at its first use."""

    start: int  # token index of `fn`
    scope: _Scope
    name: Token
    anchor_block: Block
    anchor_op: Operation | None
    declared: Attribute | None
    value: SSAValue | None = None


def literal_end(parser: _RelayParser, start: int) -> int:
    """The token index just past the body of the literal starting at `start`.

    The body is the first ``{`` outside the parameter list, which may hold
    braces of its own (``%x {virtual_device=...}``)."""
    index = start
    tokens = parser.tokens
    parens = 0
    while not (tokens[index].kind is Kind.PUNCT and tokens[index].text == "{" and not parens):
        token = tokens[index]
        if token.kind is Kind.EOF:
            parser.error(tokens[start], "unterminated function literal")
        if token.kind is Kind.PUNCT and token.text in "()":
            parens += 1 if token.text == "(" else -1
        index += 1
    close = parser.closing_brace.get(index)
    if close is None:
        parser.error(tokens[start], "unterminated function body: no matching '}'")
    return close + 1


def binds_function(parser: _RelayParser) -> bool:
    """Whether a let's value ahead is a function literal alone (not one called in place)."""
    if not parser.at("fn"):
        return False
    index = literal_end(parser, parser.pos)
    while parser.tokens[index].kind is Kind.COMMENT:
        index += 1
    return parser.tokens[index].text == ";"


def parse_let_function(
    parser: _RelayParser, scope: _Scope, name: Token, declared: Attribute | None
) -> LetFunction:
    """``let %f = fn ...``: bind `name`; build the function now if its parameters are typed."""
    start = parser.pos
    block = parser.block
    binding = LetFunction(start, scope, name, block, block.last_op, declared)
    scope.names[name.text] = binding
    parser.pos = literal_end(parser, start)
    parser.annotation()
    if _all_typed(parser, start):
        materialize(parser, binding, None)
    return binding


def _all_typed(parser: _RelayParser, start: int) -> bool:
    saved = parser.pos
    parser.pos = start + 1
    parse_type_params(parser)
    params, _ = parser.parse_params_and_attrs()
    parser.type_vars.pop()
    parser.pos = saved
    return all(p.type is not None for p in params)


def let_function_value(
    parser: _RelayParser, binding: LetFunction, arg_types: Sequence[Attribute] | None
) -> SSAValue:
    """The value of a let-bound function, built on first use."""
    if binding.value is None:
        materialize(parser, binding, arg_types)
    assert binding.value is not None
    return binding.value


def materialize(
    parser: _RelayParser, binding: LetFunction, arg_types: Sequence[Attribute] | None
) -> None:
    """Build the ``relay.function`` and ``relay.let`` of `binding` at its ``let``."""
    self_name = binding.name.text if _refers_to(parser, binding.start, binding.name.text) else None
    saved_block = parser.block
    holder = Block()
    parser.block = holder
    function = build_function(parser, binding.start, binding.scope, arg_types, self_name)
    parser.block = saved_block
    let = relay.LetOp(function)
    set_relay_name(let.result, binding.name.text[1:])
    if binding.declared is not None and not relay.compatible(binding.declared, function.type):
        parser.error(
            binding.name,
            f"{binding.name.text} is declared as {parser.type_text(binding.declared)} but bound "
            f"to a {parser.type_text(function.type)}",
        )
    ops = [*holder.ops]
    for op in ops:
        op.detach()
    ops.append(let)
    if binding.anchor_op is not None:
        binding.anchor_block.insert_ops_after(ops, binding.anchor_op)
    elif binding.anchor_block.first_op is not None:
        binding.anchor_block.insert_ops_before(ops, binding.anchor_block.first_op)
    else:
        binding.anchor_block.add_ops(ops)
    binding.value = let.result


def _refers_to(parser: _RelayParser, start: int, name: str) -> bool:
    tokens = parser.tokens
    return any(
        tokens[i].kind is Kind.LOCAL and tokens[i].text == name
        for i in range(start, literal_end(parser, start))
    )


def parse_type_params(parser: _RelayParser) -> list[relay.TypeVarType]:
    """``[A, B]`` before a parameter list; pushes a type-variable scope."""
    names: list[str] = []
    if parser.accept("["):
        while not parser.at("]"):
            names.append(parser.expect_kind(Kind.IDENT, "a type parameter").text)
            if not parser.accept(","):
                break
        parser.expect("]", "to close the type parameters")
    parser.type_vars.append(frozenset(names))
    return [relay.TypeVarType(n) for n in names]


def build_function(
    parser: _RelayParser,
    start: int,
    scope: _Scope,
    arg_types: Sequence[Attribute] | None,
    self_name: str | None,
) -> SSAValue:
    """Parse the literal at token `start` into a ``relay.function`` in the current block.

    Untyped parameters take `arg_types` (a call's argument types), else
    ``!relay.incomplete``. With `self_name`, the body refers to the function
    itself under that name.
    """
    saved_pos, saved_block = parser.pos, parser.block
    parser.pos = start + 1
    fn_token = parser.tokens[start]
    type_params = parse_type_params(parser)
    params, attributes = parser.parse_params_and_attrs()
    if arg_types is not None and len(arg_types) != len(params):
        parser.error(
            fn_token,
            f"function literal takes {len(params)} argument(s), called with {len(arg_types)}",
        )
    types: list[Attribute] = []
    for index, param in enumerate(params):
        if param.type is not None:
            types.append(param.type)
        elif arg_types is not None:
            types.append(arg_types[index])
        else:
            types.append(relay.IncompleteType())
    declared = parser.parse_type() if parser.accept("->") else None
    output = declared if declared is not None else relay.IncompleteType()
    function_type = FunctionType.from_lists(types, [output])
    block = Block(arg_types=([function_type] if self_name else []) + types)
    inner = scope.child()
    args = block.args
    if self_name is not None:
        set_relay_name(args[0], self_name[1:])
        inner.names[self_name] = args[0]
        args = args[1:]
    for param, arg in zip(params, args):
        set_relay_name(arg, param.name)
        if param.location is not None:
            arg.location = param.location
        inner.names[param.token.text] = arg
    parser.expect("{", "to open the function body")
    parser.one_region_depth += 1
    try:
        result = parser.parse_body_into(block, inner, declared)
    finally:
        parser.one_region_depth -= 1
    parser.expect("}", "to close the function body")
    block.add_op(relay.ReturnOp(result))
    parser.type_vars.pop()
    if declared is None and self_name is None:
        function_type = FunctionType.from_lists(types, [result.type])
    if type_params:
        attributes[relay.TYPE_PARAMS] = ArrayAttr(type_params)
    if any(p.attributes for p in params):
        attributes[relay.ARG_ATTRS] = param_attributes(params)
    op = relay.FunctionOp(function_type, Region(block), attributes)
    parser.pos, parser.block = saved_pos, saved_block
    parser.insert(op)
    return op.result


def is_generic(func: FuncOp) -> bool:
    """Whether `func` has type parameters (``def @f[A](...)``)."""
    return relay.TYPE_PARAMS in func.attributes


def calls_as_value(parser: _RelayParser, func: FuncOp, args: Sequence[SSAValue]) -> bool:
    """Whether ``@f(args)`` is a ``relay.call`` of ``@f``'s ``relay.global``
    rather than a ``func.call``: for a generic global; inside a match clause or
    function value (see ``one_region_depth``); or when the arguments' types
    only fit the declared ones, which ``func.call`` needs equal (an unknown
    type, ``_``, is the type solver's to unify)."""
    inputs = func.function_type.inputs.data
    return (
        is_generic(func)
        or parser.one_region_depth > 0
        or any(
            arg.type != type_
            and not isinstance(type_, IncompleteType)
            and not isinstance(arg.type, IncompleteType)
            for arg, type_ in zip(args, inputs)
        )
    )


def call_generic_global(
    parser: _RelayParser, func: FuncOp, args: list[SSAValue], token: Token
) -> SSAValue:
    """``@f(args)`` as `calls_as_value` says: ``relay.call`` of its
    ``relay.global``, whose result type is the declared one with the type
    parameters the arguments bind."""
    signature = func.function_type
    callee = relay.GlobalOp(func.sym_name.data, signature)
    parser.insert(callee)
    in_scope = frozenset().union(*parser.type_vars)
    (output,) = instantiate(signature, [a.type for a in args], in_scope)
    op = relay.CallOp(callee, args, output)
    parser.annotate(op, token, check=False)
    return op.result


def call_value(
    parser: _RelayParser, callee: SSAValue, args: list[SSAValue], token: Token
) -> SSAValue:
    """``%f(args)`` of a function-typed value: ``relay.call``."""
    type_ = callee.type
    if not isinstance(type_, FunctionType | relay.IncompleteType):
        if parser.expression:
            op = relay.CallOp(callee, args, relay.IncompleteType())
            op.location = defer(parser, token)
            parser.annotate(op, token, check=False)
            return op.result
        parser.error(token, f"a value of type {parser.type_text(type_)} is not a function")
    if isinstance(type_, FunctionType):
        inputs = type_.inputs.data
        if len(inputs) != len(args):
            parser.error(
                token, f"the function takes {len(inputs)} argument(s), called with {len(args)}"
            )
        for index, (arg, input_type) in enumerate(zip(args, inputs)):
            if not relay.compatible(input_type, arg.type):
                parser.error(
                    token,
                    f"argument #{index} has type {parser.type_text(arg.type)} but the function "
                    f"takes {parser.type_text(input_type)}",
                )
    op = relay.CallOp(callee, args)
    parser.annotate(op, token, check=False)
    return op.result


def defer(parser: _RelayParser, token: Token) -> FileLineColLoc:
    """Leave a contradiction at `token` of a bare expression unchecked, as
    TVM's ``parse_expr`` does (it runs no type inference): the function is
    marked ``relay.expression`` and the op gets this location, where
    ``relay-infer-type`` reports it."""
    parser.deferred = True
    line, column = parser.source.line_col(token.start)
    return FileLineColLoc(StringAttr(parser.source.name), IntAttr(line), IntAttr(column))


def undefined_in_expression(parser: _RelayParser, name: str) -> bool:
    """Whether global `name`, which the text does not define, is named in a
    bare expression (TVM's ``parse_expr`` makes it a global of no type)."""
    return parser.expression and name not in parser.def_starts and name not in parser.functions


def undefined_global(parser: _RelayParser, name: str, token: Token) -> SSAValue:
    """``relay.global @name`` of unknown type, for a global the text names but
    does not define (`undefined_in_expression`)."""
    op = relay.GlobalOp(name, relay.IncompleteType())
    op.location = defer(parser, token)
    parser.insert(op)
    return op.result


def set_call_attrs(
    parser: _RelayParser, result: SSAValue, attributes: dict[str, Attribute], token: Token
) -> None:
    """Record the attributes of the call of anything but an operator that
    gave `result` (``relay.call_attrs``). TVM's parser takes them only with
    an ``attrs_type_key``, and none at all when that is empty."""
    key = attributes.get("attrs_type_key")
    if not isinstance(key, StringAttr):
        parser.error(
            token,
            "unable to determine the 'attrs_type_key' with which to represent the call "
            "attributes: a call of anything but an operator takes attributes only with "
            'attrs_type_key="..."',
        )
    if not key.data:
        return
    owner = result.owner
    if not isinstance(owner, relay.FnOp | relay.CallOp | CallOp):
        parser.error(token, "attributes on this kind of call are not supported")
    owner.attributes[relay.CALL_ATTRS] = DictionaryAttr(attributes)


def parse_if(parser: _RelayParser, scope: _Scope) -> SSAValue:
    """``if (c) { ... } else { ... }`` → ``relay.if``."""
    token = parser.expect("if")
    parser.expect("(", "after 'if'")
    condition = parser.value_of(parser.parse_sequence(scope), token)
    parser.expect(")", "to close the condition")
    branches: list[tuple[Region, SSAValue]] = []
    for what in ("then", "else"):
        if what == "else":
            parser.expect("else", "after the then branch")
        parser.expect("{", f"to open the {what} branch")
        block = Block()
        result = parser.parse_body_into(block, scope.child(), None)
        block.add_op(relay.ReturnOp(result))
        parser.expect("}", f"to close the {what} branch")
        branches.append((Region(block), result))
    (then_region, then_value), (else_region, else_value) = branches
    result_type = then_value.type
    if isinstance(result_type, relay.IncompleteType):
        result_type = else_value.type
    if not relay.compatible(then_value.type, else_value.type):
        parser.error(
            token,
            f"the branches of 'if' have different types: {parser.type_text(then_value.type)} "
            f"and {parser.type_text(else_value.type)}",
        )
    op = relay.IfOp(condition, result_type, then_region, else_region)
    parser.annotate(op, token, check=False)
    return op.result


_REFERENCE_ARITY = {"ref": 1, "ref_read": 1, "ref_write": 2}


def is_reference_op(token: Token) -> bool:
    return token.kind is Kind.IDENT and token.text in _REFERENCE_ARITY


def parse_reference(parser: _RelayParser, scope: _Scope) -> SSAValue:
    """``ref(v)``, ``ref_read(r)``, ``ref_write(r, v)``."""
    token = parser.next()
    open_token = parser.expect("(", f"after '{token.text}'")
    args: list[SSAValue] = []
    while not parser.at(")"):
        args.append(parser.value_of(parser.parse_sequence(scope), open_token))
        if not parser.accept(","):
            break
    parser.expect(")", "to close the argument list")
    arity = _REFERENCE_ARITY[token.text]
    if len(args) != arity:
        parser.error(token, f"'{token.text}' takes {arity} argument(s), got {len(args)}")
    op: Operation
    if token.text == "ref":
        op = relay.RefOp(args[0])
    else:
        reference = args[0].type
        if not isinstance(reference, relay.RefType | relay.IncompleteType):
            parser.error(
                token,
                f"'{token.text}' needs a reference, got a {parser.type_text(reference)}",
            )
        if token.text == "ref_read":
            op = relay.RefReadOp(args[0])
        else:
            if not relay.compatible(
                reference.value_type if isinstance(reference, relay.RefType) else args[1].type,
                args[1].type,
            ):
                parser.error(
                    token,
                    f"cannot write a {parser.type_text(args[1].type)} to a "
                    f"{parser.type_text(reference)}",
                )
            op = relay.RefWriteOp(args[0], args[1])
    parser.annotate(op, token, check=False)
    return op.results[0]


def keep_metadata(parser: _RelayParser, module: ModuleOp, token: Token) -> None:
    """Keep a ``#[metadata]`` section holding more than constants verbatim on
    `module` (``relay.metadata``), so that its other nodes print back."""
    start = token.value
    assert isinstance(start, int)  # the value of a METADATA token
    text = parser.source.text[start:].strip()
    if other_node_kinds(text):
        module.attributes[relay.METADATA] = StringAttr(text)


def parse_sequence(parser: _RelayParser, scope: _Scope, nested: bool) -> _Callee:
    """TVM's ``ParseExpr``: graph and let bindings and ``e1; e2`` sequencing,
    then an expression. A `nested` sequence (a call argument, a tuple field)
    binds its variables in a scope of its own."""
    if nested and _at_binding(parser):
        scope = scope.child()
    deferred: list[LetFunction] = []
    while True:
        token = parser.peek()
        if token.kind is Kind.GRAPH and parser.peek(1).text == "=":
            parser.next()
            parser.next()
            scope.names[token.text] = parser.parse_binding_value(scope)
            parser.expect(";", "after a binding")
            continue
        if token.kind is Kind.IDENT and token.text == "let":
            parser.next()
            name = parser.expect_kind(Kind.LOCAL, "a variable name after 'let'")
            declared = parser.parse_type() if parser.accept(":") else None
            parser.expect("=", "in a let binding")
            if binds_function(parser):
                deferred.append(parse_let_function(parser, scope, name, declared))
            else:
                _let(parser, scope, name, declared, parser.parse_binding_value(scope))
            parser.expect(";", "after a let binding")
            continue
        result = parser.parse_expr(scope)
        if parser.accept(";"):
            # `e1; e2` is `let _ = e1; e2`, as TVM parses it.
            parser.insert(relay.LetOp(parser.value_of(result, token)))
            continue
        for binding in deferred:
            if binding.value is None:
                materialize(parser, binding, None)
        return result


def _at_binding(parser: _RelayParser) -> bool:
    token = parser.peek()
    return (token.kind is Kind.GRAPH and parser.peek(1).text == "=") or (
        token.kind is Kind.IDENT and token.text == "let"
    )


def _let(
    parser: _RelayParser, scope: _Scope, name: Token, declared: Attribute | None, bound: _Binding
) -> None:
    """``let %x = e;``: a ``relay.let`` of `bound`."""
    value = parser.value_of(bound, name)
    if declared is not None and not relay.compatible(declared, value.type):
        # TVM's parser keeps the declared type unchecked (bindings.py): only
        # type inference rejects the binding, at the let.
        let = relay.LetOp(value, declared=parser.known(declared))
        line, column = parser.source.line_col(name.start)
        let.location = FileLineColLoc(
            StringAttr(parser.source.name), IntAttr(line), IntAttr(column)
        )
        parser.insert(let)
        parser.op_tokens[let] = name
        set_relay_name(let.result, name.text[1:])
        scope.names[name.text] = let.result
        return
    let = let_op(value)
    parser.insert(let)
    parser.op_tokens[let] = name
    bound_value: SSAValue = let.result
    if declared is not None and not is_complete(value.type):
        # The declared type is what the solver unifies the value with (type_solver.py).
        bound_value = Rewriter.replace_value_with_new_type(bound_value, parser.known(declared))
    set_relay_name(bound_value, name.text[1:])
    scope.names[name.text] = bound_value


def parse_param_attributes(parser: _RelayParser) -> dict[str, Attribute]:
    """``{virtual_device=meta[VirtualDevice][0]}`` after a parameter's name, if any."""
    attributes: dict[str, Attribute] = {}
    if not parser.accept("{"):
        return attributes
    while not parser.at("}"):
        key = parser.expect_kind(Kind.IDENT, "a parameter attribute name")
        parser.expect("=", "after a parameter attribute name")
        attributes[key.text] = parser.parse_attr_value()
        if not parser.accept(","):
            break
    parser.expect("}", "to close the parameter attributes")
    return attributes


def param_attributes(params: Sequence[_Param]) -> ArrayAttr[DictionaryAttr]:
    """The parameters' attributes, one dictionary each (``arg_attrs``), their
    names prefixed with ``relay.``: MLIR admits only dialect attributes on a
    function's arguments."""
    return ArrayAttr(
        [DictionaryAttr({f"relay.{k}": v for k, v in p.attributes.items()}) for p in params]
    )
