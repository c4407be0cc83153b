"""Functions: the fifth layer of the Relay text parser.

How functions become IR:

* ``def @f(%x: T, Attr=v) -> R {...}`` → ``func.func @f`` with the Relay
  function attributes as discardable attributes, parsed where the module
  reaches it or, when called before, at the call; ``@f(...)`` →
  ``func.call``, or a ``relay.call`` of ``relay.global @f`` where
  ``func.call`` cannot stand (`calls_as_value`);
* a function literal called in place (``%0 = fn ...; %0(%x)``) becomes one
  ``relay.fn`` at every call site, unless its body uses values from
  outside it: such a closure becomes a ``relay.function`` called with
  ``relay.call``; function literals are skipped through a table of
  matching braces when bound, so nested literals cost linear time;
* a literal used as a value (returned, passed, stored) → a
  ``relay.function`` where it is used;
* ``let %f = fn (...) {...};`` → a ``relay.function`` bound by a
  ``relay.let`` named ``%f``. When ``%f`` occurs in its own body the
  function is recursive: the body refers to itself through the function's
  self argument. A literal whose parameters are not all typed is built at
  its first use, with the first call's argument types (TVM infers one
  monomorphic type for it too), and placed where the ``let`` stands; a
  literal never used gets ``!relay.incomplete`` parameter types;
* ``%f(...)`` of a function-typed value → ``relay.call``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    LocationAttr,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.adts import instantiate
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.dialects.relay.types import IncompleteType, is_complete
from relay_xdsl.importers.relay_base import describe
from relay_xdsl.importers.relay_expressions import RelayExpressionParser, clash
from relay_xdsl.importers.relay_scope import (
    CaptureError,
    ExpressionValue,
    FnLiteral,
    GlobalRef,
    LetFunction,
    Scope,
)
from relay_xdsl.relay_text.lexer import Kind, Token
from relay_xdsl.relay_text.source import SourceFile


@dataclass
class Param:
    """A parameter of a function definition or literal."""

    token: Token
    type: Attribute | None
    location: LocationAttr | None = None
    attributes: dict[str, Attribute] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The parameter's name without its ``%``."""
        return self.token.text[1:]


class RelayFunctionParser(RelayExpressionParser):
    """Global definitions, function literals, let-bound functions and calls
    of anything but an operator."""

    def __init__(self, source: SourceFile, tokens: list[Token]):
        super().__init__(source, tokens)
        self.closing_brace = _closing_braces(self.tokens, self.structural_tokens())
        self.functions: dict[str, FuncOp] = {}
        self.def_starts: dict[str, int] = {}
        self.in_progress: set[str] = set()
        # The signatures of the globals being parsed, for recursive calls.
        self.signatures: dict[str, FunctionType] = {}
        self.literals_shared = 0  # function literals called more than once so far
        # Match clauses and function-value bodies around the expression: upstream
        # MLIR resolves no func.call symbol from inside an unregistered op with
        # one region, so a global called there is a relay.call of relay.global.
        self.one_region_depth = 0

    def parse_keyword_expression(self, token: Token, scope: Scope) -> ExpressionValue | None:
        if token.text == "fn":
            return self.skip_fn_literal(scope)
        return super().parse_keyword_expression(token, scope)

    # -- function literals --------------------------------------------------

    def skip_fn_literal(self, scope: Scope) -> FnLiteral:
        """Move past the literal ahead, kept to be parsed where it is used."""
        start = self.pos
        self.pos = self.literal_end(start)
        self.annotation()
        return FnLiteral(start, scope)

    def literal_end(self, start: int) -> int:
        """The token index just past the body of the literal starting at `start`.

        The body is the first ``{`` outside the parameter list, which may hold
        braces of its own (``%x {virtual_device=...}``)."""
        index = start
        tokens = self.tokens
        parens = 0
        while not (tokens[index].kind is Kind.PUNCT and tokens[index].text == "{" and not parens):
            token = tokens[index]
            if token.kind is Kind.EOF:
                self.error(tokens[start], "unterminated function literal")
            if token.kind is Kind.PUNCT and token.text in "()":
                parens += 1 if token.text == "(" else -1
            index += 1
        close = self.closing_brace.get(index)
        if close is None:
            self.error(tokens[start], "unterminated function body: no matching '}'")
        return close + 1

    def function_value(self, value: FnLiteral | LetFunction | GlobalRef, token: Token) -> SSAValue:
        """A function used as a value: a literal is a ``relay.function``, a
        global a ``relay.global``."""
        if isinstance(value, LetFunction):
            return self.let_function_value(value, None)
        if isinstance(value, FnLiteral):
            return self.build_function(value.start, value.scope, None, None)
        if self.undefined_in_expression(value.name):
            return self.undefined_global(value.name, value.token)
        func = self.function(value.name, value.token)
        op = relay.GlobalOp(value.name, func.function_type)
        self.insert(op)
        return op.result

    def function_call(
        self,
        callee: SSAValue | FnLiteral | LetFunction | GlobalRef,
        args: list[SSAValue],
        open_token: Token,
        close: Token,
    ) -> SSAValue:
        """A call of anything but an operator."""
        if isinstance(callee, FnLiteral):
            return self.fn_call(callee, args, close)
        if isinstance(callee, GlobalRef) and self.undefined_in_expression(callee.name):
            function = self.undefined_global(callee.name, callee.token)
            return self.call_value(function, args, open_token)
        if isinstance(callee, GlobalRef):
            func = self.function(callee.name, callee.token)
            expected = func.function_type.inputs.data
            if len(args) != len(expected):
                self.error(
                    callee.token,
                    f"@{callee.name} takes {len(expected)} argument(s), got {len(args)}",
                )
            for index, (arg, type_) in enumerate(zip(args, expected)):
                if not relay.compatible(type_, arg.type):
                    self.error(
                        callee.token,
                        f"argument #{index} of @{callee.name} has type {self.type_text(arg.type)}, expected {self.type_text(type_)}",
                    )
            if self.calls_as_value(func, args):
                return self.call_generic_global(func, args, callee.token)
            op = CallOp(callee.name, args, func.function_type.outputs.data)
            if not all(map(is_complete, [*expected, *op.result_types])):
                self.incomplete = True
            self.annotate(op, callee.token)
            return op.results[0]
        if isinstance(callee, LetFunction):
            arg_types = [a.type for a in args]
            callee = self.let_function_value(callee, arg_types)
        return self.call_value(callee, args, open_token)

    def fn_call(self, literal: FnLiteral, args: list[SSAValue], close: Token) -> SSAValue:
        """A call of `literal` in place: a ``relay.fn`` (one body per argument
        types, later calls clone it), or for a closure ``relay.call`` of a
        ``relay.function``."""
        key = tuple(a.type for a in args)
        previous = literal.instances.get(key)
        if previous is not None:
            body = previous.body.clone()
            op = relay.FnOp(args, previous.result.type, body, previous.attributes)
        else:
            state = self.pos, self.block, self.depth, list(self.type_vars)
            try:
                op = self.instantiate(literal, args)
            except CaptureError:
                # The literal uses values from outside: a closure, called as a value.
                self.pos, self.block, self.depth, self.type_vars[:] = state
                types = [a.type for a in args]
                function = self.build_function(literal.start, literal.scope, types, None)
                return self.call_value(function, args, close)
            literal.instances[key] = op
        literal.calls.append(op)
        if len(literal.calls) > 1:
            if literal.number is None:
                literal.number = IntegerAttr(self.literals_shared, 64)
                self.literals_shared += 1
                literal.calls[0].attributes[relay.LITERAL] = literal.number
            op.attributes[relay.LITERAL] = literal.number
        type_, location = self.annotation()
        if type_ is not None and clash(type_, op.result.type):
            self.error(
                close,
                f"call annotated as {self.type_text(type_)} but the function returns {self.type_text(op.result.type)}",
            )
        if type_ is not None and not is_complete(op.result.type):
            Rewriter.replace_value_with_new_type(op.result, type_)
        self.op_tokens[op] = close
        self.insert(op, location)
        return op.result

    def instantiate(self, literal: FnLiteral, args: list[SSAValue]) -> relay.FnOp:
        """Parse `literal` into a ``relay.fn`` of `args`, whose types its
        untyped parameters take; `CaptureError` when its body uses values
        from outside it."""
        saved_pos, saved_block = self.pos, self.block
        self.pos = literal.start + 1
        fn_token = self.tokens[literal.start]
        type_params = self.parse_type_params()
        params, attributes = self.parse_params_and_attrs()
        if len(params) != len(args):
            self.error(
                fn_token,
                f"function literal takes {len(params)} argument(s), called with {len(args)}",
            )
        types: list[Attribute] = []
        for param, arg in zip(params, args):
            if param.type is not None and clash(param.type, arg.type):
                self.error(
                    param.token,
                    f"parameter {param.token.text} has type {self.type_text(param.type)} but the call passes {self.type_text(arg.type)}",
                )
            # The solver unifies a typed parameter with an untyped argument.
            known = is_complete(arg.type) or param.type is None
            types.append(arg.type if known else self.known(param.type))
        return_type = self.parse_type() if self.accept("->") else None
        block = Block(arg_types=types)
        scope = Scope(parent=literal.scope, isolated=True)
        for param, value in zip(params, block.args):
            set_relay_name(value, param.name)
            scope.names[param.token.text] = value
        self.expect("{", "to open the function body")
        # The call being parsed already counts one level of nesting.
        result = self.parse_body_into(block, scope, return_type)
        block.add_op(relay.ReturnOp(result))
        self.type_vars.pop()
        if type_params:
            attributes[relay.TYPE_PARAMS] = ArrayAttr(type_params)
        if any(p.attributes for p in params):
            attributes[relay.ARG_ATTRS] = param_attributes(params)
        result_type = result.type
        if return_type is not None and not is_complete(result_type):
            result_type = return_type
        op = relay.FnOp(args, result_type, Region(block), attributes)
        self.pos, self.block = saved_pos, saved_block
        return op

    def build_function(
        self,
        start: int,
        scope: Scope,
        arg_types: Sequence[Attribute] | None,
        self_name: str | None,
    ) -> SSAValue:
        """Parse the literal at token `start` into a ``relay.function`` in the current block.

        Untyped parameters take `arg_types` (a call's argument types), else
        ``!relay.incomplete``. With `self_name`, the body refers to the function
        itself under that name.
        """
        saved_pos, saved_block = self.pos, self.block
        self.pos = start + 1
        fn_token = self.tokens[start]
        type_params = self.parse_type_params()
        params, attributes = self.parse_params_and_attrs()
        if arg_types is not None and len(arg_types) != len(params):
            self.error(
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
        declared = self.parse_type() if self.accept("->") else None
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
        self.expect("{", "to open the function body")
        self.one_region_depth += 1
        try:
            result = self.parse_body_into(block, inner, declared)
        finally:
            self.one_region_depth -= 1
        self.expect("}", "to close the function body")
        block.add_op(relay.ReturnOp(result))
        self.type_vars.pop()
        if declared is None and self_name is None:
            function_type = FunctionType.from_lists(types, [result.type])
        if type_params:
            attributes[relay.TYPE_PARAMS] = ArrayAttr(type_params)
        if any(p.attributes for p in params):
            attributes[relay.ARG_ATTRS] = param_attributes(params)
        op = relay.FunctionOp(function_type, Region(block), attributes)
        self.pos, self.block = saved_pos, saved_block
        self.insert(op)
        return op.result

    def call_value(self, callee: SSAValue, args: list[SSAValue], token: Token) -> SSAValue:
        """``%f(args)`` of a function-typed value: ``relay.call``."""
        type_ = callee.type
        if not isinstance(type_, FunctionType | relay.IncompleteType):
            if self.expression:
                op = relay.CallOp(callee, args, relay.IncompleteType())
                op.location = self.defer(token)
                self.annotate(op, token, check=False)
                return op.result
            self.error(token, f"a value of type {self.type_text(type_)} is not a function")
        if isinstance(type_, FunctionType):
            inputs = type_.inputs.data
            if len(inputs) != len(args):
                self.error(
                    token, f"the function takes {len(inputs)} argument(s), called with {len(args)}"
                )
            for index, (arg, input_type) in enumerate(zip(args, inputs)):
                if not relay.compatible(input_type, arg.type):
                    self.error(
                        token,
                        f"argument #{index} has type {self.type_text(arg.type)} but the function "
                        f"takes {self.type_text(input_type)}",
                    )
        op = relay.CallOp(callee, args)
        self.annotate(op, token, check=False)
        return op.result

    # -- global functions ---------------------------------------------------

    def function(self, name: str, token: Token) -> FuncOp:
        """The ``func.func`` for global `name`, parsing its definition if needed."""
        if name in self.functions:
            return self.functions[name]
        if name not in self.def_starts:
            self.error(token, f"unknown global function @{name}")
        if name in self.in_progress:
            signature = self.signatures.get(name)
            if signature is None:
                self.error(token, f"@{name} is called in its own parameter list")
            return FuncOp(name, signature, Region(Block(arg_types=signature.inputs.data)))
        saved_pos, saved_block = self.pos, self.block
        self.pos = self.def_starts[name]
        self.parse_definition(name, self.tokens[self.pos - 1])
        self.pos, self.block = saved_pos, saved_block
        return self.functions[name]

    def parse_definition(self, name: str, token: Token) -> None:
        self.in_progress.add(name)
        type_params = self.parse_type_params()
        params, attributes = self.parse_params_and_attrs()
        return_type = self.parse_type() if self.accept("->") else None
        types = [self.known(param.type) for param in params]
        self.signatures[name] = FunctionType.from_lists(
            types, [return_type if return_type is not None else relay.IncompleteType()]
        )
        block = Block(arg_types=types)
        scope = Scope(isolated=True)
        for param, arg in zip(params, block.args):
            if param.location is not None:
                arg.location = param.location
            set_relay_name(arg, param.name)
            scope.names[param.token.text] = arg
        self.expect("{", "to open the function body")
        result = self.parse_body_into(block, scope, return_type)
        self.expect("}", "to close the function body")
        block.add_op(FuncReturnOp(result))
        self.type_vars.pop()
        output = result.type if return_type is None else return_type
        func = FuncOp(name, FunctionType.from_lists(types, [output]), Region(block))
        func.attributes.update(attributes)
        if type_params:
            func.attributes[relay.TYPE_PARAMS] = ArrayAttr(type_params)
        if any(p.attributes for p in params):
            func.arg_attrs = param_attributes(params)
        self.functions[name] = func
        self.op_tokens[func] = token
        self.in_progress.discard(name)

    def calls_as_value(self, func: FuncOp, args: Sequence[SSAValue]) -> bool:
        """Whether ``@f(args)`` is a ``relay.call`` of ``@f``'s ``relay.global``
        rather than a ``func.call``: for a generic global; inside a match clause or
        function value (see ``one_region_depth``); or when the arguments' types
        only fit the declared ones, which ``func.call`` needs equal (an unknown
        type, ``_``, is the type solver's to unify)."""
        inputs = func.function_type.inputs.data
        return (
            is_generic(func)
            or self.one_region_depth > 0
            or any(
                arg.type != type_
                and not isinstance(type_, IncompleteType)
                and not isinstance(arg.type, IncompleteType)
                for arg, type_ in zip(args, inputs)
            )
        )

    def call_generic_global(self, func: FuncOp, args: list[SSAValue], token: Token) -> SSAValue:
        """``@f(args)`` as `calls_as_value` says: ``relay.call`` of its
        ``relay.global``, whose result type is the declared one with the type
        parameters the arguments bind."""
        signature = func.function_type
        callee = relay.GlobalOp(func.sym_name.data, signature)
        self.insert(callee)
        in_scope = frozenset().union(*self.type_vars)
        (output,) = instantiate(signature, [a.type for a in args], in_scope)
        op = relay.CallOp(callee, args, output)
        self.annotate(op, token, check=False)
        return op.result

    def undefined_in_expression(self, name: str) -> bool:
        """Whether global `name`, which the text does not define, is named in a
        bare expression (TVM's ``parse_expr`` makes it a global of no type)."""
        return self.expression and name not in self.def_starts and name not in self.functions

    def undefined_global(self, name: str, token: Token) -> SSAValue:
        """``relay.global @name`` of unknown type, for a global the text names but
        does not define (`undefined_in_expression`)."""
        op = relay.GlobalOp(name, relay.IncompleteType())
        op.location = self.defer(token)
        self.insert(op)
        return op.result

    # -- let-bound functions ------------------------------------------------

    def binds_function(self) -> bool:
        """Whether a let's value ahead is a function literal alone (not one called in place)."""
        if not self.at("fn"):
            return False
        index = self.literal_end(self.pos)
        while self.tokens[index].kind is Kind.COMMENT:
            index += 1
        return self.tokens[index].text == ";"

    def parse_let_function(
        self, scope: Scope, name: Token, declared: Attribute | None
    ) -> LetFunction:
        """``let %f = fn ...``: bind `name`; build the function now if its parameters are typed."""
        start = self.pos
        block = self.block
        binding = LetFunction(start, scope, name, block, block.last_op, declared)
        scope.names[name.text] = binding
        self.pos = self.literal_end(start)
        self.annotation()
        if self._all_typed(start):
            self.materialize(binding, None)
        return binding

    def _all_typed(self, start: int) -> bool:
        saved = self.pos
        self.pos = start + 1
        self.parse_type_params()
        params, _ = self.parse_params_and_attrs()
        self.type_vars.pop()
        self.pos = saved
        return all(p.type is not None for p in params)

    def let_function_value(
        self, binding: LetFunction, arg_types: Sequence[Attribute] | None
    ) -> SSAValue:
        """The value of a let-bound function, built on first use."""
        if binding.value is None:
            self.materialize(binding, arg_types)
        assert binding.value is not None
        return binding.value

    def materialize(self, binding: LetFunction, arg_types: Sequence[Attribute] | None) -> None:
        """Build the ``relay.function`` and ``relay.let`` of `binding` at its ``let``."""
        self_name = binding.name.text if self._refers_to(binding.start, binding.name.text) else None
        saved_block = self.block
        holder = Block()
        self.block = holder
        function = self.build_function(binding.start, binding.scope, arg_types, self_name)
        self.block = saved_block
        let = relay.LetOp(function)
        set_relay_name(let.result, binding.name.text[1:])
        if binding.declared is not None and not relay.compatible(binding.declared, function.type):
            self.error(
                binding.name,
                f"{binding.name.text} is declared as {self.type_text(binding.declared)} but bound "
                f"to a {self.type_text(function.type)}",
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

    def _refers_to(self, start: int, name: str) -> bool:
        tokens = self.tokens
        return any(
            tokens[i].kind is Kind.LOCAL and tokens[i].text == name
            for i in range(start, self.literal_end(start))
        )

    # -- parameters ---------------------------------------------------------

    def parse_params_and_attrs(self) -> tuple[list[Param], dict[str, Attribute]]:
        """Parameters (untyped or ``_`` ones with type None) and function attributes."""
        self.expect("(", "to open the parameter list")
        params: list[Param] = []
        attributes: dict[str, Attribute] = {}
        if self.accept(")"):
            return params, attributes
        while True:
            token = self.peek()
            if token.kind is Kind.LOCAL:
                if attributes:
                    self.error(token, "parameters must come before function attributes")
                self.next()
                param_attributes = self.parse_param_attributes()
                type_ = self.parse_type() if self.accept(":") else None
                if isinstance(type_, IncompleteType):
                    type_ = None
                _, location = self.annotation()
                params.append(Param(token, type_, location, param_attributes))
            elif (key_length := self.attribute_key_length()) is not None:
                key = "".join(self.next().text for _ in range(key_length))
                self.next()
                attributes[key] = self.parse_attr_value()
            else:
                self.error(
                    token,
                    f"expected a parameter or an attribute, found {describe(token)}",
                )
            if self.accept(")"):
                return params, attributes
            self.expect(",", "between parameters")

    def parse_param_attributes(self) -> dict[str, Attribute]:
        """``{virtual_device=meta[VirtualDevice][0]}`` after a parameter's name, if any."""
        attributes: dict[str, Attribute] = {}
        if not self.accept("{"):
            return attributes
        while not self.at("}"):
            key = self.expect_kind(Kind.IDENT, "a parameter attribute name")
            self.expect("=", "after a parameter attribute name")
            attributes[key.text] = self.parse_attr_value()
            if not self.accept(","):
                break
        self.expect("}", "to close the parameter attributes")
        return attributes

    def attribute_key_length(self) -> int | None:
        """Tokens in the function attribute key ahead (``Primitive=``, ``relay.reshape_only=``).

        TVM prints dotted keys such as ``relay.reshape_only`` but its parser
        takes plain identifiers only; accepting both reads back what either
        printer writes. None when no ``key =`` is ahead.
        """
        if self.peek().kind is not Kind.IDENT:
            return None
        length = 1
        while self.peek(length).text == "." and self.peek(length + 1).kind is Kind.IDENT:
            length += 2
        return length if self.peek(length).text == "=" else None


def is_generic(func: FuncOp) -> bool:
    """Whether `func` has type parameters (``def @f[A](...)``)."""
    return relay.TYPE_PARAMS in func.attributes


def param_attributes(params: Sequence[Param]) -> ArrayAttr[DictionaryAttr]:
    """The parameters' attributes, one dictionary each (``arg_attrs``), their
    names prefixed with ``relay.``: MLIR admits only dialect attributes on a
    function's arguments."""
    return ArrayAttr(
        [DictionaryAttr({f"relay.{k}": v for k, v in p.attributes.items()}) for p in params]
    )


def _closing_braces(tokens: list[Token], structural: list[int]) -> dict[int, int]:
    """Token index of the matching ``}`` for every ``{``, in one pass over
    the `structural` tokens (`structural_tokens`).

    Function literals are skipped when bound and parsed when called; the
    table makes each skip one lookup, so nested literals cost linear time.
    """
    matches: dict[int, int] = {}
    open_braces: list[int] = []
    for index in structural:
        token = tokens[index]
        if token.kind is Kind.PUNCT:
            if token.text == "{":
                open_braces.append(index)
            elif token.text == "}" and open_braces:
                matches[open_braces.pop()] = index
    return matches
