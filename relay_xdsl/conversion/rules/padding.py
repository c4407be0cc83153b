"""Padding: ``nn.pad`` and ``nn.mirror_pad``, in the operand's layout.

A constant known when compiling pads with ``tosa.pad``. Every other
padding extends each padded axis by ``tosa.concat`` of what goes before
and after: the pad value computed at run time tiled (``tosa.pad`` takes
only a constant), the border element tiled (``edge``), or the elements
next to the border reversed (``reflect`` leaves the border out,
``SYMMETRIC`` repeats it: one slice per element). A negative width crops, after the padding, as
TVM's ``pad`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor


def _widths(call: RuleCall, rank: int) -> list[tuple[int, int]]:
    widths = [(int(before), int(after)) for before, after in call.call.attr("pad_width")]
    if len(widths) != rank:
        raise call.error(f"pad_width has {len(widths)} pairs for a rank-{rank} tensor")
    return widths


def _shape(value: SSAValue) -> list[int]:
    type_ = value.type
    assert isinstance(type_, TensorType)
    return list(type_.get_shape())


def _part(call: RuleCall, value: SSAValue, axis: int, start: int, count: int) -> SSAValue:
    """`count` elements of `value` from `start` along `axis`."""
    begin, size = [0] * len(_shape(value)), _shape(value)
    begin[axis], size[axis] = start, count
    return call.emit.slice(value, begin, size)


def _border(
    call: RuleCall, value: SSAValue, axis: int, width: int, mode: str, after: bool
) -> SSAValue:
    """The `width` elements that `mode` puts before (or `after`) `value` along `axis`."""
    emit = call.emit
    size = _shape(value)[axis]
    if mode == "edge":
        multiples = [1] * len(_shape(value))
        multiples[axis] = width
        return emit.tile(_part(call, value, axis, size - 1 if after else 0, 1), multiples)
    skip = 1 if mode == "reflect" else 0
    if width + skip > size:
        raise call.error(f"a {mode} padding of {width} is wider than an axis of {size}")
    start = size - width - skip if after else skip
    # element by element rather than tosa.reverse, which the vectorising
    # schedule miscompiles after a slice
    parts = [_part(call, value, axis, start + i, 1) for i in reversed(range(width))]
    shape = _shape(value)
    shape[axis] = width
    return emit.concat(parts, axis, TensorType(value.type.get_element_type(), shape))  # type: ignore[attr-defined]


def _extended(
    call: RuleCall,
    value: SSAValue,
    axis: int,
    before: int,
    after: int,
    make: Callable[[SSAValue, int, int, bool], SSAValue],
) -> SSAValue:
    """`value` with the parts `make` (value, axis, width, after) gives concatenated
    around it along `axis`."""
    parts = []
    if before:
        parts.append(make(value, axis, before, False))
    parts.append(value)
    if after:
        parts.append(make(value, axis, after, True))
    shape = _shape(value)
    shape[axis] += before + after
    element = value.type.get_element_type()  # type: ignore[attr-defined]
    return call.emit.concat(parts, axis, TensorType(element, shape))


def padded(
    call: RuleCall,
    x: Tensor,
    widths: Sequence[tuple[int, int]],
    mode: str,
    fill: Tensor | float | None,
) -> Tensor:
    """`x` padded (cropped where negative) by `widths` ((before, after) per
    logical axis) as `mode` says: ``constant`` (with the scalar `fill`, a
    tensor or a number),
    ``edge``, ``reflect`` or ``symmetric``."""
    emit = call.emit
    value = call.value(x, x.perm)
    physical = [widths[p] for p in x.perm]
    grow = [(max(b, 0), max(a, 0)) for b, a in physical]
    if isinstance(fill, Tensor) and fill.array is not None:
        fill = float(fill.array.reshape(-1)[0])
    if mode == "constant" and isinstance(fill, float):
        value = emit.pad(value, [w for pair in grow for w in pair], fill)
    elif mode == "constant":
        assert isinstance(fill, Tensor)
        element = x.element_type
        ones = [1] * x.rank
        scalar = emit.reshape(emit.cast(call.value(fill), element), ones)

        def filled(source: SSAValue, axis: int, width: int, after: bool) -> SSAValue:
            shape = _shape(source)
            shape[axis] = width
            return emit.tile(scalar, shape)

        for axis, (before, after) in enumerate(grow):
            if before or after:
                value = _extended(call, value, axis, before, after, filled)
    else:

        def border(source: SSAValue, axis: int, width: int, after: bool) -> SSAValue:
            return _border(call, source, axis, width, mode, after)

        for axis, (before, after) in enumerate(grow):
            if before or after:
                value = _extended(call, value, axis, before, after, border)
    shape = _shape(value)
    begin = [max(-b, 0) for b, _ in physical]
    size = [n - max(-b, 0) - max(-a, 0) for n, (b, a) in zip(shape, physical)]
    return call.result(emit.slice(value, begin, size), x.perm)


@lowering("nn.pad")
def pad(call: RuleCall) -> Tensor:
    """``nn.pad(x, pad_value)`` by ``pad_width`` as ``pad_mode`` says (``constant``,
    ``edge``, ``reflect``)."""
    x = call.tensor(0)
    mode = str(call.call.attr("pad_mode"))
    if mode not in ("constant", "edge", "reflect"):
        raise call.error(f"pad_mode {mode!r} is not supported")
    return padded(call, x, _widths(call, x.rank), mode, call.tensor(1))


@lowering("relax.nn.pad")
def relax_pad(call: RuleCall) -> Tensor:
    """``relax.nn.pad(x)`` by the flat (before, after) pairs of ``pad_width``
    as ``pad_mode`` says: ``constant`` with ``pad_value``, ``reflect``, or
    ``edge`` (``replicate`` is its other name)."""
    x = call.tensor(0)
    mode = str(call.call.attr("pad_mode"))
    if mode not in ("constant", "edge", "replicate", "reflect"):
        raise call.error(f"pad_mode {mode!r} is not supported")
    flat = [int(w) for w in call.call.attr("pad_width")]
    if len(flat) != 2 * x.rank:
        raise call.error(f"pad_width has {len(flat)} widths for a rank-{x.rank} tensor")
    widths = list(zip(flat[::2], flat[1::2]))
    mode = "edge" if mode == "replicate" else mode
    return padded(call, x, widths, mode, float(call.call.attr("pad_value")))


@lowering("nn.mirror_pad")
def mirror_pad(call: RuleCall) -> Tensor:
    """``nn.mirror_pad(x)`` by ``pad_width``: ``SYMMETRIC`` repeats the border
    element, ``REFLECT`` does not."""
    x = call.tensor(0)
    mode = str(call.call.attr("mode"))
    if mode not in ("SYMMETRIC", "REFLECT"):
        raise call.error(f"mode {mode!r} is not supported")
    return padded(call, x, _widths(call, x.rank), mode.lower(), None)
