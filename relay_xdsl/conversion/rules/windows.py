"""Sliding windows (convolutions and pools) in NHWC, and TOSA's exact-size rule.

TOSA wants each spatial size to come out exactly:
``(in - 1 + pad_before + pad_after - (kernel - 1) * dilation) % stride == 0``.
Relay rounds down (or up, with ``ceil_mode``) instead, so the padding after
is chosen from the output size Relay's type gives; where even no padding
after is too much, the rows the window never reaches are sliced off.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.tosa import i64_array
from relay_xdsl.conversion.values import NCHW_TO_NHWC, Tensor


def nhwc_input(call: RuleCall, layout: str) -> Tensor:
    """Argument 0, a 4-D activation in `layout` (``NCHW`` or ``NHWC``), checked."""
    x = call.tensor(0)
    if layout not in ("NCHW", "NHWC") or x.rank != 4:
        raise call.error(f"layout {layout} of a rank-{x.rank} tensor is not supported")
    return x


def nhwc_perm(layout: str) -> tuple[int, ...]:
    """Where the logical dimensions of a `layout` tensor are when it is held in NHWC."""
    return NCHW_TO_NHWC if layout == "NCHW" else (0, 1, 2, 3)


def exact_window(
    call: RuleCall,
    x: SSAValue,
    padding: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    dilation: Sequence[int],
    out_hw: Sequence[int],
) -> tuple[SSAValue, list[int]]:
    """`x` (NHWC) cut to what the window reads, and TOSA's ``pad`` (top, bottom,
    left, right) that gives exactly `out_hw`; `padding` is Relay's (top, left,
    bottom, right), or two values for both sides."""
    if len(padding) == 2:
        padding = [padding[0], padding[1], padding[0], padding[1]]
    elif len(padding) == 1:
        padding = list(padding) * 4
    shape = list(x.type.get_shape())  # type: ignore[attr-defined]
    pads: list[int] = []
    sizes = list(shape)
    for axis, (before, k, s, d, out) in enumerate(
        zip((padding[0], padding[1]), kernel, strides, dilation, out_hw)
    ):
        size = shape[1 + axis]
        after = (out - 1) * s + (k - 1) * d + 1 - size - before
        if after < 0:
            sizes[1 + axis] = size + after
            after = 0
        pads += [before, after]
    return call.emit.slice(x, [0, 0, 0, 0], sizes), pads


def window_attributes(
    pads: list[int], kernel: Sequence[int] | None, strides: Sequence[int]
) -> dict:
    """The ``pad``, ``kernel`` and ``stride`` attributes of a TOSA pool or convolution."""
    attributes = {"pad": i64_array(pads), "stride": i64_array(strides)}
    if kernel is not None:
        attributes["kernel"] = i64_array(kernel)
    return attributes
