"""Sliding windows (convolutions and pools) channels-last, and TOSA's exact-size rule.

The operators of windows work on activations held channels-last (``NHWC``,
``NDHWC``), whatever the layout the Relay call names. TOSA wants each
spatial size to come out exactly:
``(in - 1 + pad_before + pad_after - (kernel - 1) * dilation) % stride == 0``.
Relay rounds down (or up, with ``ceil_mode``) instead, so the padding after
is chosen from the output size Relay's type gives; where even no padding
after is too much, the rows the window never reaches are sliced off.

One-dimensional operators run as their two-dimensional kind with a unit
``H`` axis (`with_unit_axis`, `without_unit_axis`), which moves no data.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.tosa import i64_array
from relay_xdsl.conversion.values import Tensor
from relay_xdsl.interpreter.kernels.layouts import pad_pairs


def layout_perm(call: RuleCall, layout: str, target: str, role: str = "layout") -> tuple[int, ...]:
    """Where the axes of a `layout` tensor are when it is held in layout `target`
    (both orders of the same letters); an error naming the `role` and layout otherwise."""
    if sorted(layout) != sorted(target):
        raise call.error(f"{role} {layout} is not supported (expected the axes {target})")
    return tuple(layout.index(letter) for letter in target)


def window_input(call: RuleCall, layout: str, spatial: str) -> tuple[Tensor, tuple[int, ...]]:
    """Argument 0, an activation in `layout` (``N``, ``C`` and the `spatial` axes),
    and the layout that holds it channels-last (``N``, `spatial`, ``C``)."""
    x = call.tensor(0)
    if x.rank != len(layout):
        raise call.error(f"layout {layout} of a rank-{x.rank} tensor is not supported")
    return x, layout_perm(call, layout, f"N{spatial}C")


def spatial_padding(padding: Sequence[int], dims: int) -> list[tuple[int, int]]:
    """Relay's padding of a `dims`-D window (1, `dims` or ``2 * dims`` entries,
    all befores then all afters) as (before, after) per spatial axis."""
    return pad_pairs(padding, dims)


def exact_window(
    call: RuleCall,
    x: SSAValue,
    padding: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    dilation: Sequence[int],
    out_sizes: Sequence[int],
) -> tuple[SSAValue, list[int]]:
    """`x` (channels-last) cut to what the window reads, and TOSA's ``pad``
    ((before, after) per spatial axis) that gives exactly `out_sizes`;
    `padding` is Relay's (see `spatial_padding`). A negative padding before
    is a slice of the data."""
    dims = len(kernel)
    shape = list(x.type.get_shape())  # type: ignore[attr-defined]
    pads: list[int] = []
    begin, sizes = [0] * len(shape), list(shape)
    for axis, ((before, _), k, s, d, out) in enumerate(
        zip(spatial_padding(padding, dims), kernel, strides, dilation, out_sizes), start=1
    ):
        if before < 0:
            begin[axis], sizes[axis], before = -before, shape[axis] + before, 0
        after = (out - 1) * s + (k - 1) * d + 1 - sizes[axis] - before
        if after < 0:
            sizes[axis] += after
            after = 0
        pads += [before, after]
    return call.emit.slice(x, begin, sizes), pads


def window_attributes(
    pads: list[int], kernel: Sequence[int] | None, strides: Sequence[int]
) -> dict:
    """The ``pad``, ``kernel`` and ``stride`` attributes of a TOSA pool or convolution."""
    attributes = {"pad": i64_array(pads), "stride": i64_array(strides)}
    if kernel is not None:
        attributes["kernel"] = i64_array(kernel)
    return attributes


def with_unit_layout(layout: str) -> str:
    """A 1-D window's `layout` with a unit ``H`` axis before its ``W``."""
    return layout.replace("W", "HW")


def with_unit_axis(call: RuleCall, tensor: Tensor, axis: int) -> Tensor:
    """`tensor` with a new logical axis of size one at `axis`, held next to
    the axis that follows it (a reshape of its physical value, moving no data)."""
    shape = list(tensor.shape)
    shape.insert(axis, 1)
    type_ = TensorType(tensor.element_type, shape)
    if tensor.array is not None:
        return Tensor(type_, array=tensor.array.reshape(shape))
    perm = [p + (p >= axis) for p in tensor.perm]
    following = perm.index(axis + 1) if axis < tensor.rank else len(perm)
    perm.insert(following, axis)
    value = call.value(tensor, tensor.perm)
    return Tensor(type_, call.emit.reshape(value, [shape[p] for p in perm]), tuple(perm))


def without_unit_axis(call: RuleCall, tensor: Tensor, axis: int) -> Tensor:
    """`tensor` without its logical axis `axis`, of size one (a reshape of its
    physical value)."""
    shape = list(tensor.shape)
    del shape[axis]
    type_ = TensorType(tensor.element_type, shape)
    perm = [p - (p > axis) for p in tensor.perm if p != axis]
    value = call.value(tensor, tensor.perm)
    return Tensor(type_, call.emit.reshape(value, [shape[p] for p in perm]), tuple(perm))
