"""Relay text → relay dialect.

``parse_relay(text)`` reads what TVM v0.19 prints for graph programs (a module
of ``def @f(...)``, or a bare ``fn (...) {...}`` or expression as printed by
``print(mod["main"])``) and returns a ``builtin.module`` of ``func.func``
holding ``relay.*`` ops. It needs no TVM.

How Relay constructs become IR:

* ``def @f(%x: T, Attr=v) -> R {...}`` → ``func.func @f`` with the Relay
  function attributes as discardable attributes; ``@f(...)`` → ``func.call``;
* a bare ``fn`` or a bare expression (with ``free_var`` declarations) → ``@main``;
* ``%N = e;`` → the SSA value of ``e`` (a graph temp is only a name);
  ``let %x = e;`` → ``relay.let`` of ``e``'s value (see bindings.py); let
  and parameter names become SSA name hints, also recorded as ``NameLoc``
  locations, which upstream MLIR keeps (names.py); names are cosmetic;
* a function literal called in place (``%0 = fn ...; %0(%x)``) becomes one
  ``relay.fn`` at every call site; functions used as values, ``if``,
  references and let-bound functions are read by relay_lang.py;
* type definitions, constructor applications and ``match``: relay_adts.py;
* ``meta[relay.Constant][i]`` → ``relay.constant`` with the value from the
  ``#[metadata]`` section when there is one, else an opaque ``meta_index``;
* types come from parameter annotations and ``/* ty=... */`` comments; a
  missing call type is inferred from the call's typed arguments for the
  operators the dialect defines; a type the text leaves out (an untyped
  parameter, ``_``, a constant without metadata) is ``!relay.incomplete``,
  and when any is left the type solver (type_solver.py) types the module as
  TVM's ``InferType`` does; what it cannot determine stays incomplete; the
  type grammar is in relay_types.py;
* ``span=`` source positions become op locations.

Errors are ``RelayTextError``: ``file:line:col: error: message`` plus the
offending line. Nesting up to ``MAX_NESTING`` levels is parsed within
``run_deep``, the opt-in for deep programs (depth.py); function literals are
skipped through a table of matching braces, so nested literals cost linear
time.
"""

from __future__ import annotations

import difflib
import struct
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.dialects.relay.type_solver import (
    TypeInferenceError,
    infer_types,
    rejection,
)
from relay_xdsl.dialects.relay.types import IncompleteType, is_complete
from relay_xdsl.importers import relay_adts, relay_lang
from relay_xdsl.importers.relay_lang import LetFunction
from relay_xdsl.importers.relay_ops import CheckedCalls, constant_op, operator_op
from relay_xdsl.importers.relay_types import RelayTypeParser, describe
from relay_xdsl.importers.unknown_operators import untyped_operator_message
from relay_xdsl.relay_text.lexer import (
    Kind,
    Token,
    float_literal,
    int_literal,
    meta_reference,
    tokenize,
)
from relay_xdsl.relay_text.metadata import MetadataError, decode_metadata
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.relay_text.types import RelayExportError, relay_type
from relay_xdsl.support.depth import MAX_NESTING, NestingTooDeepError, in_run_deep
from relay_xdsl.support.prebuilt import prebuilt

RelayTextError = SourceError
"""Malformed or unsupported Relay text, with its position."""


def parse_relay(text: str, source_name: str = "<input>") -> ModuleOp:
    """Parse TVM Relay text into a module of ``func.func`` and ``relay.*`` ops.

    Nesting (of calls, tuples, types, attribute arrays and function literals)
    is parsed on the caller's stack; text nested deeper than it has room for
    is a `NestingTooDeepError` that says how to opt in to ``run_deep``. Within
    ``run_deep``, up to `MAX_NESTING` levels are parsed, and deeper input is a
    ``RelayTextError`` at the first token past the limit.
    """
    return _parse(SourceFile(text, source_name))


def _parse(source: SourceFile) -> ModuleOp:
    return _parse_module(_RelayParser(source))


def _parse_module(parser: _RelayParser) -> ModuleOp:
    try:
        return parser.parse_module()
    except (RecursionError, NestingTooDeepError):
        if not in_run_deep():
            raise NestingTooDeepError("the Relay text") from None
        token = parser.tokens[min(parser.pos, len(parser.tokens) - 1)]
        raise RelayTextError(
            parser.source,
            token.start,
            f"expression nested too deeply to import (more than {MAX_NESTING} levels)",
            token.end,
        ) from None


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


@dataclass(eq=False)
class _FnLiteral:
    """A function literal, instantiated as a ``relay.fn`` at each call."""

    start: int  # token index of `fn`
    scope: _Scope
    instances: dict[tuple[Attribute, ...], relay.FnOp] = field(default_factory=dict)
    calls: list[relay.FnOp] = field(default_factory=list)
    number: IntegerAttr | None = None  # its relay.literal, once it is called twice


@dataclass(frozen=True)
class _GlobalRef:
    name: str
    token: Token


@dataclass(frozen=True)
class _OperatorRef:
    name: str
    token: Token


_Binding = SSAValue | _FnLiteral | LetFunction | _OperatorRef
_Callee = _Binding | _GlobalRef
"""What an expression denotes: a value, or something only a call may use
(an operator used as a value is a ``relay.operator_ref`` there)."""


@dataclass(eq=False)
class _Scope:
    """Variable bindings by spelling (``%x``, ``%0``); `isolated` scopes (function
    bodies) see no outer values."""

    parent: _Scope | None = None
    isolated: bool = False
    names: dict[str, _Binding] = field(default_factory=dict)

    def child(self) -> _Scope:
        """A scope inside this one that sees its bindings (a branch, a let, a closure)."""
        return _Scope(parent=self)

    def lookup(self, name: str) -> tuple[_Binding | None, bool]:
        """The binding of `name` and whether it crosses an isolated boundary."""
        scope: _Scope | None = self
        crossed = False
        while scope is not None:
            if name in scope.names:
                return scope.names[name], crossed
            crossed = crossed or scope.isolated
            scope = scope.parent
        return None, False


@dataclass
class _Param:
    token: Token
    type: Attribute | None
    location: LocationAttr | None = None
    attributes: dict[str, Attribute] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The parameter's name without its ``%``."""
        return self.token.text[1:]


class _RelayParser(RelayTypeParser):
    def __init__(self, source: SourceFile):
        super().__init__(source, tokenize(source))
        self.closing_brace = _closing_braces(self.tokens)
        self.block: Block = Block()
        self.constants: list[DenseIntOrFPElementsAttr] | None = None
        self.functions: dict[str, FuncOp] = {}
        self.def_starts: dict[str, int] = {}
        self.in_progress: set[str] = set()
        # The signatures of the globals being parsed, for recursive calls.
        self.signatures: dict[str, FunctionType] = {}
        self.literals_shared = 0  # function literals called more than once so far
        self.adts = relay_adts.AdtTable()
        # Match clauses and function-value bodies around the expression: upstream
        # MLIR resolves no func.call symbol from inside an unregistered op with
        # one region, so a global called there is a relay.call of relay.global.
        self.one_region_depth = 0
        # Dumps repeat the same few types thousands of times; parse each once.
        self.annotation_types: dict[str, Attribute] = {}
        self.span_locations: dict[str, LocationAttr | None] = {}
        self.scalar_values: dict[str, DenseIntOrFPElementsAttr] = {}
        self.checked_calls = CheckedCalls()
        # Keyed by spelling, an array by its elements' identities.
        self.attribute_values: dict[tuple[int, ...] | str, Attribute] = {}
        # Where each op came from, for the type solver's errors.
        self.op_tokens: dict[Operation, Token] = {}
        self.incomplete = False  # whether some type is left for the solver
        # A bare expression, which TVM's parse_expr reads without type
        # inference: contradictions are kept unchecked (relay_lang.defer).
        self.expression = False
        self.deferred = False  # whether some check was left to relay-infer-type

    # -- token helpers ------------------------------------------------------

    def annotation(self) -> tuple[Attribute | None, LocationAttr | None]:
        """The ``ty=`` type and ``span=`` location of a comment right here, if any."""
        token = self.tokens[self.pos]
        if token.kind is not Kind.COMMENT:
            return None, None
        self.pos += 1
        body = token.text
        body_start = token.start + 2
        type_: Attribute | None = None
        location: LocationAttr | None = None
        span_at = body.find("span=")
        if span_at >= 0:
            span = body[span_at + 5 :].split(maxsplit=1)[0] if body[span_at + 5 :].strip() else ""
            # Every op of a TVM layer repeats its span: build each location once.
            try:
                location = self.span_locations[span]
            except KeyError:
                location = self.span_locations[span] = _span_location(span)
        ty_at = body.find("ty=")
        if ty_at >= 0 and (ty_at == 0 or body[ty_at - 1].isspace()):
            type_end = span_at if span_at > ty_at else len(body)
            type_text = body[ty_at + 3 : type_end].strip()
            type_ = self.annotation_types.get(type_text)
        if type_ is None and ty_at >= 0 and (ty_at == 0 or body[ty_at - 1].isspace()):
            sub = RelayTypeParser(
                self.source, tokenize(self.source, body_start + ty_at + 3, body_start + type_end)
            )
            sub.tensor_types = self.tensor_types
            sub.type_vars = self.type_vars
            sub.type_arity = self.type_arity
            type_ = sub.parse_type()
            if sub.peek().kind is not Kind.EOF:
                sub.error(
                    sub.peek(),
                    f"unexpected {describe(sub.peek())} after the type in a ty= annotation",
                )
            self.annotation_types[type_text] = type_
        return type_, location

    # -- module -------------------------------------------------------------

    def parse_module(self) -> ModuleOp:
        if len(self.tokens) > 1 and self.tokens[-2].kind is Kind.METADATA:
            self.constants = self.decode_metadata(self.tokens[-2])
        self.peek()
        if self.peek().kind is Kind.VERSION:
            version = self.next()
            if version.value != '"0.0.5"':
                self.error(
                    version,
                    f'unsupported text format version {version.value}; expected "0.0.5"',
                )
        self.find_definitions()
        type_defs = relay_adts.parse_type_defs(self)
        storage = relay_adts.implicit_storage(self)
        if storage is not None:
            type_defs.insert(0, storage)
        order: list[str] = []
        while True:
            token = self.peek()
            if token.kind in (Kind.EOF, Kind.METADATA):
                break
            if relay_adts.skip_type_def(self):
                continue
            if token.kind is Kind.IDENT and token.text == "def":
                self.next()
                name_token = self.expect_kind(Kind.GLOBAL, "a global function name")
                name = name_token.text[1:]
                order.append(name)
                if name in self.functions:
                    self.skip_definition()
                else:
                    self.parse_definition(name, name_token)
                continue
            if order:
                self.error(
                    token,
                    f"expected 'def' or the end of the module, found {describe(token)}",
                )
            if "main" in self.def_starts:
                self.error(token, "a module with '@main' cannot also have a bare expression")
            self.parse_main_expression()
            order.append("main")
            token = self.peek()
            if token.kind not in (Kind.EOF, Kind.METADATA):
                self.error(token, f"expected the end of the program, found {describe(token)}")
            break
        module = ModuleOp([*type_defs, *(self.functions[name] for name in order)])
        if len(self.tokens) > 1 and self.tokens[-2].kind is Kind.METADATA:
            relay_lang.keep_metadata(self, module, self.tokens[-2])
        if self.incomplete:
            self.solve(module)
        return module

    def solve(self, module: ModuleOp) -> None:
        """Type what the eager inference left incomplete (type_solver.py)."""
        try:
            infer_types(module, strict=False)
        except TypeInferenceError as error:
            op = error.op
            while op is not None and op not in self.op_tokens:
                op = op.parent_op()
            token = self.op_tokens[op] if op is not None else self.tokens[0]
            self.error(token, error.message)

    def decode_metadata(self, token: Token) -> list[DenseIntOrFPElementsAttr]:
        section_start = token.value
        assert isinstance(section_start, int)  # the value of a METADATA token
        try:
            return decode_metadata(self.source.text[section_start:])
        except MetadataError as error:
            offset = section_start + (error.offset or 0)
            raise RelayTextError(
                self.source, offset, f"bad #[metadata] section: {error.message}"
            ) from None

    def find_definitions(self) -> None:
        """Record where each top-level ``def`` starts, so calls may precede definitions."""
        depth = 0
        tokens = self.tokens
        for index in range(self.pos, len(tokens) - 1):
            token = tokens[index]
            if token.kind is Kind.PUNCT:
                if token.text == "{":
                    depth += 1
                elif token.text == "}":
                    depth -= 1
            elif depth == 0 and token.kind is Kind.IDENT and token.text == "def":
                name_token = tokens[index + 1]
                if name_token.kind is Kind.GLOBAL:
                    name = name_token.text[1:]
                    if name in self.def_starts:
                        self.error(name_token, f"duplicate definition of @{name}")
                    self.def_starts[name] = index + 2

    def skip_definition(self) -> None:
        """Skip a definition that was already parsed on demand."""
        while True:
            token = self.next()
            if token.kind is Kind.EOF:
                self.error(token, "unexpected end of input in a function definition")
            if token.text == "{" and token.kind is Kind.PUNCT:
                self.skip_braces(self.pos - 1, token)
                return

    def skip_braces(self, open_index: int, start: Token) -> None:
        """Move past the ``}`` matching the ``{`` at token `open_index`."""
        close = self.closing_brace.get(open_index)
        if close is None:
            self.error(start, "unterminated function body: no matching '}'")
        self.pos = close + 1

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
        type_params = relay_lang.parse_type_params(self)
        params, attributes = self.parse_params_and_attrs()
        return_type = self.parse_type() if self.accept("->") else None
        types = [self.known(param.type) for param in params]
        self.signatures[name] = FunctionType.from_lists(
            types, [return_type if return_type is not None else relay.IncompleteType()]
        )
        block = Block(arg_types=types)
        scope = _Scope(isolated=True)
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
            func.arg_attrs = relay_lang.param_attributes(params)
        self.functions[name] = func
        self.op_tokens[func] = token
        self.in_progress.discard(name)

    def parse_main_expression(self) -> None:
        """A bare ``fn`` or expression program, imported as ``@main``."""
        token = self.peek()
        if token.kind is Kind.IDENT and token.text == "fn":
            self.next()
            self.in_progress.add("main")
            self.parse_definition("main", token)
            self.annotation()
            return
        scope = _Scope(isolated=True)
        block = Block()
        self.expression = True
        while self.at("free_var"):
            self.next()
            name_token = self.expect_kind(Kind.LOCAL, "a variable name")
            self.expect(":", "after a free variable")
            arg = block.insert_arg(self.parse_type(), len(block.args))
            set_relay_name(arg, name_token.text[1:])
            scope.names[name_token.text] = arg
            self.expect(";", "after a free variable declaration")
        result = self.parse_body_into(block, scope, None)
        block.add_op(FuncReturnOp(result))
        main = FuncOp(
            "main",
            FunctionType.from_lists([a.type for a in block.args], [result.type]),
            Region(block),
        )
        if self.deferred:
            main.attributes[relay.EXPRESSION] = UnitAttr()
        self.functions["main"] = main

    # -- functions ----------------------------------------------------------

    def parse_params_and_attrs(self) -> tuple[list[_Param], dict[str, Attribute]]:
        """Parameters (untyped or ``_`` ones with type None) and function attributes."""
        self.expect("(", "to open the parameter list")
        params: list[_Param] = []
        attributes: dict[str, Attribute] = {}
        if self.accept(")"):
            return params, attributes
        while True:
            token = self.peek()
            if token.kind is Kind.LOCAL:
                if attributes:
                    self.error(token, "parameters must come before function attributes")
                self.next()
                param_attributes = relay_lang.parse_param_attributes(self)
                type_ = self.parse_type() if self.accept(":") else None
                if isinstance(type_, IncompleteType):
                    type_ = None
                _, location = self.annotation()
                params.append(_Param(token, type_, location, param_attributes))
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

    def known(self, type_: Attribute | None) -> Attribute:
        """`type_`, or ``!relay.incomplete`` for None; notes what the solver must type."""
        if type_ is None:
            self.incomplete = True
            return IncompleteType()
        if not is_complete(type_):
            self.incomplete = True
        return type_

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

    def parse_body_into(
        self, block: Block, scope: _Scope, return_type: Attribute | None
    ) -> SSAValue:
        """Parse bindings and a result expression into `block`; add the return."""
        saved = self.block
        self.block = block
        result = self.parse_body(scope)
        if return_type is not None:
            refined = relay_adts.returned(result, self.known(return_type))
            if refined is None:
                refined = _generalised(result, return_type)
            if refined is None:
                self.error(
                    self.peek(),
                    f"function body has type {_relay_type(result.type)} but the declared return type is {_relay_type(return_type)}",
                )
            result = refined
        self.block = saved
        return result

    def parse_body(self, scope: _Scope) -> SSAValue:
        """A function body or branch: bindings and a result expression."""
        token = self.peek()
        return self.value_of(self.parse_sequence(scope, nested=False), token)

    def parse_sequence(self, scope: _Scope, nested: bool = True) -> _Callee:
        """TVM's ``ParseExpr``: bindings, ``e1; e2`` sequencing, an expression (relay_lang)."""
        return relay_lang.parse_sequence(self, scope, nested)

    def parse_binding_value(self, scope: _Scope) -> _Binding:
        value = self.parse_expr(scope)
        if isinstance(value, _GlobalRef):
            return self.value_of(value, value.token)
        return value

    # -- expressions --------------------------------------------------------

    def parse_expr(self, scope: _Scope, min_precedence: int = 0) -> _Callee:
        """An expression, with TVM's infix operators (``a + b * c``)."""
        value = self.parse_postfix(scope)
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
            value = self.operator_call(_OperatorRef(name, token), args, {}, token)

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

    def parse_postfix(self, scope: _Scope) -> _Callee:
        # The innermost operand is entered too: MAX_NESTING calls take one more.
        self.nest(self.peek(), "expression", MAX_NESTING + 1)
        try:
            value = self.parse_primary(scope)
            while True:
                if self.at("("):
                    value = self.parse_call(value, scope)
                elif self.at("."):
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
                    op = relay.TupleGetItemOp(value, index)
                    self.annotate(op, token)
                    value = op.result
                else:
                    return value
        finally:
            self.depth -= 1

    def parse_primary(self, scope: _Scope) -> _Callee:
        token = self.peek()
        kind = token.kind
        if kind in (Kind.LOCAL, Kind.GRAPH):
            self.next()
            binding, crossed = scope.lookup(token.text)
            if binding is None:
                self.error(token, f"unknown variable {token.text}")
            if crossed and isinstance(binding, SSAValue | LetFunction):
                # A relay.fn body is isolated: the literal is a closure (relay_lang).
                raise relay_lang.CaptureError
            return binding
        if kind is Kind.GLOBAL:
            self.next()
            return _GlobalRef(token.text[1:], token)
        if kind in (Kind.INT, Kind.FLOAT, Kind.BOOL):
            self.next()
            op = self.scalar_constant(token)
            self.annotate(op, token)
            return op.result
        if kind is Kind.META:
            self.next()
            return self.meta_constant(token)
        if kind is Kind.PUNCT and token.text == "(":
            return self.parse_tuple(scope)
        if kind is Kind.PUNCT and token.text == "-":
            self.next()
            operand = self.value_of(self.parse_postfix(scope), token)
            return self.operator_call(_OperatorRef("negative", token), [operand], {}, token)
        if kind is Kind.IDENT:
            if token.text == "fn":
                return self.skip_fn_literal(scope)
            if token.text == "if":
                return relay_lang.parse_if(self, scope)
            if relay_lang.is_reference_op(token):
                return relay_lang.parse_reference(self, scope)
            if token.text == "match":
                return relay_adts.parse_match(self, scope)
            if relay_adts.is_constructor(self, token):
                return relay_adts.parse_construct(self, scope)
            if token.text in ("let", "def", "free_var"):
                self.error(token, f"'{token.text}' is not allowed here")
            return self.parse_operator_name()
        self.error(token, f"expected an expression, found {describe(token)}")

    def parse_operator_name(self) -> _OperatorRef:
        first = self.next()
        parts = [first.text]
        while self.at(".") and self.peek(1).kind is Kind.IDENT:
            self.next()
            parts.append(self.next().text)
        return _OperatorRef(".".join(parts), first)

    def parse_tuple(self, scope: _Scope) -> _Callee:
        open_token = self.expect("(")
        fields: list[_Callee] = []
        trailing_comma = False
        while not self.at(")"):
            fields.append(self.parse_sequence(scope))
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

    def skip_fn_literal(self, scope: _Scope) -> _FnLiteral:
        start = self.pos
        self.pos = relay_lang.literal_end(self, start)
        self.annotation()
        return _FnLiteral(start, scope)

    def value_of(self, value: _Callee, token: Token) -> SSAValue:
        """`value` as an SSA value: a function literal used as a value is a ``relay.function``."""
        if isinstance(value, SSAValue):
            return value
        if isinstance(value, LetFunction):
            return relay_lang.let_function_value(self, value, None)
        if isinstance(value, _FnLiteral):
            return relay_lang.build_function(self, value.start, value.scope, None, None)
        if isinstance(value, _GlobalRef):
            if relay_lang.undefined_in_expression(self, value.name):
                return relay_lang.undefined_global(self, value.name, value.token)
            func = self.function(value.name, value.token)
            op = relay.GlobalOp(value.name, func.function_type)
            self.insert(op)
            return op.result
        ref = relay.OperatorRefOp(value.name)
        self.op_tokens[ref] = value.token
        self.insert(ref)
        return ref.result

    def parse_call(self, callee: _Callee, scope: _Scope) -> SSAValue:
        open_token = self.expect("(")
        args: list[SSAValue] = []
        attributes: dict[str, Attribute] = {}
        attribute_tokens: dict[str, Token] = {}
        while not self.at(")"):
            token = self.peek()
            if (
                token.kind is Kind.IDENT
                and self.peek(1).text == "="
                and self.peek(1).kind is Kind.PUNCT
            ):
                self.next()
                self.next()
                if token.text in attributes:
                    self.error(token, f"duplicate attribute '{token.text}'")
                attribute_tokens[token.text] = token
                attributes[token.text] = self.parse_attr_value()
            else:
                if attributes:
                    self.error(token, "positional arguments must come before attributes")
                args.append(self.value_of(self.parse_sequence(scope), token))
            if not self.accept(","):
                break
        close = self.expect(")", "to close the argument list")
        if isinstance(callee, _OperatorRef):
            return self.operator_call(callee, args, attributes, close, attribute_tokens)
        result = self.function_call(callee, args, open_token, close)
        if attributes:
            relay_lang.set_call_attrs(self, result, attributes, open_token)
        return result

    def function_call(
        self,
        callee: SSAValue | _FnLiteral | LetFunction | _GlobalRef,
        args: list[SSAValue],
        open_token: Token,
        close: Token,
    ) -> SSAValue:
        """A call of anything but an operator."""
        if isinstance(callee, _FnLiteral):
            return self.fn_call(callee, args, close)
        if isinstance(callee, _GlobalRef) and relay_lang.undefined_in_expression(self, callee.name):
            function = relay_lang.undefined_global(self, callee.name, callee.token)
            return relay_lang.call_value(self, function, args, open_token)
        if isinstance(callee, _GlobalRef):
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
                        f"argument #{index} of @{callee.name} has type {_relay_type(arg.type)}, expected {_relay_type(type_)}",
                    )
            if relay_lang.calls_as_value(self, func, args):
                return relay_lang.call_generic_global(self, func, args, callee.token)
            op = CallOp(callee.name, args, func.function_type.outputs.data)
            if not all(map(is_complete, [*expected, *op.result_types])):
                self.incomplete = True
            self.annotate(op, callee.token)
            return op.results[0]
        if isinstance(callee, LetFunction):
            arg_types = [a.type for a in args]
            callee = relay_lang.let_function_value(self, callee, arg_types)
        return relay_lang.call_value(self, callee, args, open_token)

    def operator_call(
        self,
        callee: _OperatorRef,
        args: list[SSAValue],
        attributes: dict[str, Attribute],
        close: Token,
        attribute_tokens: dict[str, Token] | None = None,
    ) -> SSAValue:
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
                if isinstance(attributes[key], UnitAttr):
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
        type_, location = self.annotation()
        arg_types = [a.type for a in args]
        if callee.name == "split" and type_ is not None:
            _fill_split_points(attributes, arg_types, type_)
        complete = all(map(is_complete, arg_types))
        inferred = None
        if op_class is not None and complete:
            operator = op_class.OPERATOR
            inferred, problem = self.checked_calls(operator, arg_types, attributes)
            if self.expression and (problem is not None or (inferred is None and type_ is None)):
                deferred_at = relay_lang.defer(self, callee.token)
                location = location or deferred_at
            elif inferred is None and type_ is None:
                self.error(callee.token, rejection(operator, arg_types, attributes))
            elif problem is not None:
                self.error(callee.token, problem)
        if (
            type_ is not None
            and inferred is not None
            and type_ != inferred
            and _is_static(type_)
            and _is_static(inferred)
        ):
            self.error(
                callee.token,
                f"'{callee.name}' is annotated as {_relay_type(type_)} but its arguments and attributes give {_relay_type(inferred)}",
            )
        if type_ is None:
            type_ = inferred
            if type_ is None and op_class is None:
                self.error(callee.token, untyped_operator_message(callee.name))
            type_ = self.known(type_)
        if op_class is not None:
            op: Operation = operator_op(op_class, args, type_, attributes, location)
            location = None
        else:
            op = relay.GenericOperatorOp(callee.name, args, type_, attributes)
        self.op_tokens[op] = callee.token
        self.insert(op, location)
        return op.results[0]

    def fn_call(self, literal: _FnLiteral, args: list[SSAValue], close: Token) -> SSAValue:
        key = tuple(a.type for a in args)
        previous = literal.instances.get(key)
        if previous is not None:
            body = previous.body.clone()
            op = relay.FnOp(args, previous.result.type, body, previous.attributes)
        else:
            state = self.pos, self.block, self.depth, list(self.type_vars)
            try:
                op = self.instantiate(literal, args)
            except relay_lang.CaptureError:
                # The literal uses values from outside: a closure, called as a value.
                self.pos, self.block, self.depth, self.type_vars[:] = state
                types = [a.type for a in args]
                function = relay_lang.build_function(
                    self, literal.start, literal.scope, types, None
                )
                return relay_lang.call_value(self, function, args, close)
            literal.instances[key] = op
        literal.calls.append(op)
        if len(literal.calls) > 1:
            if literal.number is None:
                literal.number = IntegerAttr(self.literals_shared, 64)
                self.literals_shared += 1
                literal.calls[0].attributes[relay.LITERAL] = literal.number
            op.attributes[relay.LITERAL] = literal.number
        type_, location = self.annotation()
        if type_ is not None and _clash(type_, op.result.type):
            self.error(
                close,
                f"call annotated as {_relay_type(type_)} but the function returns {_relay_type(op.result.type)}",
            )
        if type_ is not None and not is_complete(op.result.type):
            Rewriter.replace_value_with_new_type(op.result, type_)
        self.op_tokens[op] = close
        self.insert(op, location)
        return op.result

    def instantiate(self, literal: _FnLiteral, args: list[SSAValue]) -> relay.FnOp:
        saved_pos, saved_block = self.pos, self.block
        self.pos = literal.start + 1
        fn_token = self.tokens[literal.start]
        type_params = relay_lang.parse_type_params(self)
        params, attributes = self.parse_params_and_attrs()
        if len(params) != len(args):
            self.error(
                fn_token,
                f"function literal takes {len(params)} argument(s), called with {len(args)}",
            )
        types: list[Attribute] = []
        for param, arg in zip(params, args):
            if param.type is not None and _clash(param.type, arg.type):
                self.error(
                    param.token,
                    f"parameter {param.token.text} has type {_relay_type(param.type)} but the call passes {_relay_type(arg.type)}",
                )
            # The solver unifies a typed parameter with an untyped argument.
            known = is_complete(arg.type) or param.type is None
            types.append(arg.type if known else self.known(param.type))
        return_type = self.parse_type() if self.accept("->") else None
        block = Block(arg_types=types)
        scope = _Scope(parent=literal.scope, isolated=True)
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
            attributes[relay.ARG_ATTRS] = relay_lang.param_attributes(params)
        result_type = result.type
        if return_type is not None and not is_complete(result_type):
            result_type = return_type
        op = relay.FnOp(args, result_type, Region(block), attributes)
        self.pos, self.block = saved_pos, saved_block
        return op

    def insert(self, op: Operation, location: LocationAttr | None = None) -> None:
        if location is not None:
            op.location = location
        self.block.add_op(op)

    def type_text(self, type_: Attribute) -> str:
        """`type_` in Relay syntax, for messages."""
        return _relay_type(type_)

    def annotate(self, op: Operation, token: Token, check: bool = True) -> None:
        """Insert `op`, checking a following ``ty=`` comment against its type
        (or, where its type is incomplete, taking it)."""
        type_, location = self.annotation()
        self.op_tokens[op] = token
        result = op.results[0]
        if check and type_ is not None and type_ != result.type:
            if _clash(result.type, type_):
                self.error(
                    token,
                    f"expression has type {_relay_type(result.type)} but is annotated as {_relay_type(type_)}",
                )
            if not is_complete(result.type):
                Rewriter.replace_value_with_new_type(result, type_)
        self.insert(op, location)

    # -- constants ----------------------------------------------------------

    def scalar_constant(self, token: Token) -> relay.ConstantOp:
        # A literal's spelling determines its value and type: build each once.
        value = self.scalar_values.get(token.text)
        if value is None:
            value = self.scalar_values[token.text] = self.scalar_value(token)
        return constant_op(value.type, value)

    def scalar_value(self, token: Token) -> DenseIntOrFPElementsAttr:
        element: IntegerType | AnyFloat
        if token.kind is Kind.BOOL:
            element = IntegerType(1)
            data = struct.pack("<?", token.value)
        elif token.kind is Kind.INT:
            value, width = int_literal(token)
            element = IntegerType(width)
            data = value.to_bytes(width // 8, "little", signed=True)
        else:
            number, width = float_literal(token)
            element = _FLOAT_TYPES[width]
            data = struct.pack({16: "<e", 32: "<f", 64: "<d"}[width], number)
        type_ = TensorType(element, [])
        return DenseIntOrFPElementsAttr(type_, BytesAttr(data))

    def meta_constant(self, token: Token) -> SSAValue:
        key, index = meta_reference(token)
        if key != "relay.Constant":
            self.error(
                token,
                f"unsupported meta reference meta[{key}][{index}]: only relay.Constant is supported",
            )
        annotated, location = self.annotation()
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
                    f"meta[relay.Constant][{index}] is annotated as {_relay_type(annotated)} but its metadata is {_relay_type(value.type)}",
                )
            op = constant_op(value.type, value=value)
        else:
            # Without metadata, the constant is typed by its uses (type_solver.py).
            op = constant_op(self.known(annotated), meta_index=index)
        self.op_tokens[op] = token
        self.insert(op, location)
        return op.result

    # -- attributes ---------------------------------------------------------

    def parse_attr_value(self) -> Attribute:
        """An attribute value; equal spellings give the same (shared) attribute.

        Every value returned is owned by ``attribute_values``, so an array's
        key can be its elements' identities.
        """
        token = self.next()
        kind = token.kind
        if kind is Kind.PUNCT and token.text == "[":
            self.nest(token, "attribute array")
            elements: list[Attribute] = []
            while not self.at("]"):
                elements.append(self.parse_attr_value())
                if not self.accept(","):
                    break
            self.expect("]", "to close the array")
            self.depth -= 1
            key = tuple(map(id, elements))
            value = self.attribute_values.get(key)
            if value is None:
                value = self.attribute_values[key] = _array_attr(elements)
            return value
        # A token's spelling determines its kind (and enum members hash slowly).
        value = self.attribute_values.get(token.text)
        if value is None:
            value = self.attribute_values[token.text] = self.scalar_attr_value(token)
        return value

    def scalar_attr_value(self, token: Token) -> Attribute:
        kind = token.kind
        if kind is Kind.INT:
            value, width = int_literal(token)
            return IntegerAttr(value, IntegerType(width))
        if kind is Kind.FLOAT:
            number, width = float_literal(token)
            return FloatAttr(number, _FLOAT_TYPES[width])
        if kind is Kind.BOOL:
            return BoolAttr.from_bool(token.value is True)
        if kind is Kind.STRING and isinstance(string := token.value, str):
            return StringAttr(string)
        if kind is Kind.IDENT and token.text == "None":
            return UnitAttr()
        if kind is Kind.META:
            return relay.MetaRefAttr(*meta_reference(token))
        self.error(token, f"expected an attribute value, found {describe(token)}")


_FLOAT_TYPES: dict[int, AnyFloat] = {16: Float16Type(), 32: Float32Type(), 64: Float64Type()}
"""The element type of each float literal width."""


def _closing_braces(tokens: list[Token]) -> dict[int, int]:
    """Token index of the matching ``}`` for every ``{``, in one pass.

    Function literals are skipped when bound and parsed when called; the
    table makes each skip one lookup, so nested literals cost linear time.
    """
    matches: dict[int, int] = {}
    open_braces: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind is Kind.PUNCT:
            if token.text == "{":
                open_braces.append(index)
            elif token.text == "}" and open_braces:
                matches[open_braces.pop()] = index
    return matches


def _array_attr(elements: list[Attribute]) -> Attribute:
    """Flat int or float arrays become ``array<...>``; anything else ``[...]``."""
    if not elements:
        return DenseArrayBase.from_list(IntegerType(32), [])
    first = elements[0]
    if isinstance(first, IntegerAttr) and first.type != IntegerType(1):
        ints = [
            e.value.data for e in elements if isinstance(e, IntegerAttr) and e.type == first.type
        ]
        if len(ints) == len(elements):
            return DenseArrayBase.from_list(first.type, ints)
    if isinstance(first, FloatAttr):
        floats = [
            e.value.data for e in elements if isinstance(e, FloatAttr) and e.type == first.type
        ]
        if len(floats) == len(elements):
            return DenseArrayBase.from_list(first.type, floats)
    return ArrayAttr(elements)


def _clash(left: Attribute, right: Attribute) -> bool:
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


def _span_location(span: str) -> FileLineColLoc | None:
    """``name:line:col`` of a TVM span as an MLIR location."""
    name, _, rest = span.rpartition(":")
    file, _, line = name.rpartition(":")
    if not file or not line.isdigit() or not rest.isdigit():
        return None
    return prebuilt(FileLineColLoc, StringAttr(file), IntAttr(int(line)), IntAttr(int(rest)))


def _relay_type(type_: Attribute) -> str:
    try:
        return relay_type(type_)
    except RelayExportError:
        return str(type_)


def _fill_split_points(
    attributes: dict[str, Attribute], arg_types: list[Attribute], annotated: Attribute
) -> None:
    """Give a ``split`` whose points are metadata references (TVM's ONNX
    frontend prints ``indices_or_sections=[meta[runtime.BoxInt][0], ...]``, and
    a text without its ``#[metadata]`` section lacks their values) the points
    its annotated result type implies: where each field but the last ends
    along ``axis``."""
    points = attributes.get("indices_or_sections")
    if not isinstance(points, ArrayAttr) or not any(
        isinstance(p, relay.MetaRefAttr) for p in points.data
    ):
        return
    data = arg_types[0] if arg_types else None
    if not isinstance(annotated, TupleType) or not isinstance(data, TensorType):
        return
    fields = annotated.types.data
    axis_attr = attributes.get("axis")
    axis = axis_attr.value.data if isinstance(axis_attr, IntegerAttr) else 0
    rank = len(data.get_shape())
    if not -rank <= axis < rank or len(fields) != len(points.data) + 1:
        return
    if not all(isinstance(f, TensorType) and len(f.get_shape()) == rank for f in fields):
        return
    ends, end = [], 0
    for field_type in fields[:-1]:
        assert isinstance(field_type, TensorType)
        end += field_type.get_shape()[axis]
        ends.append(end)
    attributes["indices_or_sections"] = DenseArrayBase.from_list(IntegerType(32), ends)
