"""The ``relay`` Dialect: the op classes generated from the registry rows
(:mod:`.operator_ops`), the structural ops, and the tables that find an
operator's op class."""

from __future__ import annotations

from xdsl.ir import Dialect

from relay_xdsl.dialects.relay import operator_ops
from relay_xdsl.dialects.relay.adts import ADT_ATTRS, ADT_OPS
from relay_xdsl.dialects.relay.bindings import LetOp
from relay_xdsl.dialects.relay.closures import CallOp, FunctionOp, GlobalOp, OperatorRefOp
from relay_xdsl.dialects.relay.control import IfOp
from relay_xdsl.dialects.relay.meta import MetaRefAttr
from relay_xdsl.dialects.relay.ops import GenericOperatorOp, RegisteredOperatorOp
from relay_xdsl.dialects.relay.references import RefOp, RefReadOp, RefWriteOp
from relay_xdsl.dialects.relay.relax_mapping import RelaxOp
from relay_xdsl.dialects.relay.structure import (
    ConstantOp,
    FnOp,
    ReturnOp,
    TupleGetItemOp,
    TupleOp,
)
from relay_xdsl.dialects.relay.types import RELAY_TYPES

OPERATOR_OPS: tuple[type[RegisteredOperatorOp], ...] = operator_ops.RELAY_OPERATOR_OPS
"""The op class of every Relay operator."""

RELAX_OPERATOR_OPS: tuple[type[RegisteredOperatorOp], ...] = operator_ops.RELAX_OPERATOR_OPS
"""The op class of every Relax operator without an exact Relay counterpart."""

OPERATORS: dict[str, type[RegisteredOperatorOp]] = {op.OPERATOR.name: op for op in OPERATOR_OPS}
"""Relay operator name → op class, for every Relay operator."""

RELAX_OPERATORS: dict[str, type[RegisteredOperatorOp]] = {
    op.OPERATOR.name: op for op in RELAX_OPERATOR_OPS
}
"""Relax operator name → op class, for the Relax-only operators."""

RELAX_MAPPED: dict[str, tuple[type[RegisteredOperatorOp], ...]] = {}
"""Relax operator name (``relax.nn.conv2d``) → the op classes it may import as, in
the order import tries them: the Relay operator first, then a Relax-only one
that holds the Relax fields the Relay operator lacks (``relax.nn.batch_norm``)."""
for _op in (*OPERATOR_OPS, *RELAX_OPERATOR_OPS):
    if isinstance(_op.OPERATOR.relax, RelaxOp):
        _name = _op.OPERATOR.relax.relax_name
        RELAX_MAPPED[_name] = (*RELAX_MAPPED.get(_name, ()), _op)

Relay = Dialect(
    "relay",
    [
        *OPERATOR_OPS,
        *RELAX_OPERATOR_OPS,
        GenericOperatorOp,
        ConstantOp,
        TupleOp,
        TupleGetItemOp,
        FnOp,
        ReturnOp,
        LetOp,
        IfOp,
        FunctionOp,
        CallOp,
        GlobalOp,
        OperatorRefOp,
        RefOp,
        RefReadOp,
        RefWriteOp,
        *ADT_OPS,
    ],
    [*RELAY_TYPES, MetaRefAttr, *ADT_ATTRS],
)
