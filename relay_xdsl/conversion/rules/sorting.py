"""Sorting: ``argsort``, ``sort`` and ``topk`` by ranks, in TOSA.

The sorted axis is moved last and the others merged, ``(rows, n)``. Each
element's rank is the number of elements that come before it: those
ordered before it (smaller ascending, larger descending) and the equal
ones at a smaller position, which makes the sort stable as TVM's
(``std::stable_sort``); NaN counts as larger than every number, as numpy
orders it. The comparisons of every pair are ``(rows, n, n)`` booleans,
summed over one axis; the index at output position ``r`` is then the sum
of the positions whose rank is ``r`` (exactly one), and the values are
gathered from the data at those indices. ``topk`` keeps the first
``k`` positions (all for ``k < 1``).

The work and memory grow with ``n * n`` per row: meant for the axes that
networks sort (scores of a few thousand classes at most).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, TupleType, i32
from xdsl.ir import Attribute, SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.gather import gathered
from relay_xdsl.conversion.values import Lowered, Tensor
from relay_xdsl.interpreter.kernels.common import axis as normal_axis


class _Sorted:
    """The order of `x` along `axis`, the first `count` positions of it: the i32
    indices as (rows, count), and the means to give them `x` 's shape."""

    def __init__(self, call: RuleCall, x: Tensor, axis: int, ascending: bool, count: int):
        self.call, self.x, self.axis, self.count = call, x, axis, count
        emit = call.emit
        self.others = [a for a in range(x.rank) if a != axis]
        self.n = x.shape[axis]
        self.rows = math.prod(x.shape[a] for a in self.others)
        moved = emit.transpose(call.value(x), self.others + [axis])
        self.data = emit.reshape(moved, (self.rows, self.n))
        keys = self.data
        if x.element_type == IntegerType(1):
            keys = emit.cast(keys, i32)
        self.indices = self._placed(self._ranks(emit.widened(keys), ascending))

    def _ranks(self, keys: SSAValue, ascending: bool) -> SSAValue:
        """How many elements of its row come before each of `keys` (rows, n):
        (rows, 1, n) i32."""
        emit, rows, n = self.call.emit, self.rows, self.n
        pairs = TensorType(IntegerType(1), (rows, n, n))
        mine = emit.reshape(keys, (rows, n, 1))  # element i
        other = emit.reshape(keys, (rows, 1, n))  # element j
        # j comes before i where x_i > x_j ascending, x_j > x_i descending
        before = emit.op("greater", [mine, other] if ascending else [other, mine], pairs)
        equal = emit.op("equal", [mine, other], pairs)
        if not isinstance(keys.type.get_element_type(), IntegerType):  # type: ignore[attr-defined]
            before, equal = self._nan_ordered(before, equal, mine, other, ascending)
        # j < i from the positions rather than an (n, n) boolean constant, which
        # grows with n * n and whose large hex form upstream MLIR misreads
        positions = np.arange(n, dtype=np.int32)
        earlier = emit.op(
            "greater",
            [
                emit.const(positions.reshape(1, n, 1), i32),
                emit.const(positions.reshape(1, 1, n), i32),
            ],
            TensorType(IntegerType(1), (1, n, n)),
        )
        tie = emit.op("logical_and", [equal, earlier], pairs)
        precedes = emit.op("logical_or", [before, tie], pairs)
        ranks = emit.reduce("sum", emit.cast(precedes, i32), 2)  # (rows, n, 1)
        return emit.reshape(ranks, (rows, 1, n))

    def _placed(self, ranks: SSAValue) -> SSAValue:
        """The position holding each rank below `count`: (rows, count) i32."""
        emit, rows, n, count = self.call.emit, self.rows, self.n, self.count
        wanted = np.arange(count, dtype=np.int32).reshape(1, count, 1)
        placed = emit.op(
            "equal",
            [ranks, emit.const(wanted, i32)],
            TensorType(IntegerType(1), (rows, count, n)),
        )
        sources = np.arange(n, dtype=np.int32).reshape(1, 1, n)
        chosen = emit.select(
            placed,
            emit.const(sources, i32),
            emit.scalar(0, i32, 3),
            TensorType(i32, (rows, count, n)),
        )
        return emit.reshape(emit.reduce("sum", chosen, 2), (rows, count))

    def _nan_ordered(
        self, before: SSAValue, equal: SSAValue, mine: SSAValue, other: SSAValue, ascending: bool
    ) -> tuple[SSAValue, SSAValue]:
        """`before` and `equal` with NaN larger than every number and equal to NaN."""
        emit = self.call.emit
        pairs = before.type

        def nan(x: SSAValue) -> SSAValue:
            shape = x.type.get_shape()  # type: ignore[attr-defined]
            boolean = TensorType(IntegerType(1), shape)
            return emit.op("logical_not", [emit.op("equal", [x, x], boolean)], boolean)

        nan_mine, nan_other = nan(mine), nan(other)
        larger, smaller = (nan_mine, nan_other) if ascending else (nan_other, nan_mine)
        ordered = emit.op(
            "logical_and", [larger, emit.op("logical_not", [smaller], smaller.type)], pairs
        )
        both = emit.op("logical_and", [nan_mine, nan_other], pairs)
        return emit.op("logical_or", [before, ordered], pairs), emit.op(
            "logical_or", [equal, both], pairs
        )

    def _shaped(self, value: SSAValue, element: Attribute) -> Tensor:
        """`value` (rows, count) in `x` 's shape with `count` along the axis."""
        emit = self.call.emit
        outer = [self.x.shape[a] for a in self.others]
        value = emit.reshape(value, outer + [self.count])
        inverse = [0] * self.x.rank
        for position, a in enumerate(self.others + [self.axis]):
            inverse[a] = position
        value = emit.transpose(value, inverse)
        return Tensor(TensorType(element, value.type.get_shape()), value)  # type: ignore[attr-defined]

    def indices_as(self, element: Attribute) -> Tensor:
        return self._shaped(self.call.emit.cast(self.indices, element), element)

    def values(self) -> Tensor:
        emit = self.call.emit
        element = self.x.element_type
        data = emit.reshape(self.data, (self.rows, self.n, 1))
        result = emit.reshape(gathered(emit, data, self.indices), (self.rows, self.count))
        return self._shaped(result, element)


def _sorted(call: RuleCall, ascending: bool, count: int | None = None) -> _Sorted:
    x = call.tensor(0)
    axis = normal_axis(int(call.call.attr("axis")), x.rank)
    n = x.shape[axis]
    return _Sorted(call, x, axis, ascending, n if count is None or count < 1 else min(count, n))


@lowering("argsort")
def argsort(call: RuleCall) -> Tensor:
    """The positions that sort `x` along ``axis`` (stable), as ``dtype``."""
    order = _sorted(call, bool(call.call.attr("is_ascend")))
    return order.indices_as(call.result_type.get_element_type())


@lowering("sort")
def sort(call: RuleCall) -> Tensor:
    """`x` sorted along ``axis`` (stable)."""
    return _sorted(call, bool(call.call.attr("is_ascend"))).values()


@lowering("topk")
def topk(call: RuleCall) -> Lowered:
    """The ``k`` largest (smallest with ``is_ascend``) elements along ``axis``,
    in order, and their positions: both as a tuple, or one as ``ret_type`` says."""
    order = _sorted(call, bool(call.call.attr("is_ascend")), int(call.call.attr("k")))
    ret_type = str(call.call.attr("ret_type"))
    result = call.op.result.type
    if ret_type == "values":
        return order.values()
    if ret_type == "indices":
        assert isinstance(result, TensorType)
        return order.indices_as(result.get_element_type())
    assert isinstance(result, TupleType)
    index_type = result.types.data[1]
    assert isinstance(index_type, TensorType)
    return order.values(), order.indices_as(index_type.get_element_type())
