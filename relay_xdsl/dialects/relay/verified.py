"""Verifying an op once for each distinct thing its checks read.

A graph repeats the same operator call (operator, argument and result
types, attributes) thousands of times, and ``xdsl-opt`` verifies the module
before and after its passes. For an op without regions whose own checks
read only its operand and result types, attributes and properties, the
outcome of its ``verify_`` (its definition's constraints, then its own
checks) is a function of those: `verified_by_key` runs them once per
distinct key and skips them for an op whose key has verified before.
xDSL's ``Operation.verify`` still runs for every op; the definition's
trait checks are part of ``verify_``, so a key for an op whose traits
read where it sits (a terminator ending its block) must hold that too.

With the default key, and with a key of an op's own given what stands for
its attributes (a constant's: its tensor's type, not its contents), an op
is first looked up by the identities of what the key holds: a parsed graph
shares its types and attributes, and hashing those by value walks them all.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from xdsl.dialects.builtin import FunctionType, TupleType
from xdsl.ir import Operation

from relay_xdsl.support.memo import register

Op = TypeVar("Op", bound=type[Operation])

_NESTING_TYPES = (TupleType, FunctionType)
_VERIFIED: set[Hashable] = set()
"""Keys of ops whose ``verify_`` passed."""
_VERIFIED_LIMIT = 100_000
register(_VERIFIED.clear)
_VERIFIED_IDENTITIES: dict[tuple[object, ...], tuple[object, ...]] = {}
"""Identity keys (`_identity_key`) of ops whose ``verify_`` passed, each
with the objects whose identities it holds: kept alive, so an identity is
not reused while the entry stands."""
register(_VERIFIED_IDENTITIES.clear)


def _identity_key(
    op: Operation, attribute_objects: Sequence[object]
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """`verification_key`'s contents by identity, and the objects identified:
    `attribute_objects` stand for the attributes (see `verified_by_key`)."""
    operand_types = [operand.type for operand in op.operands]
    result_types = [result.type for result in op.results]
    attributes = op.attributes
    properties = op.properties
    objects = (*operand_types, *result_types, *attribute_objects, *properties.values())
    key = (
        type(op),
        len(operand_types),
        len(result_types),
        *attributes,
        None,  # the attribute names end here
        *properties,
        len(op.regions),
        len(op.successors),
        *map(id, objects),
    )
    return key, objects


def attribute_values(op: Operation) -> Sequence[object]:
    """An op's attribute values: what `verification_key` reads of its attributes."""
    return tuple(op.attributes.values())


def verification_key(op: Operation, attributes: Hashable | None = None) -> Hashable | None:
    """What an op's ``verify_`` may read: its class, its operand and result
    types, attributes (or what `attributes` keeps of them), properties, and
    how many regions and successors it has. None (verify it every time) when
    a type nests: hashing a tuple of tuples walks it all, so a key per op of a
    deep nest would cost more than its checks."""
    operand_types = tuple(operand.type for operand in op.operands)
    result_types = tuple(result.type for result in op.results)
    if any(isinstance(t, _NESTING_TYPES) for t in operand_types + result_types):
        return None
    return (
        type(op),
        operand_types,
        result_types,
        tuple(op.attributes.items()) if attributes is None else attributes,
        tuple(op.properties.items()),
        len(op.regions),
        len(op.successors),
    )


def verified_by_key(
    key: Callable[[Operation], Hashable | None] = verification_key,
    identified: Callable[[Operation], Sequence[object]] | None = None,
) -> Callable[[Op], Op]:
    """Decorate an op class, after ``irdl_op_definition``: its ``verify_``
    runs once per distinct `key` of its ops, which must determine the
    outcome (see the module docstring).

    With the default key an op is first looked up by identities, its
    attributes by their values' (`attribute_values`); a `key` of its own
    needs `identified` for that: the objects whose identities stand for
    an op's attributes as far as `key` reads them (none of them a class
    that is also an attribute's value)."""

    def decorate(cls: Op) -> Op:
        verify_fully = cls.verify_

        identify = attribute_values if key is verification_key else identified

        def verify_(self: Operation) -> None:
            if identify is not None:
                identity, objects = _identity_key(self, identify(self))
                if identity in _VERIFIED_IDENTITIES:
                    return
            op_key = key(self)
            if op_key is None:
                verify_fully(self)
            elif op_key not in _VERIFIED:
                verify_fully(self)
                if len(_VERIFIED) >= _VERIFIED_LIMIT:
                    _VERIFIED.clear()
                _VERIFIED.add(op_key)
            if identify is not None:
                if len(_VERIFIED_IDENTITIES) >= _VERIFIED_LIMIT:
                    _VERIFIED_IDENTITIES.clear()
                _VERIFIED_IDENTITIES[identity] = objects

        verify_.__doc__ = verify_fully.__doc__
        cls.verify_ = verify_  # type: ignore[method-assign]
        return cls

    return decorate
