"""Relay text → relay dialect.

``parse_relay(text)`` reads what TVM v0.19 prints for graph programs (a module
of ``def @f(...)``, or a bare ``fn (...) {...}`` or expression as printed by
``print(mod["main"])``) and returns a ``builtin.module`` of ``func.func``
holding ``relay.*`` ops. It needs no TVM.

The parser is a chain of classes, one layer a module, each building on the
one before as xDSL's parser does: the token cursor (relay_base.py), the
type grammar (relay_types.py), ``ty=``/``span=`` annotations and attribute
values (relay_attributes.py), dataflow expressions (relay_expressions.py),
functions (relay_functions.py), bindings, ``if`` and references
(relay_lang.py), algebraic data types (relay_adts.py), and here the module:

* type definitions first, then each ``def @f`` in text order (a global
  called before its definition is parsed at the call);
* a bare ``fn`` or a bare expression (with ``free_var`` declarations) →
  ``@main``; a bare expression's contradictions are left to
  ``relay-infer-type``, as TVM's ``parse_expr`` runs no type inference;
* ``meta[relay.Constant][i]`` → ``relay.constant`` with the value from the
  ``#[metadata]`` section when there is one, else an opaque ``meta_index``;
  a section holding other nodes too is kept verbatim (``relay.metadata``);
* types come from parameter annotations and ``/* ty=... */`` comments; a
  missing call type is inferred from the call's typed arguments for the
  operators the dialect defines; a type the text leaves out (an untyped
  parameter, ``_``, a constant without metadata) is ``!relay.incomplete``,
  and when any is left the type solver (type_solver.py) types the module as
  TVM's ``InferType`` does; what it cannot determine stays incomplete;
* let and parameter names become SSA name hints, also recorded as
  ``NameLoc`` locations, which upstream MLIR keeps (names.py); names are
  cosmetic; ``span=`` source positions become op locations.

Errors are ``RelayTextError``: ``file:line:col: error: message`` plus the
offending line. Nesting up to ``MAX_NESTING`` levels is parsed within
``run_deep``, the opt-in for deep programs (depth.py).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Block, Region

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.dialects.relay.type_solver import TypeInferenceError, infer_types
from relay_xdsl.importers.relay_adts import RelayAdtParser
from relay_xdsl.importers.relay_base import describe
from relay_xdsl.importers.relay_scope import Scope
from relay_xdsl.relay_text.binding_lines import BindingLineReader
from relay_xdsl.relay_text.lexer import Kind, Token, tokenize
from relay_xdsl.relay_text.metadata import MetadataError, read_metadata
from relay_xdsl.relay_text.source import SourceError, SourceFile
from relay_xdsl.support.depth import MAX_NESTING, NestingTooDeepError, in_run_deep

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
    return _parse_module(RelayParser(source))


def _parse_module(parser: RelayParser) -> ModuleOp:
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


class RelayParser(RelayAdtParser):
    """The whole parser: a module of type definitions and functions, or a
    bare expression."""

    def __init__(self, source: SourceFile):
        super().__init__(
            source,
            tokenize(
                source,
                tensor_types=True,
                int_arrays=True,
                read_line=BindingLineReader().read,
            ),
        )
        self.other_metadata: list[str] = []

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
        type_defs = self.parse_type_defs()
        storage = self.implicit_storage()
        if storage is not None:
            type_defs.insert(0, storage)
        order: list[str] = []
        while True:
            token = self.peek()
            if token.kind in (Kind.EOF, Kind.METADATA):
                break
            if self.skip_type_def():
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
            self.keep_metadata(module, self.tokens[-2])
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
        """The section's constants; whether it holds other nodes is kept for `keep_metadata`."""
        section_start = token.value
        assert isinstance(section_start, int)  # the value of a METADATA token
        try:
            constants, self.other_metadata = read_metadata(self.source.text[section_start:])
            return constants
        except MetadataError as error:
            offset = section_start + (error.offset or 0)
            raise RelayTextError(
                self.source, offset, f"bad #[metadata] section: {error.message}"
            ) from None

    def find_definitions(self) -> None:
        """Record where each top-level ``def`` starts, so calls may precede definitions."""
        depth = 0
        tokens = self.tokens
        for index in self.structural_tokens():
            if not self.pos <= index < len(tokens) - 1:
                continue
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

    def parse_main_expression(self) -> None:
        """A bare ``fn`` or expression program, imported as ``@main``."""
        token = self.peek()
        if token.kind is Kind.IDENT and token.text == "fn":
            self.next()
            self.in_progress.add("main")
            self.parse_definition("main", token)
            self.annotation()
            return
        scope = Scope(isolated=True)
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

    def keep_metadata(self, module: ModuleOp, token: Token) -> None:
        """Keep a ``#[metadata]`` section holding more than constants verbatim on
        `module` (``relay.metadata``), so that its other nodes print back."""
        start = token.value
        assert isinstance(start, int)  # the value of a METADATA token
        if self.other_metadata:
            module.attributes[relay.METADATA] = StringAttr(self.source.text[start:].strip())
