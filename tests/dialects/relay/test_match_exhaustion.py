"""TVM's match exhaustion check: which cases a match's clauses leave unhandled."""

from __future__ import annotations

import pytest
from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.adts import (
    ConstructorAttr,
    PatternConstructorAttr,
    PatternTupleAttr,
    PatternVarAttr,
    PatternWildcardAttr,
)
from relay_xdsl.dialects.relay.match_exhaustion import case_text, unmatched_cases
from relay_xdsl.dialects.relay.types import AdtType, TypeVarType

A = TypeVarType("A")
LIST = (ConstructorAttr("Cons", [A, AdtType("List", [A])]), ConstructorAttr("Nil"))
COLOUR = (ConstructorAttr("Red"), ConstructorAttr("Green"), ConstructorAttr("Blue"))
TYPES = {c.ctor_name.data: ctors for ctors in (LIST, COLOUR) for c in ctors}

_ = PatternWildcardAttr()
X = PatternVarAttr()
NIL = PatternConstructorAttr("Nil")


def cons(head: Attribute, tail: Attribute) -> PatternConstructorAttr:
    return PatternConstructorAttr("Cons", [head, tail])


def colour(name: str) -> PatternConstructorAttr:
    return PatternConstructorAttr(name)


def unhandled(*patterns: Attribute) -> list[str]:
    return [case_text(case) for case in unmatched_cases(patterns, TYPES.__getitem__)]


@pytest.mark.parametrize(
    ("patterns", "cases"),
    [
        ((), ["_"]),
        ((X,), []),
        ((_,), []),
        ((NIL, cons(X, X)), []),
        ((NIL,), ["Cons(_, _)"]),
        ((cons(X, NIL),), ["Nil", "Cons(_, Cons(_, _))"]),
        ((cons(X, cons(_, _)), NIL, cons(X, NIL)), []),
        ((colour("Red"),), ["Blue", "Green"]),
        ((colour("Green"), _), []),
        # Clauses after one that matches every case change nothing.
        ((_, colour("Red")), []),
    ],
)
def test_constructors(patterns: tuple[Attribute, ...], cases: list[str]):
    assert unhandled(*patterns) == cases


def test_tuples_expand_each_field_against_the_clause():
    pair = PatternTupleAttr
    # In TVM's order: the last candidate pushed is checked first.
    assert unhandled(pair([colour("Red"), _]), pair([_, colour("Red")])) == [
        "(Blue, Blue)",
        "(Blue, Green)",
        "(Green, Blue)",
        "(Green, Green)",
    ]
    assert unhandled(pair([NIL, X]), pair([cons(X, X), X])) == []
    assert unhandled(pair([X])) == []


def test_case_text_spells_patterns_as_relay_text():
    assert case_text(cons(_, NIL)) == "Cons(_, Nil)"
    assert case_text(PatternTupleAttr([_])) == "(_,)"
    assert case_text(PatternTupleAttr([])) == "()"
