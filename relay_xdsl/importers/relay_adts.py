"""Relay text → relay dialect: algebraic data types.

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
from typing import TYPE_CHECKING

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
    agrees,
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
from relay_xdsl.importers.relay_lang import parse_type_params
from relay_xdsl.relay_text.lexer import Kind, Token

if TYPE_CHECKING:
    from relay_xdsl.importers.relay_text import _RelayParser, _Scope


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


def record_type_def(parser: _RelayParser, index: int) -> None:
    """Note the type definition whose ``type``/``extern`` is token `index`."""
    tokens = parser.tokens
    type_index = index + 1 if tokens[index].text == "extern" else index
    name_token = tokens[type_index + 1]
    if tokens[type_index].text != "type" or name_token.kind is not Kind.IDENT:
        parser.error(tokens[type_index + 1], "expected a type name after 'type'")
    table = parser.adts
    if name_token.text in parser.type_arity:
        parser.error(name_token, f"duplicate definition of type {name_token.text}")
    arity = 0
    if tokens[type_index + 2].text == "[":
        position = type_index + 3
        while tokens[position].kind is Kind.IDENT:
            arity += 1
            if tokens[position + 1].text != ",":
                break
            position += 2
    parser.type_arity[name_token.text] = arity
    table.starts.append(index)


def parse_type_defs(parser: _RelayParser) -> list[TypeDefOp]:
    """Read every top-level type definition, in text order, before any function."""
    depth = 0
    tokens = parser.tokens
    for index in range(parser.pos, len(tokens) - 1):
        token = tokens[index]
        if token.kind is Kind.PUNCT and token.text in "{}":
            depth += 1 if token.text == "{" else -1
        elif (
            depth == 0
            and token.kind is Kind.IDENT
            and token.text in ("extern", "type")
            and tokens[index - 1].text != "extern"
        ):
            record_type_def(parser, index)
    saved = parser.pos
    ops = []
    for start in parser.adts.starts:
        parser.pos = start
        ops.append(_parse_type_def(parser))
        parser.adts.ends[start] = parser.pos
    parser.pos = saved
    return ops


def implicit_storage(parser: _RelayParser) -> TypeDefOp | None:
    """``extern type Storage`` for a text that uses ``Storage`` without
    defining it (see the module docstring); None otherwise."""
    if "Storage" in parser.type_arity or not (
        "Storage" in parser.source.text or "alloc_storage" in parser.source.text
    ):
        return None
    if not any(
        (token.kind is Kind.IDENT and token.text in ("Storage", "alloc_storage"))
        or (token.kind is Kind.COMMENT and "Storage" in token.text)
        for token in parser.tokens
    ):
        return None
    parser.type_arity["Storage"] = 0
    return TypeDefOp("Storage", extern=True)


def skip_type_def(parser: _RelayParser) -> bool:
    """Move past the type definition at the current position (already read), if any."""
    parser.peek()
    end = parser.adts.ends.get(parser.pos)
    if end is not None:
        parser.pos = end
    return end is not None


def _parse_type_def(parser: _RelayParser) -> TypeDefOp:
    first = parser.next()
    extern = first.text == "extern"
    if extern:
        parser.expect("type", "after 'extern'")
    name = parser.expect_kind(Kind.IDENT, "a type name").text
    params = [p.var_name.data for p in parse_type_params(parser)]
    table = parser.adts
    op = TypeDefOp(name, params, extern=extern)
    table.type_defs[name] = op
    constructors: list[ConstructorAttr] = []
    if parser.accept("{"):
        while not parser.at("}"):
            token = parser.expect_kind(Kind.IDENT, "a constructor name")
            fields: list[Attribute] = []
            if parser.accept("("):
                while not parser.at(")"):
                    fields.append(parser.parse_type())
                    if not parser.accept(","):
                        break
                parser.expect(")", "to close the constructor's fields")
            if token.text in table.constructors:
                parser.error(
                    token, f"a constructor with the name `{token.text}` was previously defined"
                )
            if token.text in parser.type_arity:
                # TVM's parser refuses a constructor named like a type too.
                parser.error(token, f"`{token.text}` names both a type and a constructor")
            constructor = ConstructorAttr(token.text, fields)
            constructors.append(constructor)
            table.constructors[token.text] = (op, constructor)
            table.constructor_tokens[token.text] = token
            if not parser.accept(","):
                break
        parser.expect("}", "to close the type definition")
    if extern and constructors:
        parser.error(first, "an external type may not have any constructors")
    parser.type_vars.pop()
    op.attributes["constructors"] = ArrayAttr(constructors)
    return op


def is_constructor(parser: _RelayParser, token: Token) -> bool:
    return token.kind is Kind.IDENT and token.text in parser.adts.constructors


def parse_construct(parser: _RelayParser, scope: _Scope) -> SSAValue:
    """``Cons(%x, %xs)`` or ``Nil``: the next token is a constructor name."""
    token = parser.next()
    type_def, constructor = parser.adts.constructors[token.text]
    args: list[SSAValue] = []
    if parser.at("("):
        parser.next()
        while not parser.at(")"):
            args.append(parser.value_of(parser.parse_sequence(scope), parser.peek()))
            if not parser.accept(","):
                break
        parser.expect(")", "to close the constructor's fields")
    elif constructor.fields.data:
        # Not applied: the constructor as a function value (`@foldr(Cons, ...)`).
        ref = ConstructorRefOp(token.text, constructor_type(type_def, constructor))
        parser.insert(ref)
        return ref.result
    fields = constructor.fields.data
    if len(args) != len(fields):
        parser.error(
            token, f"constructor {token.text} takes {len(fields)} field(s), got {len(args)}"
        )
    params = type_def.param_names()
    bound: dict[str, Attribute] = {}
    for index, (declared, arg) in enumerate(zip(fields, args)):
        if not bind_type_vars(declared, arg.type, frozenset(params), bound):
            parser.error(
                token,
                f"field #{index} of {token.text} has type {parser.type_text(arg.type)}, "
                f"which does not fit {parser.type_text(declared)}",
            )
    instance = {p: bound.get(p, IncompleteType()) for p in params}
    args = [refine(a, substitute(d, instance)) or a for a, d in zip(args, fields)]
    type_: Attribute = AdtType(type_def.type_name, [bound.get(p, IncompleteType()) for p in params])
    annotated, location = parser.annotation()
    if annotated is not None:
        if not compatible(annotated, type_):
            parser.error(
                token,
                f"{token.text}(...) has type {parser.type_text(type_)} but is annotated as "
                f"{parser.type_text(annotated)}",
            )
        type_ = join(annotated, type_)
    op = ConstructOp(token.text, args, type_)
    parser.insert(op, location)
    return op.result


def returned(value: SSAValue, declared: Attribute) -> SSAValue | None:
    """`value` as a body's result of the `declared` return type (see `refine`);
    None when it has another type."""
    refined = refine(value, declared)
    return refined if refined is not None and agrees(refined.type, declared) else None


def refine(value: SSAValue, type_: Attribute) -> SSAValue | None:
    """`value`, given the better known `type_` where its op allows it (a
    constructor application or a match, whose uses are updated); None when
    `value` does not fit `type_`."""
    if value.type == type_:
        return value
    if not compatible(value.type, type_):
        return None
    if isinstance(value, OpResult) and isinstance(value.owner, ConstructOp | MatchOp):
        owner = value.owner
        value = Rewriter.replace_value_with_new_type(value, join(type_, value.type))
        if isinstance(owner, MatchOp):
            for region in owner.clauses:
                terminator = region.block.last_op
                assert isinstance(terminator, MatchYieldOp)
                refine(terminator.value, value.type)
    return value


def parse_match(parser: _RelayParser, scope: _Scope) -> SSAValue:
    """``match (e) {...}`` or ``match? (e) {...}``: the next token is ``match``."""
    match_token = parser.next()
    partial = parser.accept("?") is not None
    data = parser.value_of(parser.parse_postfix(scope), match_token)
    parser.expect("{", "to open the match clauses")
    clauses: list[tuple[Attribute, Region]] = []
    results: list[SSAValue] = []
    outer = parser.block
    while not parser.at("}"):
        variables: list[tuple[Token, Attribute | None]] = []
        pattern_token = parser.peek()
        pattern = _parse_pattern(parser, variables)
        types: list[Attribute] = []
        _pattern_types(parser, pattern, data.type, types, pattern_token)
        block = Block(arg_types=[_declared(t, d) for (_, d), t in zip(variables, types)])
        clause_scope = scope.child()
        for (token, declared), arg, type_ in zip(variables, block.args, types):
            if declared is not None and not compatible(declared, type_):
                parser.error(
                    token,
                    f"{token.text} is declared as {parser.type_text(declared)} but the pattern "
                    f"matches a {parser.type_text(type_)}",
                )
            set_relay_name(arg, token.text[1:])
            clause_scope.names[token.text] = arg
        parser.expect("=", "before '=>' in a match clause")
        parser.expect(">", "in '=>'")
        parser.block = block
        parser.one_region_depth += 1
        try:
            if parser.at("{"):
                parser.next()
                result = parser.parse_body(clause_scope)
                parser.expect("}", "to close the clause")
            else:
                # TVM's ParseExpr: bindings may precede the clause's value.
                result = parser.value_of(
                    parser.parse_sequence(clause_scope, nested=False), pattern_token
                )
        finally:
            parser.one_region_depth -= 1
        block.add_op(MatchYieldOp(result))
        parser.block = outer
        clauses.append((pattern, Region(block)))
        results.append(result)
        if not parser.accept(","):
            break
    parser.expect("}", "to close the match clauses")
    result_type: Attribute = IncompleteType()
    for result in results:
        if not compatible(result_type, result.type):
            parser.error(
                match_token,
                f"the clauses of this match have different types: "
                f"{parser.type_text(result_type)} and {parser.type_text(result.type)}",
            )
        result_type = join(result_type, result.type)
    annotated, location = parser.annotation()
    if annotated is not None:
        if not compatible(annotated, result_type):
            parser.error(
                match_token,
                f"match has type {parser.type_text(result_type)} but is annotated as "
                f"{parser.type_text(annotated)}",
            )
        result_type = join(annotated, result_type)
    for result in results:
        refine(result, result_type)
    if not partial:
        _check_exhaustive(parser, [pattern for pattern, _ in clauses], match_token)
    op = MatchOp(data, result_type, clauses, partial=partial)
    parser.insert(op, location)
    return op.result


def _check_exhaustive(parser: _RelayParser, patterns: list[Attribute], match_token: Token) -> None:
    """Refuse a complete ``match`` that misses a case, as TVM's type inference does."""
    cases = unmatched_cases(
        patterns, lambda name: parser.adts.constructors[name][0].constructors.data
    )
    if cases:
        parser.error(match_token, not_handled(cases))


def _declared(type_: Attribute, declared: Attribute | None) -> Attribute:
    return type_ if declared is None else join(declared, type_)


def _parse_pattern(
    parser: _RelayParser, variables: list[tuple[Token, Attribute | None]]
) -> Attribute:
    token = parser.peek()
    if token.kind is Kind.IDENT and token.text == "_":
        parser.next()
        return PatternWildcardAttr()
    if token.kind is Kind.LOCAL:
        parser.next()
        declared = parser.parse_type() if parser.accept(":") else None
        variables.append((token, declared))
        return PatternVarAttr()
    if token.kind is Kind.IDENT:
        parser.next()
        if token.text not in parser.adts.constructors:
            parser.error(
                token,
                f"undefined constructor name `{token.text}`; a pattern variable is "
                f"written `%{token.text}`",
            )
        fields = _parse_pattern_list(parser, variables) if parser.at("(") else []
        return PatternConstructorAttr(token.text, fields)
    if token.kind is Kind.PUNCT and token.text == "(":
        return PatternTupleAttr(_parse_pattern_list(parser, variables))
    parser.error(token, f"expected a pattern, found '{token.text}'")


def _parse_pattern_list(
    parser: _RelayParser, variables: list[tuple[Token, Attribute | None]]
) -> list[Attribute]:
    open_token = parser.expect("(")
    parser.nest(open_token, "pattern")
    fields: list[Attribute] = []
    while not parser.at(")"):
        fields.append(_parse_pattern(parser, variables))
        if not parser.accept(","):
            break
    parser.expect(")", "to close the pattern")
    parser.depth -= 1
    return fields


def _pattern_types(
    parser: _RelayParser,
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
            parser.error(
                token,
                f"a tuple pattern of {len(fields)} field(s) cannot match a value of type "
                f"{parser.type_text(type_)}",
            )
        for sub, sub_type in zip(fields, field_types):
            _pattern_types(parser, sub, sub_type, out, token)
    elif isinstance(pattern, PatternConstructorAttr):
        name = pattern.constructor.data
        type_def, constructor = parser.adts.constructors[name]
        if not isinstance(type_, IncompleteType) and not (
            isinstance(type_, AdtType) and type_.type_name == type_def.type_name
        ):
            parser.error(
                token,
                f"constructor {name} of {type_def.type_name.data} cannot match a value of type "
                f"{parser.type_text(type_)}",
            )
        field_types = constructor_field_types(type_def, constructor, type_)
        if len(pattern.fields) != len(field_types):
            parser.error(
                token,
                f"constructor {name} has {len(field_types)} field(s), the pattern gives "
                f"{len(pattern.fields)}",
            )
        for sub, sub_type in zip(pattern.fields.data, field_types):
            _pattern_types(parser, sub, sub_type, out, token)
