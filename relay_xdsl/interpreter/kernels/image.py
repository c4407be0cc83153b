"""Kernels of the image operators: resizing and cropping.

They follow TVM v0.19's ``topi.image`` computes. Every output element is
interpolated from input pixels at a source coordinate worked out per spatial
axis (``coordinate_transformation_mode``); pixel reads clamp to the image, as
topi's do. Nearest, linear and cubic interpolation are products of one
interpolation per axis, so the kernels interpolate one axis at a time.
Coordinates and values are computed in float32, as topi does, and the
result is cast to its dtype (``out_dtype``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.interpreter.kernels.common import result_dtype
from relay_xdsl.interpreter.kernels.layouts import KernelError, to_layout
from relay_xdsl.interpreter.registry import kernel

_F32 = np.float32


def source_coordinates(
    out: np.ndarray,
    image: int,
    target: int,
    mode: str,
    start: float = 0.0,
    end: float = 0.0,
) -> np.ndarray:
    """The input coordinate of each output position `out` (topi's ``get_inx``)."""
    x = out.astype(_F32)
    scale = _F32(image) / _F32(target)
    if mode == "half_pixel":
        return (x + _F32(0.5)) * scale - _F32(0.5)
    if mode == "align_corners":
        # TVM divides by zero for a target of 1; the first pixel is ONNX's and PyTorch's answer.
        ratio = _F32(image - 1) / _F32(target - 1) if target > 1 else _F32(0)
        return ratio * x
    if mode == "asymmetric":
        return scale * x
    if mode == "pytorch_half_pixel":
        return (x + _F32(0.5)) * scale - _F32(0.5) if target > 1 else np.zeros_like(x)
    if mode == "tf_half_pixel_for_nn":
        return (x + _F32(0.5)) * scale
    if mode == "tf_crop_and_resize":
        start32, end32, last = _F32(start), _F32(end), _F32(image - 1)
        if target > 1:
            return start32 * last + x * (end32 - start32) * last / _F32(target - 1)
        return np.full_like(x, _F32(0.5) * (start32 + end32) * last)
    raise KernelError(f"coordinate_transformation_mode {mode!r}")


def closest_index(coordinate: np.ndarray, rounding: str) -> np.ndarray:
    """The nearest pixel of each coordinate (topi's ``get_closest_index``);
    ``round`` rounds half to even, as TVM's ``round`` (``nearbyint``) does."""
    eps = _F32(1e-5)
    if rounding == "round":
        index = np.rint(coordinate)
    elif rounding == "round_prefer_floor":
        index = np.ceil(coordinate - _F32(0.5))
    elif rounding == "round_prefer_ceil":
        index = np.floor(coordinate + _F32(0.5))
    elif rounding == "floor":
        index = np.floor(coordinate + eps)
    elif rounding == "ceil":
        index = np.ceil(coordinate - eps)
    else:
        raise KernelError(f"rounding_method {rounding!r}")
    return index.astype(np.int64)


def _cubic_weights(t: np.ndarray, alpha: float) -> list[np.ndarray]:
    a = _F32(alpha)
    t2, t3 = t * t, t * t * t
    return [
        a * (t3 - 2 * t2 + t),
        (a + 2) * t3 - (3 + a) * t2 + 1,
        -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t,
        -a * t3 + a * t2,
    ]


def _gather(values: np.ndarray, index: np.ndarray, axis: int) -> np.ndarray:
    """`values` at the clamped `index` along `axis`; `index` is (out,) or
    (batch, out) and is broadcast over the other axes."""
    clamped = np.clip(index, 0, values.shape[axis] - 1)
    shape = [1] * values.ndim
    shape[axis] = clamped.shape[-1]
    if clamped.ndim == 2:
        shape[0] = clamped.shape[0]
    return np.take_along_axis(values, clamped.reshape(shape), axis=axis)


def _weighted(weight: np.ndarray, like: np.ndarray, axis: int) -> np.ndarray:
    """`weight` ((out,) or (batch, out)) shaped to broadcast along `axis` of `like`."""
    shape = [1] * like.ndim
    shape[axis] = weight.shape[-1]
    if weight.ndim == 2:
        shape[0] = weight.shape[0]
    return weight.reshape(shape)


def interpolate_axis(
    values: np.ndarray,
    coordinate: np.ndarray,
    axis: int,
    method: str,
    rounding: str = "round",
    cubic_alpha: float = -0.5,
    cubic_exclude: bool = False,
) -> np.ndarray:
    """`values` (float32) interpolated along `axis` at `coordinate`."""
    size = values.shape[axis]
    if method == "nearest_neighbor":
        return _gather(values, closest_index(coordinate, rounding), axis)
    floor = np.floor(coordinate)
    base = floor.astype(np.int64)
    t = coordinate - floor
    if method == "linear":
        before, after = _gather(values, base, axis), _gather(values, base + 1, axis)
        t = _weighted(t, values, axis)
        return before * (1 - t) + after * t
    if method == "cubic":
        weights = _cubic_weights(t, cubic_alpha)
        if cubic_exclude:
            weights = [
                np.where((base - 1 + i < 0) | (base + i > size), _F32(0), w)
                for i, w in enumerate(weights)
            ]
            total = sum(weights[1:], weights[0])
            weights = [w / total for w in weights]
        result: np.ndarray | None = None
        for i, w in enumerate(weights):
            term = _gather(values, base + i - 1, axis) * _weighted(w, values, axis)
            result = term if result is None else result + term
        assert result is not None
        return result
    raise KernelError(f"resize method {method!r}")


def _use_int_div(image: int, target: int) -> bool:
    """topi's ``can_convert_multiply_to_intdiv``: nearest asymmetric 2D resizes
    by an integer factor index by integer division."""
    if target % image:
        return False
    return target / image <= 1 / (1e-5 * image + 1e-5)


def resample_axis(
    values: np.ndarray,
    axis: int,
    target: int,
    method: str,
    mode: str,
    *,
    dims: int,
    index: int,
    rounding: str = "",
    cubic_alpha: float = -0.5,
    cubic_exclude: bool = False,
    roi: Sequence[float] = (),
) -> tuple[np.ndarray, np.ndarray | None]:
    """`values` (float32) resized to `target` along `axis`, spatial axis `index`
    of `dims` (see `resample`); and, for ``tf_crop_and_resize``, which output
    positions fall outside the image (else None)."""
    if method == "nearest_neighbor" and not rounding:
        rounding = "round" if mode == "align_corners" else "floor"
    image = values.shape[axis]
    positions = np.arange(target)
    outside: np.ndarray | None = None
    if mode == "tf_crop_and_resize":
        j = dims - 1 - index if dims == 3 else index
        start, end = (roi[j], roi[j + dims]) if roi else (0.0, 0.0)
        coordinate = source_coordinates(positions, image, target, mode, start, end)
        outside = (coordinate < 0) | (coordinate > image - 1)
    else:
        coordinate = source_coordinates(positions, image, target, mode)
    nearest_asymmetric = method == "nearest_neighbor" and mode == "asymmetric"
    if nearest_asymmetric and dims == 2 and _use_int_div(image, target):
        return _gather(values, positions // (target // image), axis), outside
    resized = interpolate_axis(
        values, coordinate, axis, method, rounding, cubic_alpha, cubic_exclude
    )
    return resized, outside


def resample(
    data: np.ndarray,
    sizes: Sequence[int],
    method: str,
    mode: str,
    *,
    rounding: str = "",
    cubic_alpha: float = -0.5,
    cubic_exclude: bool = False,
    roi: Sequence[float] = (),
    extrapolation_value: float = 0.0,
) -> np.ndarray:
    """`data` in layout ``NC<spatial>`` resized to `sizes` (topi's
    ``_resize_{1,2,3}d``), as float32, one axis at a time (`resample_axis`).

    The roi of a tf_crop_and_resize is read as topi reads it: ``[start_w,
    end_w]`` in 1D, ``[start_h, start_w, end_h, end_w]`` in 2D, and in 3D
    ``[start_w, start_h, start_d, end_w, end_h, end_d]`` (topi's order)."""
    dims = len(sizes)
    values = data.astype(_F32)
    outside: np.ndarray | None = None
    for i, target in enumerate(sizes):
        axis = 2 + i
        values, off = resample_axis(
            values,
            axis,
            target,
            method,
            mode,
            dims=dims,
            index=i,
            rounding=rounding,
            cubic_alpha=cubic_alpha,
            cubic_exclude=cubic_exclude,
            roi=roi,
        )
        if off is not None:
            mask = _weighted(off, values, axis)
            outside = mask if outside is None else outside | mask
    if outside is not None:
        values = np.where(outside, _F32(extrapolation_value), values)
    return values


def _resize(call: Call, data: np.ndarray, dims: int) -> np.ndarray:
    canon = "NC" + spatial_axes(dims)
    layout = call.attr("layout")
    resized = resample(
        to_layout(data, layout, canon),
        call.ints("size"),
        call.attr("method"),
        call.attr("coordinate_transformation_mode"),
        rounding=call.attr("rounding_method") or "",
        cubic_alpha=float(call.attr("cubic_alpha")),
        cubic_exclude=bool(call.attr("cubic_exclude")),
        roi=[float(v) for v in call.attr("roi") or ()],
        extrapolation_value=float(call.attr("extrapolation_value")),
    )
    return to_layout(resized.astype(result_dtype(call)), canon, layout)


@kernel("image.resize1d")
def resize1d(call: Call, data: np.ndarray) -> np.ndarray:
    return _resize(call, data, 1)


@kernel("image.resize2d")
def resize2d(call: Call, data: np.ndarray) -> np.ndarray:
    return _resize(call, data, 2)


@kernel("image.resize3d")
def resize3d(call: Call, data: np.ndarray) -> np.ndarray:
    return _resize(call, data, 3)


@kernel("image.crop_and_resize")
def crop_and_resize(
    call: Call, data: np.ndarray, boxes: np.ndarray, box_indices: np.ndarray
) -> np.ndarray:
    """Each box ``(y1, x1, y2, x2)`` (normalized coordinates) of image
    ``box_indices[b]`` resized to ``crop_size``; sample points outside the
    image take ``extrapolation_value``. Nearest rounds half to even."""
    layout = call.attr("layout")
    method = call.attr("method")
    method = {"bilinear": "linear"}.get(method, method)
    if method not in ("linear", "nearest_neighbor"):
        raise KernelError(f"crop_and_resize method {method!r}")
    images = to_layout(data, layout, "NCHW").astype(_F32)[box_indices.astype(np.int64)]
    boxes = boxes.astype(_F32)
    outside: np.ndarray | None = None
    for i, target in enumerate(call.ints("crop_size")):
        axis = 2 + i
        last = _F32(images.shape[axis] - 1)
        start, end = boxes[:, i : i + 1], boxes[:, i + 2 : i + 3]
        # topi divides by target - 1: a crop of 1 is not defined there.
        if target == 1:
            raise KernelError("crop_and_resize with a crop size of 1 is not defined by TVM")
        scale = last * (end - start) / _F32(target - 1)
        coordinate = start * last + scale * np.arange(target, dtype=_F32)
        off = (coordinate < 0) | (coordinate > last)
        mask = _weighted(off, images, axis)
        outside = mask if outside is None else outside | mask
        images = interpolate_axis(images, coordinate, axis, method, "round")
    assert outside is not None
    extrapolation = _F32(call.attr("extrapolation_value"))
    result = np.where(outside, extrapolation, images)
    return to_layout(result.astype(result_dtype(call)), "NCHW", layout)


def _unnormalize(coordinate: np.ndarray, size: int, align_corners: bool) -> np.ndarray:
    """A grid coordinate in [-1, 1] as a pixel coordinate: -1 and 1 are the
    centres of the corner pixels when aligning corners, else their outer edges."""
    if align_corners:
        return (coordinate + 1) * (size - 1) / 2
    return -0.5 + (coordinate + 1) * size / 2


def _reflect(coordinate: np.ndarray, size: int, align_corners: bool) -> np.ndarray:
    """`coordinate` reflected into [0, size - 1] (aligning corners) or
    [-0.5, size - 0.5], as often as needed."""
    low, span = (0.0, size - 1) if align_corners else (-0.5, size)
    if span <= 0:
        return np.zeros_like(coordinate)
    distance = np.abs(coordinate - low)
    flips = np.trunc(distance) // span
    extra = distance - flips * span
    reflected = np.where(flips % 2 == 0, low + extra, low + span - extra)
    inside = (coordinate >= low) & (coordinate <= low + span)
    return np.where(inside, coordinate, reflected).astype(coordinate.dtype)


def _bound(coordinate: np.ndarray, size: int, padding_mode: str, align_corners: bool) -> np.ndarray:
    """The coordinate moved into the image for the border and reflection padding modes."""
    if padding_mode == "reflection":
        coordinate = _reflect(coordinate, size, align_corners)
    if padding_mode in ("border", "reflection"):
        coordinate = np.clip(coordinate, 0, size - 1)
    return coordinate


def _pixels(data: np.ndarray, indices: Sequence[np.ndarray]) -> np.ndarray:
    """``data[n, :, *indices]`` for each grid point (N, *out), zero outside the
    image; the channel axis comes second."""
    sizes = data.shape[2:]
    inside = np.ones(indices[0].shape, bool)
    clamped = []
    for index, size in zip(indices, sizes):
        inside &= (index >= 0) & (index < size)
        clamped.append(np.clip(index, 0, size - 1))
    batch = np.arange(data.shape[0]).reshape((-1,) + (1,) * (indices[0].ndim - 1))
    values = data[(batch, slice(None), *clamped)]  # (N, *out, C): advanced axes first
    values = values * inside[..., None].astype(data.dtype)
    return np.moveaxis(values, -1, 1)


@kernel("image.grid_sample")
def grid_sample(call: Call, data: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Samples `data` (NCHW or NCDHW) at the points of `grid` ((N, 2, H, W)
    or (N, 3, D, H, W); channel 0 is x, the last axis), given in [-1, 1].

    Points outside the image read zeros (``zeros``), the nearest border
    pixel (``border``), or are reflected into the image (``reflection``).
    Nearest rounds half to even; bicubic (2D only) uses alpha -0.75 and pads
    its taps like the points. This is topi's (and PyTorch's) grid_sample."""
    dims = data.ndim - 2
    canon = "NC" + spatial_axes(dims)
    if call.attr("layout") != canon or dims not in (2, 3):
        raise KernelError(f"grid_sample in layout {call.attr('layout')!r} (TVM computes {canon})")
    method, padding_mode = call.attr("method"), call.attr("padding_mode")
    align_corners = bool(call.attr("align_corners"))
    if padding_mode not in ("zeros", "border", "reflection"):
        raise KernelError(f"grid_sample padding_mode {padding_mode!r}")
    sizes = data.shape[2:]
    # Grid channel 0 is the last spatial axis (x), channel 1 the one before (y), ...
    points = [
        _unnormalize(grid[:, dims - 1 - i].astype(data.dtype), size, align_corners)
        for i, size in enumerate(sizes)
    ]
    if method == "bicubic" and dims == 2:
        return _bicubic_grid_sample(data, points, padding_mode, align_corners)
    points = [_bound(p, size, padding_mode, align_corners) for p, size in zip(points, sizes)]
    if method == "nearest":
        return _pixels(data, [np.rint(p).astype(np.int64) for p in points])
    if method != "bilinear":
        raise KernelError(f"grid_sample method {method!r} in {dims}D")
    floors = [np.floor(p) for p in points]
    result = np.zeros((*data.shape[:2], *points[0].shape[1:]), data.dtype)
    for corner in np.ndindex(*(2,) * dims):
        weight = np.ones_like(points[0])
        for p, f, bit in zip(points, floors, corner):
            weight = weight * (p - f if bit else 1 - (p - f))
        indices = [f.astype(np.int64) + bit for f, bit in zip(floors, corner)]
        result += _pixels(data, indices) * weight[:, None]
    return result


def _bicubic_grid_sample(
    data: np.ndarray, points: list[np.ndarray], padding_mode: str, align_corners: bool
) -> np.ndarray:
    y, x = points
    height, width = data.shape[2:]
    y0, x0 = np.floor(y), np.floor(x)
    wy = _cubic_weights(y - y0, -0.75)
    wx = _cubic_weights(x - x0, -0.75)
    result = np.zeros((*data.shape[:2], *y.shape[1:]), data.dtype)
    for i in range(4):
        row = _bound(y0 - 1 + i, height, padding_mode, align_corners).astype(np.int64)
        for j in range(4):
            column = _bound(x0 - 1 + j, width, padding_mode, align_corners).astype(np.int64)
            result += _pixels(data, [row, column]) * (wy[i] * wx[j])[:, None]
    return result
