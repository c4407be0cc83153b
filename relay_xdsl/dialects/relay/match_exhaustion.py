"""Which values a ``match`` leaves unhandled: TVM's match exhaustion check.

A complete ``match`` (not ``match?``) must handle every value of its data's
type; TVM's type inference rejects one that does not, naming the cases it
misses (``src/relay/analysis/match_exhaustion.cc``). :func:`unmatched_cases`
follows TVM's algorithm:

* the candidates start as the single pattern ``_`` (any value);
* a candidate is checked against the clauses in order: a clause *clashes*
  with it (a different constructor somewhere), *matches* it (the clause's
  pattern covers every value the candidate stands for: a variable or ``_``
  covers anything), or is *unspecified* (the clause tells apart values the
  candidate does not: a constructor or a tuple against ``_``);
* at the first clause that does not clash, a matched candidate is handled;
  an unspecified one is replaced by its expansion against that clause: a
  ``_`` facing a constructor pattern becomes each constructor of the type,
  its fields ``_``; a ``_`` facing a tuple pattern a tuple of ``_``; a
  constructor or tuple facing its own kind expands its fields, all
  combinations of them;
* a candidate every clause clashes with is an unhandled case.

Candidates are taken last in, first out, as TVM's stack takes them, so the
cases come out in TVM's order. :func:`case_text` spells a case as Relay
text does (``Cons(_, Nil)``, ``(_, _)``), and :func:`not_handled` the error
that names them. The Relay text importer checks every ``match`` it reads,
``relay-infer-type`` every ``relay.match`` without ``partial``
(:func:`missing_cases`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from itertools import product

from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.adts import (
    ConstructorAttr,
    MatchOp,
    PatternConstructorAttr,
    PatternTupleAttr,
    PatternWildcardAttr,
    lookup_constructor,
)

ConstructorsOf = Callable[[str], Sequence[ConstructorAttr]]
"""The constructors of the type that has the named constructor, in definition order."""


class _Check(Enum):
    MATCH = 0
    CLASH = 1
    UNSPECIFIED = 2


def _fields(pattern: PatternConstructorAttr | PatternTupleAttr) -> tuple[Attribute, ...]:
    return pattern.fields.data


def _check(clause: Attribute, candidate: Attribute) -> _Check:
    """How `clause`'s pattern stands to the values `candidate` stands for."""
    if isinstance(clause, PatternConstructorAttr):
        if not isinstance(candidate, PatternConstructorAttr):
            return _Check.UNSPECIFIED
        if clause.constructor != candidate.constructor:
            return _Check.CLASH
    elif isinstance(clause, PatternTupleAttr):
        if not isinstance(candidate, PatternTupleAttr):
            return _Check.UNSPECIFIED
    else:  # a variable or a wildcard
        return _Check.MATCH
    checks = [_check(c, d) for c, d in zip(_fields(clause), _fields(candidate))]
    if _Check.CLASH in checks:
        return _Check.CLASH
    return _Check.UNSPECIFIED if _Check.UNSPECIFIED in checks else _Check.MATCH


def _expand(
    clause: Attribute, candidate: Attribute, constructors_of: ConstructorsOf
) -> list[Attribute]:
    """`candidate` split into the candidates `clause` tells apart."""
    if isinstance(clause, PatternConstructorAttr):
        if isinstance(candidate, PatternWildcardAttr):
            return [
                PatternConstructorAttr(c.ctor_name, [PatternWildcardAttr()] * len(c.fields.data))
                for c in constructors_of(clause.constructor.data)
            ]
        assert isinstance(candidate, PatternConstructorAttr)
        return [
            PatternConstructorAttr(candidate.constructor, fields)
            for fields in _field_combinations(clause, candidate, constructors_of)
        ]
    if isinstance(clause, PatternTupleAttr):
        if isinstance(candidate, PatternWildcardAttr):
            return [PatternTupleAttr([PatternWildcardAttr()] * len(clause.fields.data))]
        assert isinstance(candidate, PatternTupleAttr)
        return [
            PatternTupleAttr(fields)
            for fields in _field_combinations(clause, candidate, constructors_of)
        ]
    return [candidate]


def _field_combinations(
    clause: PatternConstructorAttr | PatternTupleAttr,
    candidate: PatternConstructorAttr | PatternTupleAttr,
    constructors_of: ConstructorsOf,
) -> list[tuple[Attribute, ...]]:
    """Every combination of the expansions of the candidate's fields against
    the clause's, the last field varying slowest (TVM's ``CartesianProduct``)."""
    per_field = [
        _expand(c, d, constructors_of) for c, d in zip(_fields(clause), _fields(candidate))
    ]
    return [tuple(reversed(combination)) for combination in product(*reversed(per_field))]


def unmatched_cases(
    patterns: Sequence[Attribute], constructors_of: ConstructorsOf
) -> list[Attribute]:
    """The cases (patterns of ``_``, constructors and tuples) that none of
    the clause `patterns` handles, in TVM's order; empty for an exhaustive match."""
    candidates: list[Attribute] = [PatternWildcardAttr()]
    unmatched: list[Attribute] = []
    while candidates:
        candidate = candidates.pop()
        for clause in patterns:
            check = _check(clause, candidate)
            if check is _Check.CLASH:
                continue
            if check is _Check.UNSPECIFIED:
                candidates.extend(_expand(clause, candidate, constructors_of))
            break
        else:
            unmatched.append(candidate)
    return unmatched


def case_text(case: Attribute) -> str:
    """A case as Relay text writes the pattern: ``Cons(_, Nil)``, ``(_, _)``, ``_``."""
    if isinstance(case, PatternConstructorAttr):
        fields = _fields(case)
        inner = ", ".join(case_text(f) for f in fields)
        return f"{case.constructor.data}({inner})" if fields else case.constructor.data
    if isinstance(case, PatternTupleAttr):
        fields = _fields(case)
        inner = ", ".join(case_text(f) for f in fields)
        return f"({inner},)" if len(fields) == 1 else f"({inner})"
    return "_"


def missing_cases(match: MatchOp) -> list[Attribute]:
    """The cases a ``relay.match`` without ``partial`` leaves unhandled (none
    for a partial one); its constructors are those of its module's type
    definitions."""
    if match.partial is not None:
        return []

    def constructors_of(name: str) -> Sequence[ConstructorAttr]:
        found = lookup_constructor(match, name)
        return found[0].constructors.data if found is not None else ()

    return unmatched_cases(match.patterns.data, constructors_of)


def not_handled(cases: Sequence[Attribute]) -> str:
    """The error for a ``match`` that leaves `cases` unhandled, worded as TVM's."""
    return "match expression does not handle the following cases: " + ", ".join(
        case_text(case) for case in cases
    )
