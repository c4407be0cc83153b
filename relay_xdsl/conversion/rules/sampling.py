"""Sampling at coordinates computed at run time: ``image.crop_and_resize`` and
``image.grid_sample``.

The coordinates come from tensors (boxes, a grid), so they are computed by
TOSA operators in float32 and the pixels read by ``tosa.gather`` at their
integer parts (clamped to the image), weighted by the fractions. Nearest
rounds half to even: ``floor(c + 1/2)``, less one where that is odd and
``c`` lies halfway. Points outside the image read zeros
(``grid_sample``'s ``zeros``) or become the extrapolation value
(``crop_and_resize``). The result is cast to its type.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, f32, i32
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.windows import window_input
from relay_xdsl.conversion.values import Tensor, permuted_type
from relay_xdsl.dialects.relay.layouts import spatial_axes

_BOOL = IntegerType(1)


class _Arithmetic:
    """Elementwise TOSA arithmetic on float32, i32 and boolean tensors that
    broadcast (equal ranks)."""

    def __init__(self, call: RuleCall):
        self.call = call
        self.emit = call.emit

    @staticmethod
    def _type(*values: SSAValue, element: object = None) -> TensorType:
        shapes = [v.type.get_shape() for v in values]  # type: ignore[attr-defined]
        shape = [max(sizes) for sizes in zip(*shapes)]
        kind = element or values[0].type.get_element_type()  # type: ignore[attr-defined]
        return TensorType(kind, shape)  # type: ignore[arg-type]

    def const(self, value: float, like: SSAValue) -> SSAValue:
        type_ = like.type
        return self.emit.scalar(value, type_.get_element_type(), type_.get_num_dims())  # type: ignore[attr-defined]

    def binary(self, name: str, a: SSAValue, b: SSAValue | float) -> SSAValue:
        b = self.const(b, a) if isinstance(b, (int, float)) else b
        if name == "mul":
            return self.emit.mul(a, b, self._type(a, b))
        return self.emit.op(name, [a, b], self._type(a, b))

    def compare(self, name: str, a: SSAValue, b: SSAValue | float) -> SSAValue:
        b = self.const(b, a) if isinstance(b, (int, float)) else b
        return self.emit.op(name, [a, b], self._type(a, b, element=_BOOL))

    def unary(self, name: str, a: SSAValue) -> SSAValue:
        return self.emit.op(name, [a], a.type)

    def select(self, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit.select(condition, a, b, self._type(condition, a, b, element=_element(a)))

    def clamp(self, a: SSAValue, low: float, high: float) -> SSAValue:
        return self.emit.clamp(a, low, high)

    def rint(self, a: SSAValue) -> SSAValue:
        """`a` rounded half to even, as i32."""
        rounded = self.unary("floor", self.binary("add", a, 0.5))
        index = self.emit.cast(rounded, i32)
        odd = self.compare("equal", self.binary("bitwise_and", index, 1), 1)
        halfway = self.compare("equal", self.binary("sub", rounded, a), 0.5)
        return self.select(
            self.binary("logical_and", halfway, odd), self.binary("sub", index, 1), index
        )


def _element(value: SSAValue) -> object:
    return value.type.get_element_type()  # type: ignore[attr-defined]


def _shape(value: SSAValue) -> list[int]:
    return list(value.type.get_shape())  # type: ignore[attr-defined]


def _along(call: RuleCall, values: SSAValue, coordinate: SSAValue, method: str) -> SSAValue:
    """`values` (B, K, R) interpolated along K at `coordinate` (B, O): the
    clamped reads of topi's crop_and_resize (linear or nearest)."""
    math_ = _Arithmetic(call)
    size = _shape(values)[1]
    if method == "nearest_neighbor":
        return call.emit.gather(values, math_.clamp(math_.rint(coordinate), 0, size - 1))
    floor = math_.unary("floor", coordinate)
    base = call.emit.cast(floor, i32)
    before = call.emit.gather(values, math_.clamp(base, 0, size - 1))
    after = call.emit.gather(values, math_.clamp(math_.binary("add", base, 1), 0, size - 1))
    b, o = _shape(coordinate)
    fraction = call.emit.reshape(math_.binary("sub", coordinate, floor), [b, o, 1])
    return math_.binary(
        "add",
        math_.binary("mul", before, math_.binary("sub", math_.const(1.0, fraction), fraction)),
        math_.binary("mul", after, fraction),
    )


@lowering("image.crop_and_resize")
def crop_and_resize(call: RuleCall) -> Tensor:
    """``image.crop_and_resize(data, boxes, box_indices)``: box ``(y1, x1, y2,
    x2)`` (normalised) of image ``box_indices[b]`` resized to ``crop_size``,
    linear or nearest; points outside the image are ``extrapolation_value``."""
    layout = str(call.call.attr("layout"))
    x, perm = window_input(call, layout, "HW")
    method = {"bilinear": "linear"}.get(str(call.call.attr("method")), call.call.attr("method"))
    if method not in ("linear", "nearest_neighbor"):
        raise call.error(f"method {method!r} is not supported")
    crop = call.call.ints("crop_size")
    if any(size == 1 for size in crop):
        raise call.error("a crop size of 1 is not defined by TVM")
    emit = call.emit
    math_ = _Arithmetic(call)
    n, h, w, c = permuted_type(x.type, perm).get_shape()
    boxes = emit.cast(call.value(1), f32)
    count = _shape(boxes)[0]
    out_h, out_w = crop
    # the images of the boxes: rows of (1, N, H*W*C) gathered at box_indices
    flat = emit.reshape(emit.cast(call.value(x, perm), f32), [1, n, h * w * c])
    indices = emit.reshape(emit.cast(call.value(2), i32), [1, count])
    values = emit.reshape(emit.gather(flat, indices), [count, h, w * c])
    coordinates, outside = [], []
    for axis, (size, target) in enumerate(((h, out_h), (w, out_w))):
        last = float(size - 1)
        start = emit.slice(boxes, [0, axis], [count, 1])
        end = emit.slice(boxes, [0, axis + 2], [count, 1])
        step = math_.binary("mul", math_.binary("sub", end, start), last / (target - 1))
        positions = emit.const(np.arange(target, dtype=np.float32).reshape(1, target), f32)
        coordinate = math_.binary(
            "add", math_.binary("mul", start, last), math_.binary("mul", step, positions)
        )
        coordinates.append(coordinate)
        outside.append(
            math_.binary(
                "logical_or",
                math_.compare("greater", math_.const(0.0, coordinate), coordinate),
                math_.compare("greater", coordinate, last),
            )
        )
    rows = _along(call, values, coordinates[0], method)  # (B, OH, W*C)
    rows = emit.reshape(rows, [count * out_h, w, c])
    columns = emit.reshape(
        emit.tile(emit.reshape(coordinates[1], [count, 1, out_w]), [1, out_h, 1]),
        [count * out_h, out_w],
    )
    out = emit.reshape(_along(call, rows, columns, method), [count, out_h, out_w, c])
    off = math_.binary(
        "logical_or",
        emit.reshape(outside[0], [count, out_h, 1, 1]),
        emit.reshape(outside[1], [count, 1, out_w, 1]),
    )
    fill = emit.scalar(float(call.call.attr("extrapolation_value")), f32, 4)
    out = math_.select(off, fill, out)
    return call.result(emit.cast(out, call.result_type.get_element_type()), perm)


# grid_sample


def _unnormalized(math_: _Arithmetic, grid: SSAValue, size: int, align_corners: bool) -> SSAValue:
    """Grid coordinates in [-1, 1] as pixel coordinates (see the interpreter's ``_unnormalize``)."""
    shifted = math_.binary("add", grid, 1.0)
    if align_corners:
        return math_.binary("mul", shifted, (size - 1) / 2)
    return math_.binary("add", math_.binary("mul", shifted, size / 2), -0.5)


def _reflected(math_: _Arithmetic, p: SSAValue, size: int, align_corners: bool) -> SSAValue:
    """`p` reflected into [0, size - 1] (aligning corners) or [-0.5, size - 0.5]."""
    low, span = (0.0, size - 1) if align_corners else (-0.5, size)
    if span <= 0:
        return math_.binary("mul", p, 0.0)
    emit = math_.emit
    distance = math_.unary("abs", math_.binary("add", p, -low))
    whole = emit.cast(math_.unary("floor", distance), i32)
    flips = math_.binary("intdiv", whole, span)
    extra = math_.binary("sub", distance, math_.binary("mul", emit.cast(flips, f32), float(span)))
    even = math_.compare("equal", math_.binary("bitwise_and", flips, 1), 0)
    reflected = math_.select(
        even,
        math_.binary("add", extra, low),
        math_.binary("sub", math_.const(low + span, extra), extra),
    )
    inside = math_.binary(
        "logical_and",
        math_.compare("greater_equal", p, low),
        math_.compare("greater_equal", math_.const(low + span, p), p),
    )
    return math_.select(inside, p, reflected)


def _bounded(
    math_: _Arithmetic, p: SSAValue, size: int, padding_mode: str, align_corners: bool
) -> SSAValue:
    """`p` moved into the image for the border and reflection padding modes."""
    if padding_mode == "reflection":
        p = _reflected(math_, p, size, align_corners)
    if padding_mode in ("border", "reflection"):
        p = math_.clamp(p, 0, size - 1)
    return p


def _cubic_weights(math_: _Arithmetic, t: SSAValue, alpha: float) -> list[SSAValue]:
    """The four weights of the cubic convolution at fraction `t` (topi's, alpha -0.75)."""
    t2 = math_.binary("mul", t, t)
    t3 = math_.binary("mul", t2, t)

    def poly(c3: float, c2: float, c1: float, c0: float) -> SSAValue:
        total = math_.binary("mul", t3, c3)
        total = math_.binary("add", total, math_.binary("mul", t2, c2))
        if c1:
            total = math_.binary("add", total, math_.binary("mul", t, c1))
        return math_.binary("add", total, c0) if c0 else total

    a = alpha
    return [
        poly(a, -2 * a, a, 0),
        poly(a + 2, -(3 + a), 0, 1),
        poly(-(a + 2), 3 + 2 * a, -a, 0),
        poly(-a, a, 0, 0),
    ]


class _Pixels:
    """Reads of `data` (N, *sizes, C) channels-last at integer points (N, P),
    zero outside the image."""

    def __init__(self, call: RuleCall, data: SSAValue, sizes: Sequence[int]):
        self.call, self.sizes = call, list(sizes)
        n, c = _shape(data)[0], _shape(data)[-1]
        self.flat = call.emit.reshape(data, [n, math.prod(sizes), c])

    def read(self, indices: Sequence[SSAValue]) -> SSAValue:
        """The pixels at i32 `indices` (one (N, P) per spatial axis), as (N, P, C)."""
        math_ = _Arithmetic(self.call)
        flat: SSAValue | None = None
        inside: SSAValue | None = None
        for index, size, stride in zip(indices, self.sizes, self._strides()):
            within = math_.binary(
                "logical_and",
                math_.compare("greater_equal", index, 0),
                math_.compare("greater", math_.const(size, index), index),
            )
            inside = within if inside is None else math_.binary("logical_and", inside, within)
            term = math_.binary("mul", math_.clamp(index, 0, size - 1), stride)
            flat = term if flat is None else math_.binary("add", flat, term)
        assert flat is not None and inside is not None
        values = self.call.emit.gather(self.flat, flat)
        n, p = _shape(flat)
        mask = self.call.emit.reshape(inside, [n, p, 1])
        return math_.select(mask, values, math_.const(0.0, values))

    def _strides(self) -> list[int]:
        return [math.prod(self.sizes[i + 1 :]) for i in range(len(self.sizes))]


@lowering("image.grid_sample")
def grid_sample(call: RuleCall) -> Tensor:
    """``image.grid_sample(data, grid)``: `data` (NCHW or NCDHW) sampled at the
    points of `grid` (channel 0 is x, the last axis) in [-1, 1], bilinear,
    nearest or (2-D) bicubic, points outside read as ``padding_mode`` says."""
    x = call.tensor(0)
    dims = x.rank - 2
    layout = str(call.call.attr("layout"))
    if dims not in (2, 3) or layout != "NC" + spatial_axes(dims):
        raise call.error(f"layout {layout} of a rank-{x.rank} tensor is not supported")
    method, padding_mode = str(call.call.attr("method")), str(call.call.attr("padding_mode"))
    align_corners = bool(call.call.attr("align_corners"))
    if padding_mode not in ("zeros", "border", "reflection"):
        raise call.error(f"padding_mode {padding_mode!r} is not supported")
    if method not in ("bilinear", "nearest") and not (method == "bicubic" and dims == 2):
        raise call.error(f"method {method!r} in {dims}-D is not supported")
    emit = call.emit
    math_ = _Arithmetic(call)
    perm = (0, *range(2, dims + 2), 1)
    sizes = list(x.shape[2:])
    n, c = x.shape[:2]
    out = list(call.result_type.get_shape()[2:])
    points_count = math.prod(out)
    pixels = _Pixels(call, emit.cast(call.value(x, perm), f32), sizes)
    grid = emit.cast(call.value(1), f32)
    points = []
    for i, size in enumerate(sizes):
        channel = dims - 1 - i
        part = emit.slice(grid, [0, channel] + [0] * dims, [n, 1, *out])
        part = emit.reshape(part, [n, points_count])
        points.append(_unnormalized(math_, part, size, align_corners))
    if method == "bicubic":
        result = _bicubic(math_, pixels, points, sizes, padding_mode, align_corners)
    else:
        points = [_bounded(math_, p, s, padding_mode, align_corners) for p, s in zip(points, sizes)]
        if method == "nearest":
            result = pixels.read([math_.rint(p) for p in points])
        else:
            result = _multilinear(math_, pixels, points)
    result = emit.reshape(result, [n, *out, c])
    return call.result(emit.cast(result, call.result_type.get_element_type()), perm)


def _weighted(math_: _Arithmetic, pixels: SSAValue, weight: SSAValue) -> SSAValue:
    n, p = _shape(weight)
    return math_.binary("mul", pixels, math_.emit.reshape(weight, [n, p, 1]))


def _sum(math_: _Arithmetic, terms: list[SSAValue]) -> SSAValue:
    total = terms[0]
    for term in terms[1:]:
        total = math_.binary("add", total, term)
    return total


def _multilinear(math_: _Arithmetic, pixels: _Pixels, points: list[SSAValue]) -> SSAValue:
    """The bilinear (trilinear) sample: the corners weighted by the fractions."""
    floors = [math_.unary("floor", p) for p in points]
    fractions = [math_.binary("sub", p, f) for p, f in zip(points, floors)]
    bases = [math_.emit.cast(f, i32) for f in floors]
    terms = []
    for corner in np.ndindex(*(2,) * len(points)):
        weight: SSAValue | None = None
        for fraction, bit in zip(fractions, corner):
            factor = fraction if bit else math_.binary("sub", math_.const(1.0, fraction), fraction)
            weight = factor if weight is None else math_.binary("mul", weight, factor)
        assert weight is not None
        indices = [math_.binary("add", b, 1) if bit else b for b, bit in zip(bases, corner)]
        terms.append(_weighted(math_, pixels.read(indices), weight))
    return _sum(math_, terms)


def _bicubic(
    math_: _Arithmetic,
    pixels: _Pixels,
    points: list[SSAValue],
    sizes: list[int],
    padding_mode: str,
    align_corners: bool,
) -> SSAValue:
    """The bicubic sample: 4 x 4 taps, each tap's coordinate bounded like the points."""
    (y, x), (height, width) = points, sizes
    y0, x0 = math_.unary("floor", y), math_.unary("floor", x)
    wy = _cubic_weights(math_, math_.binary("sub", y, y0), -0.75)
    wx = _cubic_weights(math_, math_.binary("sub", x, x0), -0.75)
    emit = math_.emit
    rows = [
        emit.cast(
            _bounded(math_, math_.binary("add", y0, i - 1.0), height, padding_mode, align_corners),
            i32,
        )
        for i in range(4)
    ]
    columns = [
        emit.cast(
            _bounded(math_, math_.binary("add", x0, j - 1.0), width, padding_mode, align_corners),
            i32,
        )
        for j in range(4)
    ]
    terms = [
        _weighted(math_, pixels.read([rows[i], columns[j]]), math_.binary("mul", wy[i], wx[j]))
        for i in range(4)
        for j in range(4)
    ]
    return _sum(math_, terms)
