"""Operator calls known to agree with their type relation, as they were built.

The importer infers the type of every operator call whose argument types
are known, and rejects a ``ty=`` annotation the relation contradicts; the
printer refuses a call whose declared type its relation contradicts, so
that its text imports back. A call the importer checked, and that nothing
has changed since, needs no second inference: `record_agreement` keeps,
for such an op, its `agreement_record`: the very objects the verdict rests on (its result type,
argument types and attributes), and `agrees` says whether the op still has
exactly those. They are compared by identity, so a pass that changes an
operand, an attribute or a type makes the printer infer the call again;
each record keeps its objects alive, so an identity is never reused while
it is held, and goes with its op.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence

from xdsl.ir import Attribute, Operation

_RECORD = "_relay_agreement"
"""Where an op's record is kept: an entry of the op object's own ``__dict__``
(not an IR attribute), so that it lives and dies with the op, and a clone,
a new object, has none."""


def agreement_record(
    result_type: Attribute, arg_types: Sequence[Attribute], attributes: Mapping[str, Attribute]
) -> tuple[object, ...]:
    """What a verdict on a call of these result type, argument types and
    attributes rests on; the same for every such call, so it may be shared."""
    return (result_type, *arg_types, *attributes, *attributes.values())


def record_agreement(op: Operation, record: tuple[object, ...]) -> None:
    """Note that `op`, built with the result type, argument types and
    attributes of `record` (`agreement_record`), agrees with its operator's
    type relation (checked by the caller)."""
    op.__dict__[_RECORD] = record


def agrees(op: Operation) -> bool:
    """Whether `op` was recorded (`record_agreement`) and has not changed since."""
    recorded = op.__dict__.get(_RECORD)
    if recorded is None:
        return False
    current = agreement_record(
        op.results[0].type, [operand.type for operand in op.operands], op.attributes
    )
    return len(recorded) == len(current) and all(map(operator.is_, recorded, current))
