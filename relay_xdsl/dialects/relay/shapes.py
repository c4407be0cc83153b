"""Shape arithmetic of the type relations, forward and backward.

Dimensions are integers, an unknown one being :data:`ANY` (Relay's ``Any``,
printed ``?``); arithmetic on an unknown dimension gives an unknown one.
:mod:`~relay_xdsl.dialects.relay.inference` and
:mod:`~relay_xdsl.dialects.relay.backward` share these, so the two halves of
a relation compute shapes alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType

from relay_xdsl.dialects.relay.rejection import Reject, require

ANY = DYNAMIC_INDEX
"""An unknown dimension (Relay's ``Any``, printed ``?``)."""


def dims(type_: TensorType) -> list[int]:
    """The shape of `type_`, unknown dimensions as ANY."""
    return [d if d >= 0 else ANY for d in type_.get_shape()]


def known(*dimensions: int) -> bool:
    """Whether every one of `dimensions` is known."""
    return all(d != ANY for d in dimensions)


def mul(dim: int, factor: int) -> int:
    """`dim` times `factor`; unknown where `dim` is."""
    return dim * factor if known(dim) else ANY


def div(dim: int, divisor: int) -> int:
    """`dim` floor-divided by `divisor`; unknown where either is unknown or
    `divisor` is zero (no size follows from it)."""
    return dim // divisor if known(dim, divisor) and divisor else ANY


def trunc_div(a: int, b: int) -> int:
    """C division, as TVM's ``/`` on integer index expressions."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def normalize_axis(axis: int, ndim: int) -> int:
    """`axis` in [-ndim, ndim) as a non-negative index."""
    require(-ndim <= axis < ndim)
    return axis + ndim if axis < 0 else axis


def shape_text(shape: Sequence[int]) -> str:
    """`shape` as Relay prints it: ``(1, ?, 3)``."""
    return "(" + ", ".join("?" if d == ANY else str(d) for d in shape) + ")"


def broadcast(lhs: Sequence[int], rhs: Sequence[int]) -> list[int]:
    """NumPy broadcasting of two shapes, TVM's ``ConcreteBroadcast``."""
    out = []
    for i in range(1, max(len(lhs), len(rhs)) + 1):
        if i > len(lhs):
            out.append(rhs[-i])
            continue
        if i > len(rhs):
            out.append(lhs[-i])
            continue
        a, b = lhs[-i], rhs[-i]
        if a == 1:
            out.append(b)
        elif b == 1 or b == ANY:
            out.append(a)
        elif a == ANY or a == b:
            # An unknown dimension is assumed to be 1 or equal to the other.
            out.append(b)
        else:
            raise Reject(f"the shapes {shape_text(lhs)} and {shape_text(rhs)} do not broadcast")
    return out[::-1]


def reduce_shape(
    shape: Sequence[int], axis: Sequence[int] | None, keepdims: bool, exclude: bool
) -> list[int]:
    """TVM's ``ReduceShapeImpl``: no axis (or an empty list) reduces all axes."""
    ndim = len(shape)
    if not axis:
        reduced = set(range(ndim))
    else:
        chosen = {normalize_axis(a, ndim) for a in axis}
        reduced = set(range(ndim)) - chosen if exclude else chosen
    if keepdims:
        return [1 if i in reduced else d for i, d in enumerate(shape)]
    return [d for i, d in enumerate(shape) if i not in reduced]


def padding_totals(padding: Sequence[int], ndim: int) -> list[int]:
    """Total padding per spatial axis from 1, ndim or 2*ndim entries.

    One entry pads every side; ndim entries pad both sides of each axis;
    2*ndim entries are all "before" values followed by all "after" values
    (``GetPaddingHeightWidth`` and friends).
    """
    if len(padding) == 1:
        return [2 * padding[0]] * ndim
    if len(padding) == ndim:
        return [2 * p for p in padding]
    require(len(padding) == 2 * ndim)
    return [padding[i] + padding[i + ndim] for i in range(ndim)]


def check_groups(groups: int) -> None:
    """A convolution splits its channels into a positive number of groups."""
    require(groups > 0, f"groups={groups} is not positive")


def check_in_channels(data_channels: int, weight_channels: int, groups: int) -> None:
    """A convolution's weight takes the data's channels divided by `groups` (TVM's ``indexdiv``)."""
    require(
        not known(data_channels, weight_channels) or div(data_channels, groups) == weight_channels,
        f"the data has {data_channels} input channels but the weight expects "
        f"{weight_channels * groups} (groups={groups})",
    )
