"""Verifying an op once for each distinct thing its checks read.

A graph repeats the same operator call (operator, argument and result
types, attributes) thousands of times, and ``xdsl-opt`` verifies the module
before and after its passes. For an op without regions whose own checks
read only its operand and result types, attributes and properties, the
outcome of its ``verify_`` (its definition's constraints, then its own
checks) is a function of those: `verified_by_key` runs them once per
distinct key and skips them for an op whose key has verified before.
The checks that depend on where an op sits (a terminator ending its block)
are xDSL's ``Operation.verify``, which still runs for every op.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
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
) -> Callable[[Op], Op]:
    """Decorate an op class, after ``irdl_op_definition``: its ``verify_``
    runs once per distinct `key` of its ops, which must determine the
    outcome (see the module docstring)."""

    def decorate(cls: Op) -> Op:
        verify_fully = cls.verify_

        def verify_(self: Operation) -> None:
            op_key = key(self)
            if op_key is None:
                verify_fully(self)
                return
            if op_key in _VERIFIED:
                return
            verify_fully(self)
            if len(_VERIFIED) >= _VERIFIED_LIMIT:
                _VERIFIED.clear()
            _VERIFIED.add(op_key)

        verify_.__doc__ = verify_fully.__doc__
        cls.verify_ = verify_  # type: ignore[method-assign]
        return cls

    return decorate
