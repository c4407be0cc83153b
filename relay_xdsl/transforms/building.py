"""Building Relay expressions inside a pass, the way TVM's C++ passes call ``Call(op, ...)``.

An :class:`ExpressionBuilder` inserts operator calls and scalar constants at
one place in a block, each call typed by its operator's relation (as
``InferType`` would type it after the pass), with attributes stored as the
importer stores those of Relay text (``i32`` integers and integer arrays,
``i1`` booleans), so a built call prints as TVM prints the one its pass
builds.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, cast

from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.attributes import stored
from relay_xdsl.dialects.relay.dtypes import bit_width
from relay_xdsl.dialects.relay.inference import infer_type

AttrValue = int | bool | Sequence[int]


class BuildError(Exception):
    """A built call that its operator's relation rejects: the pass cannot
    express the rewrite for these types."""


def attribute(value: AttrValue) -> Attribute:
    """`value` stored as the importer stores the same Relay attribute."""
    return stored(value if isinstance(value, int) else [int(v) for v in value])


def tensor_type(value: SSAValue) -> TensorType:
    """The tensor type of `value`; a :class:`BuildError` for anything else."""
    type_ = value.type
    if not isinstance(type_, TensorType):
        raise BuildError(f"expected a tensor, got {type_}")
    return type_


def shape(value: SSAValue) -> list[int]:
    return list(tensor_type(value).get_shape())


class ExpressionBuilder:
    """Inserts new ops before `anchor` (or at `point`), in order."""

    def __init__(self, point: InsertPoint):
        self.point = point
        self.built: list[Operation] = []

    @classmethod
    def before(cls, anchor: Operation) -> ExpressionBuilder:
        return cls(InsertPoint.before(anchor))

    def insert(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        self.built.append(op)
        return op

    def call(self, operator: str, *args: SSAValue, **attributes: AttrValue) -> SSAValue:
        """The call ``operator(args, attributes)``, typed by the operator's relation."""
        op_class = relay.OPERATORS[operator]
        stored = {name: attribute(value) for name, value in attributes.items()}
        result_type = infer_type(op_class.OPERATOR, [a.type for a in args], stored)
        if result_type is None:
            types = ", ".join(str(a.type) for a in args)
            raise BuildError(f"'{operator}' rejects ({types}) with {attributes}")
        return self.insert(op_class(list(args), result_type, stored)).results[0]

    def scalar(self, element: Attribute, number: float) -> SSAValue:
        """A scalar constant of element type `element`, as ``MakeConstantScalar``
        makes it (Relay text prints it as a literal, ``1e-05f``)."""
        return self.insert(scalar_constant(element, number)).results[0]


def scalar_constant(element: Attribute, number: float) -> relay.ConstantOp:
    """A ``relay.constant`` holding `number` as a scalar of element type `element`."""
    width = bit_width(element)
    if isinstance(element, IntegerType):
        if width == 1:
            data = struct.pack("<?", bool(number))
        else:
            data = int(number).to_bytes(width // 8, "little", signed=True)
    else:
        data = struct.pack({16: "<e", 32: "<f", 64: "<d"}[width], number)
    type_ = TensorType(element, [])
    value = DenseIntOrFPElementsAttr(cast(TensorType[Any], type_), BytesAttr(data))
    return relay.ConstantOp(type_, value)


def expand_bias_to_match_axis(
    builder: ExpressionBuilder, bias: SSAValue, target_ndim: int, axes: Sequence[int]
) -> SSAValue:
    """TVM's ``ExpandBiasToMatchAxis``: `bias` (one dimension per axis of
    `axes`, sorted) given ``expand_dims`` so that it broadcasts against a
    tensor of rank `target_ndim` along `axes`."""
    for i in range(len(axes), 0, -1):
        if i == len(axes):
            pad = target_ndim - axes[i - 1] - 1
        else:
            pad = axes[i] - axes[i - 1]
        if pad > 0:
            bias = builder.call("expand_dims", bias, axis=i, num_newaxis=pad)
    return bias
