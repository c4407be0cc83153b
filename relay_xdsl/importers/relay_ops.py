"""The importer's builders of the ops a Relay text has thousands of.

Operator calls, ``relay.let`` bindings and constants make up nearly all of
an imported module. Their IRDL constructors check their arguments
generically (``irdl_op_init``: each operand and result against its
definition, segment sizes, optional attributes), which costs more than the
rest of building the op; the importer's arguments already have the shape
those checks ask for (one variadic operand list, one result, no ``None``
attributes). Each builder here makes the same op as the constructor, with
the same operands, result type, attributes and defaults, as
``Operation.create`` would (`created`); a class with a constructor of its own
goes through that constructor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntAttr,
    IntegerAttr,
    LocationAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.registry import Operator
from relay_xdsl.dialects.relay.type_agreement import agreement_record
from relay_xdsl.dialects.relay.type_solver import infer_checked
from relay_xdsl.support.created import created
from relay_xdsl.support.prebuilt import prebuilt, prebuilt_data


def operator_op(
    op_class: type[relay.OperatorOp],
    args: Sequence[SSAValue],
    result_type: Attribute,
    attributes: dict[str, Attribute],
    location: LocationAttr | None,
) -> Operation:
    """``op_class(args, result_type, attributes)``, located at `location` if given."""
    if op_class.__init__ is not relay.OperatorOp.__init__:
        op = op_class(args, result_type, attributes)
        if location is not None:
            op.location = location
        return op
    return created(op_class, args, result_type, attributes, location)


def let_op(value: SSAValue) -> relay.LetOp:
    """``relay.LetOp(value)``: a plain binding of `value`, of its type."""
    return created(relay.LetOp, (value,), value.type, {})


def tuple_get_item_op(value: SSAValue, index: int) -> relay.TupleGetItemOp:
    """``relay.TupleGetItemOp(value, index)``."""
    result_type, attributes = relay.TupleGetItemOp.parts(value.type, index)
    return created(relay.TupleGetItemOp, (value,), result_type, attributes)


def constant_op(
    result_type: Attribute,
    value: DenseIntOrFPElementsAttr | None = None,
    meta_index: int | None = None,
) -> relay.ConstantOp:
    """``relay.ConstantOp(result_type, value, meta_index)``."""
    attributes: dict[str, Attribute] = {}
    if value is not None:
        attributes["value"] = value
    if meta_index is not None:
        # A meta index is a non-negative literal: an i64 if below 2**63.
        attributes["meta_index"] = (
            prebuilt(IntegerAttr, prebuilt_data(IntAttr, meta_index), i64)
            if 0 <= meta_index < 2**63
            else IntegerAttr(meta_index, i64)
        )
    return created(relay.ConstantOp, (), result_type, attributes)


class CheckedCalls:
    """:func:`~relay_xdsl.dialects.relay.type_solver.infer_checked` with a
    table in front keyed by the identities of the argument types and
    attribute values.

    The importer shares its types and attribute values (one object per
    spelling), so a graph's repeated calls present the very same objects;
    looking them up by identity saves hashing each type and attribute again,
    which is most of a memoised check's cost. Each entry keeps its objects
    alive, so an identity is never reused while the table holds it.
    """

    def __init__(self) -> None:
        self.table: dict[
            tuple[Any, ...], tuple[Attribute | None, str | None, tuple[object, ...], Operator]
        ] = {}

    def __call__(
        self, operator: Operator, arg_types: list[Attribute], attributes: dict[str, Attribute]
    ) -> tuple[Attribute | None, str | None, tuple[object, ...]]:
        """The inferred type and the problem found (`infer_checked`), and the
        `agreement_record` of a call of that inferred type (empty without
        one), shared by every such call."""
        key = (id(operator), *attributes, *map(id, arg_types), *map(id, attributes.values()))
        entry = self.table.get(key)
        if entry is None:
            inferred, problem = infer_checked(operator, arg_types, attributes)
            record = () if inferred is None else agreement_record(inferred, arg_types, attributes)
            # The record holds the argument types and attribute values alive.
            entry = self.table[key] = (inferred, problem, record, operator)
        return entry[0], entry[1], entry[2]
