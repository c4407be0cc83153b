"""Algebraic data types: the seventh layer of the Relay text parser.

How the constructs become IR (see ``dialects/relay/adts.py``):

* ``type List[A] { Cons(A, List[A]), Nil }`` and ``extern type Storage`` →
  ``relay.type_def`` at module level, in the order of the text. All type
  definitions are read before any function, so a function may use a type
  defined after it, as TVM's parser allows;
* in a type, ``List[T]`` (or ``nat`` without arguments) → ``!relay.adt``, and
  a type parameter in scope (``def @f[A]``, ``type T[A]``) →
  ``!relay.type_var``;
* ``Cons(%x, %xs)`` and ``Nil`` → ``relay.construct``; the type arguments
  are those the fields determine, unknown ones are ``!relay.incomplete``
  until a ``ty=`` annotation, a declared return type or the other clauses of
  a ``match`` tell them;
* a constructor with fields not applied (``@foldr(Cons, ...)``) →
  ``relay.constructor``;
* ``match (e) { p => e, ... }`` and ``match?`` → ``relay.match`` with one
  region per clause; the pattern's variables are the region's block
  arguments. A ``match`` (not ``match?``) that misses a case is an error
  naming the cases, as TVM's type inference reports it
  (:mod:`~relay_xdsl.dialects.relay.match_exhaustion`);
* a text that uses ``Storage`` (a ``Storage[]`` type, a
  ``memory.alloc_storage`` call) without defining it gets the definition
  TVM's ``core.rly`` gives, ``extern type Storage``, first among its type
  definitions: TVM's memory operators type their storage with it, and TVM's
  tests parse such texts with ``core.rly`` as their module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, TupleType
from xdsl.ir import Attribute, Block, OpResult, Region, SSAValue
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects.relay.adts import (
    ConstructOp,
    ConstructorAttr,
    ConstructorRefOp,
    MatchOp,
    MatchYieldOp,
    PatternConstructorAttr,
    PatternTupleAttr,
    PatternVarAttr,
    PatternWildcardAttr,
    TypeDefOp,
    bind_type_vars,
    compatible,
    constructor_field_types,
    constructor_type,
    join,
    substitute,
)
from relay_xdsl.dialects.relay.match_exhaustion import not_handled, unmatched_cases
from relay_xdsl.dialects.relay.names import set_relay_name
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType
from relay_xdsl.importers.relay_lang import RelayLangParser
from relay_xdsl.importers.relay_scope import ExpressionValue, Scope
from relay_xdsl.relay_text.lexer import Kind, Token
from relay_xdsl.relay_text.source import SourceFile


@dataclass
class AdtTable:
    """The type definitions of the text, and the type parameters in scope."""

    type_defs: dict[str, TypeDefOp] = field(default_factory=dict)
    constructors: dict[str, tuple[TypeDefOp, ConstructorAttr]] = field(default_factory=dict)
    constructor_tokens: dict[str, Token] = field(default_factory=dict)
    starts: list[int] = field(default_factory=list)
    """Token index of each type definition (its ``type`` or ``extern``)."""
    ends: dict[int, int] = field(default_factory=dict)
    """Start token index → index of the first token after the definition."""


class RelayAdtParser(RelayLangParser):
    """Type definitions, constructor applications and ``match``."""

    def __init__(self, source: SourceFile, tokens: list[Token]):
        super().__init__(source, tokens)
        self.adts = AdtTable()

    def parse_keyword_expression(self, token: Token, scope: Scope) -> ExpressionValue | None:
        value = super().parse_keyword_expression(token, scope)
        if value is not None:
            return value
        if token.text == "match":
            return self.parse_match(scope)
        if token.text in self.adts.constructors:
            return self.parse_construct(scope)
        return None

    def record_type_def(self, index: int) -> None:
        """Note the type definition whose ``type``/``extern`` is token `index`."""
        tokens = self.tokens
        type_index = index + 1 if tokens[index].text == "extern" else index
        name_token = tokens[type_index + 1]
        if tokens[type_index].text != "type" or name_token.kind is not Kind.IDENT:
            self.error(tokens[type_index + 1], "expected a type name after 'type'")
        table = self.adts
        if name_token.text in self.type_arity:
            self.error(name_token, f"duplicate definition of type {name_token.text}")
        arity = 0
        if tokens[type_index + 2].text == "[":
            position = type_index + 3
            while tokens[position].kind is Kind.IDENT:
                arity += 1
                if tokens[position + 1].text != ",":
                    break
                position += 2
        self.type_arity[name_token.text] = arity
        table.starts.append(index)

    def parse_type_defs(self) -> list[TypeDefOp]:
        """Read every top-level type definition, in text order, before any function."""
        depth = 0
        tokens = self.tokens
        for index in self.structural_tokens():
            if not self.pos <= index < len(tokens) - 1:
                continue
            token = tokens[index]
            if token.kind is Kind.PUNCT and token.text in "{}":
                depth += 1 if token.text == "{" else -1
            elif (
                depth == 0
                and token.kind is Kind.IDENT
                and token.text in ("extern", "type")
                and tokens[index - 1].text != "extern"
            ):
                self.record_type_def(index)
        saved = self.pos
        ops = []
        for start in self.adts.starts:
            self.pos = start
            ops.append(self.parse_type_def())
            self.adts.ends[start] = self.pos
        self.pos = saved
        return ops

    def implicit_storage(self) -> TypeDefOp | None:
        """``extern type Storage`` for a text that uses ``Storage`` without
        defining it (see the module docstring); None otherwise."""
        if "Storage" in self.type_arity or not (
            "Storage" in self.source.text or "alloc_storage" in self.source.text
        ):
            return None
        if not any(
            (token.kind is Kind.IDENT and token.text in ("Storage", "alloc_storage"))
            or (token.kind is Kind.COMMENT and "Storage" in token.text)
            for token in self.tokens
        ):
            return None
        self.type_arity["Storage"] = 0
        return TypeDefOp("Storage", extern=True)

    def skip_type_def(self) -> bool:
        """Move past the type definition at the current position (already read), if any."""
        self.peek()
        end = self.adts.ends.get(self.pos)
        if end is not None:
            self.pos = end
        return end is not None

    def parse_type_def(self) -> TypeDefOp:
        first = self.next()
        extern = first.text == "extern"
        if extern:
            self.expect("type", "after 'extern'")
        name = self.expect_kind(Kind.IDENT, "a type name").text
        params = [p.var_name.data for p in self.parse_type_params()]
        table = self.adts
        op = TypeDefOp(name, params, extern=extern)
        table.type_defs[name] = op
        constructors: list[ConstructorAttr] = []
        if self.accept("{"):
            while not self.at("}"):
                token = self.expect_kind(Kind.IDENT, "a constructor name")
                fields: list[Attribute] = []
                if self.accept("("):
                    while not self.at(")"):
                        fields.append(self.parse_type())
                        if not self.accept(","):
                            break
                    self.expect(")", "to close the constructor's fields")
                if token.text in table.constructors:
                    self.error(
                        token, f"a constructor with the name `{token.text}` was previously defined"
                    )
                if token.text in self.type_arity:
                    # TVM's self refuses a constructor named like a type too.
                    self.error(token, f"`{token.text}` names both a type and a constructor")
                constructor = ConstructorAttr(token.text, fields)
                constructors.append(constructor)
                table.constructors[token.text] = (op, constructor)
                table.constructor_tokens[token.text] = token
                if not self.accept(","):
                    break
            self.expect("}", "to close the type definition")
        if extern and constructors:
            self.error(first, "an external type may not have any constructors")
        self.type_vars.pop()
        op.attributes["constructors"] = ArrayAttr(constructors)
        return op

    def parse_construct(self, scope: Scope) -> SSAValue:
        """``Cons(%x, %xs)`` or ``Nil``: the next token is a constructor name."""
        token = self.next()
        type_def, constructor = self.adts.constructors[token.text]
        args: list[SSAValue] = []
        if self.at("("):
            self.next()
            while not self.at(")"):
                args.append(self.value_of(self.parse_sequence(scope), self.peek()))
                if not self.accept(","):
                    break
            self.expect(")", "to close the constructor's fields")
        elif constructor.fields.data:
            # Not applied: the constructor as a function value (`@foldr(Cons, ...)`).
            ref = ConstructorRefOp(token.text, constructor_type(type_def, constructor))
            self.insert(ref)
            return ref.result
        fields = constructor.fields.data
        if len(args) != len(fields):
            self.error(
                token, f"constructor {token.text} takes {len(fields)} field(s), got {len(args)}"
            )
        params = type_def.param_names()
        bound: dict[str, Attribute] = {}
        for index, (declared, arg) in enumerate(zip(fields, args)):
            if not bind_type_vars(declared, arg.type, frozenset(params), bound):
                self.error(
                    token,
                    f"field #{index} of {token.text} has type {self.type_text(arg.type)}, "
                    f"which does not fit {self.type_text(declared)}",
                )
        instance = {p: bound.get(p, IncompleteType()) for p in params}
        args = [self.refine(a, substitute(d, instance)) or a for a, d in zip(args, fields)]
        type_: Attribute = AdtType(
            type_def.type_name, [bound.get(p, IncompleteType()) for p in params]
        )
        annotated, location = self.annotation()
        if annotated is not None:
            if not compatible(annotated, type_):
                self.error(
                    token,
                    f"{token.text}(...) has type {self.type_text(type_)} but is annotated as "
                    f"{self.type_text(annotated)}",
                )
            type_ = join(annotated, type_)
        op = ConstructOp(token.text, args, type_)
        self.insert(op, location)
        return op.result

    def refine(self, value: SSAValue, type_: Attribute) -> SSAValue | None:
        """`value`, given the better known `type_` where its op allows it: a
        constructor application or a match is retyped (its uses are
        updated); None when `value` does not fit `type_`."""
        owner = value.owner if isinstance(value, OpResult) else None
        if (
            not isinstance(owner, ConstructOp | MatchOp)
            or value.type == type_
            or not compatible(value.type, type_)
        ):
            return super().refine(value, type_)
        value = Rewriter.replace_value_with_new_type(value, join(type_, value.type))
        if isinstance(owner, MatchOp):
            for region in owner.clauses:
                terminator = region.block.last_op
                assert isinstance(terminator, MatchYieldOp)
                self.refine(terminator.value, value.type)
        return value

    def parse_match(self, scope: Scope) -> SSAValue:
        """``match (e) {...}`` or ``match? (e) {...}``: the next token is ``match``."""
        match_token = self.next()
        partial = self.accept("?") is not None
        data = self.value_of(self.parse_postfix(scope), match_token)
        self.expect("{", "to open the match clauses")
        clauses: list[tuple[Attribute, Region]] = []
        results: list[SSAValue] = []
        outer = self.block
        while not self.at("}"):
            variables: list[tuple[Token, Attribute | None]] = []
            pattern_token = self.peek()
            pattern = self._parse_pattern(variables)
            types: list[Attribute] = []
            self._pattern_types(pattern, data.type, types, pattern_token)
            block = Block(arg_types=[_declared(t, d) for (_, d), t in zip(variables, types)])
            clause_scope = scope.child()
            for (token, declared), arg, type_ in zip(variables, block.args, types):
                if declared is not None and not compatible(declared, type_):
                    self.error(
                        token,
                        f"{token.text} is declared as {self.type_text(declared)} but the pattern "
                        f"matches a {self.type_text(type_)}",
                    )
                set_relay_name(arg, token.text[1:])
                clause_scope.names[token.text] = arg
            self.expect("=", "before '=>' in a match clause")
            self.expect(">", "in '=>'")
            self.block = block
            self.one_region_depth += 1
            try:
                if self.at("{"):
                    self.next()
                    result = self.parse_body(clause_scope)
                    self.expect("}", "to close the clause")
                else:
                    # TVM's ParseExpr: bindings may precede the clause's value.
                    result = self.value_of(
                        self.parse_sequence(clause_scope, nested=False), pattern_token
                    )
            finally:
                self.one_region_depth -= 1
            block.add_op(MatchYieldOp(result))
            self.block = outer
            clauses.append((pattern, Region(block)))
            results.append(result)
            if not self.accept(","):
                break
        self.expect("}", "to close the match clauses")
        result_type: Attribute = IncompleteType()
        for result in results:
            if not compatible(result_type, result.type):
                self.error(
                    match_token,
                    f"the clauses of this match have different types: "
                    f"{self.type_text(result_type)} and {self.type_text(result.type)}",
                )
            result_type = join(result_type, result.type)
        annotated, location = self.annotation()
        if annotated is not None:
            if not compatible(annotated, result_type):
                self.error(
                    match_token,
                    f"match has type {self.type_text(result_type)} but is annotated as "
                    f"{self.type_text(annotated)}",
                )
            result_type = join(annotated, result_type)
        for result in results:
            self.refine(result, result_type)
        if not partial:
            self._check_exhaustive([pattern for pattern, _ in clauses], match_token)
        op = MatchOp(data, result_type, clauses, partial=partial)
        self.insert(op, location)
        return op.result

    def _check_exhaustive(self, patterns: list[Attribute], match_token: Token) -> None:
        """Refuse a complete ``match`` that misses a case, as TVM's type inference does."""
        cases = unmatched_cases(
            patterns, lambda name: self.adts.constructors[name][0].constructors.data
        )
        if cases:
            self.error(match_token, not_handled(cases))

    def _parse_pattern(self, variables: list[tuple[Token, Attribute | None]]) -> Attribute:
        token = self.peek()
        if token.kind is Kind.IDENT and token.text == "_":
            self.next()
            return PatternWildcardAttr()
        if token.kind is Kind.LOCAL:
            self.next()
            declared = self.parse_type() if self.accept(":") else None
            variables.append((token, declared))
            return PatternVarAttr()
        if token.kind is Kind.IDENT:
            self.next()
            if token.text not in self.adts.constructors:
                self.error(
                    token,
                    f"undefined constructor name `{token.text}`; a pattern variable is "
                    f"written `%{token.text}`",
                )
            fields = self._parse_pattern_list(variables) if self.at("(") else []
            return PatternConstructorAttr(token.text, fields)
        if token.kind is Kind.PUNCT and token.text == "(":
            return PatternTupleAttr(self._parse_pattern_list(variables))
        self.error(token, f"expected a pattern, found '{token.text}'")

    def _parse_pattern_list(
        self, variables: list[tuple[Token, Attribute | None]]
    ) -> list[Attribute]:
        open_token = self.expect("(")
        self.nest(open_token, "pattern")
        fields: list[Attribute] = []
        while not self.at(")"):
            fields.append(self._parse_pattern(variables))
            if not self.accept(","):
                break
        self.expect(")", "to close the pattern")
        self.depth -= 1
        return fields

    def _pattern_types(
        self,
        pattern: Attribute,
        type_: Attribute,
        out: list[Attribute],
        token: Token,
    ) -> None:
        """Append the types of `pattern`'s variables when it matches a `type_`."""
        if isinstance(pattern, PatternVarAttr):
            out.append(type_)
        elif isinstance(pattern, PatternTupleAttr):
            fields = pattern.fields.data
            if isinstance(type_, TupleType) and len(type_.types) == len(fields):
                field_types: list[Attribute] = list(type_.types.data)
            elif isinstance(type_, IncompleteType):
                field_types = [IncompleteType()] * len(fields)
            else:
                self.error(
                    token,
                    f"a tuple pattern of {len(fields)} field(s) cannot match a value of type "
                    f"{self.type_text(type_)}",
                )
            for sub, sub_type in zip(fields, field_types):
                self._pattern_types(sub, sub_type, out, token)
        elif isinstance(pattern, PatternConstructorAttr):
            name = pattern.constructor.data
            type_def, constructor = self.adts.constructors[name]
            if not isinstance(type_, IncompleteType) and not (
                isinstance(type_, AdtType) and type_.type_name == type_def.type_name
            ):
                self.error(
                    token,
                    f"constructor {name} of {type_def.type_name.data} cannot match a value of type "
                    f"{self.type_text(type_)}",
                )
            field_types = constructor_field_types(type_def, constructor, type_)
            if len(pattern.fields) != len(field_types):
                self.error(
                    token,
                    f"constructor {name} has {len(field_types)} field(s), the pattern gives "
                    f"{len(pattern.fields)}",
                )
            for sub, sub_type in zip(pattern.fields.data, field_types):
                self._pattern_types(sub, sub_type, out, token)


def _declared(type_: Attribute, declared: Attribute | None) -> Attribute:
    return type_ if declared is None else join(declared, type_)
