"""Making an op of the common shape, operands, one result and attributes,
as ``Operation.create`` makes it (`created`).

Operator calls, ``relay.let`` bindings and constants make up nearly all of
a module, imported from Relay text or parsed from MLIR, and they all have
this shape; ``Operation.create`` costs about five times `created`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.dialects.builtin import UNKNOWN_LOC, LocationAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.core import OpResult, SSAValues
from xdsl.irdl import IRDLOperation, OptionalDef

from relay_xdsl.support.xdsl_internals import set_first_operands

O = TypeVar("O", bound=IRDLOperation)


def created(
    op_class: type[O],
    operands: Sequence[SSAValue],
    result_type: Attribute,
    attributes: dict[str, Attribute],
    location: LocationAttr | None = None,
) -> O:
    """``op_class.create(operands=operands, result_types=(result_type,),
    attributes=attributes, location=location)``, field by field: the same
    operands and uses, one result, a copy of `attributes` followed by the
    definition's defaults, no properties, successors or regions.

    ``Operation.create`` takes any number of each and fills every field
    generically; an import makes thousands of ops of this one shape.
    """
    op = op_class.__new__(op_class)
    set_first_operands(op, operands)
    op.results = SSAValues((OpResult(result_type, op, 0),))
    properties, defaults = _defaults(op_class)
    op.properties = dict(properties)
    op.attributes = attributes = dict(attributes)
    for name, value in defaults:
        if name not in attributes:
            attributes[name] = value
    op.location = UNKNOWN_LOC if location is None else location
    return op


def _defaults(
    op_class: type[IRDLOperation],
) -> tuple[dict[str, Attribute], tuple[tuple[str, Attribute], ...]]:
    """The properties and attributes ``IRDLOperation.__post_init__`` fills in
    on an op of `op_class` that has none: those its definition gives a
    default and does not make optional."""
    known = _DEFAULTS.get(op_class)
    if known is None:
        op_def = op_class.get_irdl_definition()
        assert not op_def.regions and not op_def.successors  # what `created` leaves out
        known = _DEFAULTS[op_class] = (
            {
                name: spec.default_value
                for name, spec in op_def.properties.items()
                if not isinstance(spec, OptionalDef) and spec.default_value is not None
            },
            tuple(
                (name, spec.default_value)
                for name, spec in op_def.attributes.items()
                if not isinstance(spec, OptionalDef) and spec.default_value is not None
            ),
        )
    return known


_DEFAULTS: dict[
    type[IRDLOperation], tuple[dict[str, Attribute], tuple[tuple[str, Attribute], ...]]
] = {}
"""Each op class's default properties and attributes (`_defaults`)."""
