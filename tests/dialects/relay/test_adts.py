"""Types with unknown parts: compatibility, joining and instantiation."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, FunctionType, TensorType, TupleType, f32, i32
from xdsl.ir import TypeAttribute

from relay_xdsl.dialects.relay.adts import (
    bind_type_vars,
    compatible,
    is_complete,
    join,
    substitute,
)
from relay_xdsl.dialects.relay.types import AdtType, IncompleteType, TypeVarType

F = TensorType(f32, [])
I = TensorType(i32, [])
A = TypeVarType("A")
UNKNOWN = IncompleteType()


def tup(*types: TypeAttribute) -> TupleType:
    return TupleType(ArrayAttr(types))


def test_incomplete_is_compatible_with_anything_inside_a_type():
    assert compatible(AdtType("List", [UNKNOWN]), AdtType("List", [F]))
    assert compatible(tup(UNKNOWN, F), tup(I, F))
    assert not compatible(AdtType("List", [I]), AdtType("List", [F]))
    assert not compatible(AdtType("List", [F]), AdtType("Option", [F]))
    assert not compatible(tup(F), tup(F, F))


def test_join_keeps_what_either_side_knows():
    assert join(tup(UNKNOWN, F), tup(I, UNKNOWN)) == tup(I, F)
    assert join(UNKNOWN, AdtType("List", [F])) == AdtType("List", [F])
    assert is_complete(join(AdtType("List", [UNKNOWN]), AdtType("List", [F])))
    assert not is_complete(FunctionType.from_lists([UNKNOWN], [F]))


def test_substitute_replaces_type_variables_everywhere():
    generic = FunctionType.from_lists([A, AdtType("List", [A])], [tup(A, A)])
    assert substitute(generic, {"A": F}) == FunctionType.from_lists(
        [F, AdtType("List", [F])], [tup(F, F)]
    )


def test_bind_type_vars_finds_an_instance_or_a_clash():
    bound: dict = {}
    assert bind_type_vars(
        tup(A, AdtType("List", [A])), tup(F, AdtType("List", [UNKNOWN])), frozenset("A"), bound
    )
    assert bound == {"A": F}
    assert not bind_type_vars(tup(A, A), tup(F, I), frozenset("A"), {})
    # A type variable that is not a parameter only matches itself.
    assert not bind_type_vars(A, F, frozenset(), {})
    assert bind_type_vars(A, A, frozenset(), {})
