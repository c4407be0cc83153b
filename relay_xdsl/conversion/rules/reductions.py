"""Reductions: one ``tosa.reduce_*`` per reduced axis, in the operand's layout;
``tosa.argmax`` for the arg-reductions.

TOSA keeps each reduced axis with size one; without ``keepdims`` a reshape
drops them, which moves no data. The axes are the interpreter's
(``axis`` and ``exclude`` as TVM's ``GetReduceAxes``). TOSA sums integers
of 32 or 64 bits only: narrower ones are summed in i32 and narrowed back,
which wraps as their own sum does. ``tosa.reduce_product`` takes floats
only: integers are multiplied in halves, ``log2(n)`` ``tosa.mul`` per axis. ``mean`` and ``variance`` divide the sum
by the count (truncating on integers; float16 summed in float32, as TVM
does); ``variance`` takes the mean as its second argument.

``argmax`` and ``argmin`` move the reduced axes last, merged into one
(the flat index over them, row-major), where ``tosa.argmax`` finds the
first maximum; ``argmin`` is the ``argmax`` of the order reversed
(``-x`` for floats, ``~x`` for integers), and ``select_last_index``
reverses the axis and counts the index back from its end.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, f32, i8, i32, i64
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor
from relay_xdsl.interpreter.kernels.reductions import reduced_axes


def _summable(call: RuleCall, value: SSAValue) -> SSAValue:
    """`value` in a type TOSA sums as Relay does: 8- and 16-bit integers in
    i32, float16 in float32 where the operator sums it so (``mean``, ``variance``)."""
    element = value.type.get_element_type()  # type: ignore[attr-defined]
    if isinstance(element, IntegerType):
        return call.emit.widened(value)
    if call.name in ("mean", "variance"):
        return call.emit.cast(value, f32)
    return value


def _reduced(
    call: RuleCall, kind: str, x: Tensor, value: SSAValue, axes: list[int]
) -> tuple[SSAValue, tuple[int, ...]]:
    """``tosa.reduce_<kind>`` of `value` (`x` 's layout) over the logical `axes`,
    divided by the count for ``mean`` and ``variance``, in `x` 's element type,
    the axes dropped unless ``keepdims``: the value and its layout."""
    emit = call.emit
    integer = isinstance(value.type.get_element_type(), IntegerType)  # type: ignore[attr-defined]
    for axis in axes:
        if kind == "product" and integer:
            value = _multiplied(call, value, x.perm.index(axis))
        else:
            value = emit.reduce(kind, value, x.perm.index(axis))
    if call.name in ("mean", "variance"):
        if isinstance(x.element_type, IntegerType):  # the sum wraps as in Relay's own type
            value = emit.widened(emit.cast(value, x.element_type))
        value = _divided_by_count(call, value, math.prod(x.shape[a] for a in axes))
    value = emit.cast(value, x.element_type)
    if call.call.attr("keepdims"):
        return value, x.perm
    kept = [p for p in x.perm if p not in axes]
    renumber = {p: i for i, p in enumerate(sorted(kept))}
    return emit.reshape(value, [x.shape[p] for p in kept]), tuple(renumber[p] for p in kept)


def _multiplied(call: RuleCall, value: SSAValue, axis: int) -> SSAValue:
    """The product of integer `value` along `axis`, kept with size one: the
    first half times the second, an odd extent padded with a one."""
    emit = call.emit
    type_ = value.type
    assert isinstance(type_, TensorType)
    shape = list(type_.get_shape())
    while shape[axis] > 1:
        if shape[axis] % 2:
            pads = [0] * (2 * len(shape))
            pads[2 * axis + 1] = 1
            value = emit.pad(value, pads, 1)
            shape[axis] += 1
        shape[axis] //= 2
        start = [0] * len(shape)
        second = list(start)
        second[axis] = shape[axis]
        half = TensorType(type_.get_element_type(), shape)
        value = emit.mul(emit.slice(value, start, shape), emit.slice(value, second, shape), half)
    return value


def _divided_by_count(call: RuleCall, total: SSAValue, count: int) -> SSAValue:
    """`total` divided by `count` (less one for an unbiased variance):
    truncating on integers, times the reciprocal on floats."""
    if call.name == "variance" and call.call.attr("unbiased"):
        count -= 1
    type_ = total.type
    assert isinstance(type_, TensorType)
    element, rank = type_.get_element_type(), type_.get_num_dims()
    if isinstance(element, IntegerType):
        return call.emit.op("intdiv", [total, call.emit.scalar(count, element, rank)], type_)
    return call.emit.mul(total, call.emit.scalar(1 / count, element, rank), type_)


def _reduce(call: RuleCall, kind: str) -> Tensor:
    x = call.tensor(0)
    value = call.value(x, x.perm)
    if kind in ("sum", "product"):
        value = _summable(call, value)
    value, perm = _reduced(call, kind, x, value, list(reduced_axes(call.call, x.rank)))
    return call.result(value, perm)


@lowering("sum")
def sum(call: RuleCall) -> Tensor:
    return _reduce(call, "sum")


@lowering("mean")
def mean(call: RuleCall) -> Tensor:
    return _reduce(call, "sum")


@lowering("max")
def max(call: RuleCall) -> Tensor:
    return _reduce(call, "max")


@lowering("min")
def min(call: RuleCall) -> Tensor:
    return _reduce(call, "min")


@lowering("prod")
def prod(call: RuleCall) -> Tensor:
    return _reduce(call, "product")


@lowering("all")
def all(call: RuleCall) -> Tensor:
    return _reduce(call, "all")


@lowering("any")
def any(call: RuleCall) -> Tensor:
    return _reduce(call, "any")


@lowering("variance")
def variance(call: RuleCall) -> Tensor:
    """``sum((x - mean)**2) / (count - unbiased)`` over the reduced axes."""
    x, mean = call.tensor(0), call.tensor(1)
    emit = call.emit
    # squared in the data's type (integers widened), as Relay does before summing
    value = emit.widened(call.value(x, x.perm))
    mean_value = emit.widened(aligned(call.lowering, mean, x.rank, x.perm))
    difference = emit.op("sub", [value, mean_value], value.type)
    square = _summable(call, emit.mul(difference, difference, difference.type))
    value, perm = _reduced(call, "sum", x, square, list(reduced_axes(call.call, x.rank)))
    return call.result(value, perm)


@lowering("collapse_sum_like")
def collapse_sum_like(call: RuleCall) -> Tensor:
    """`x` summed over the axes along which the second argument broadcasts to
    it: the leading axes it lacks, and those where it has extent one."""
    x = call.tensor(0)
    shape = call.result_type.get_shape()
    leading = x.rank - len(shape)
    axes = list(range(leading)) + [
        leading + i for i, n in enumerate(shape) if n == 1 and x.shape[leading + i] != 1
    ]
    value = _summable(call, call.value(x, x.perm))
    for axis in axes:
        value = call.emit.reduce("sum", value, x.perm.index(axis))
    value = call.emit.cast(value, x.element_type)
    kept = [p for p in x.perm if p >= leading]
    value = call.emit.reshape(value, [shape[p - leading] for p in kept])
    return call.result(value, tuple(p - leading for p in kept))


def _arg_reduce(call: RuleCall, smallest: bool) -> Tensor:
    x = call.tensor(0)
    emit = call.emit
    axes = list(reduced_axes(call.call, x.rank))
    kept = [a for a in range(x.rank) if a not in axes]
    count = math.prod(x.shape[a] for a in axes)
    value = emit.transpose(call.value(x), kept + axes)
    value = emit.reshape(value, [x.shape[a] for a in kept] + [count])
    last = len(kept)
    element = x.element_type
    if element == IntegerType(1):
        value = emit.cast(value, i8)
        element = i8
    if smallest:
        if isinstance(element, IntegerType):
            value = emit.op("bitwise_not", [value], value.type)
        else:
            zero = emit.zero_point(element)
            value = emit.op("negate", [value, zero, zero], value.type)
    if element == i32:
        value = emit.cast(value, i64)  # tosa.argmax takes no i32
    last_index = bool(call.call.attr("select_last_index"))
    if last_index:
        value = emit.reverse(value, last)
    index_type = i64 if value.type.get_element_type() == i64 else i32  # type: ignore[attr-defined]
    index = emit.op(
        "argmax",
        [value],
        TensorType(index_type, [x.shape[a] for a in kept]),
        {"axis": IntegerAttr(last, i32)},
    )
    index = emit.cast(index, i32)
    if last_index:
        index = emit.op("sub", [emit.scalar(count - 1, i32, len(kept)), index], index.type)
    return call.result(emit.reshape(index, call.result_type.get_shape()))


@lowering("argmax")
def argmax(call: RuleCall) -> Tensor:
    """The flat index of the first (or last) maximum over the reduced axes, int32."""
    return _arg_reduce(call, smallest=False)


@lowering("argmin")
def argmin(call: RuleCall) -> Tensor:
    """The flat index of the first (or last) minimum over the reduced axes, int32."""
    return _arg_reduce(call, smallest=True)
