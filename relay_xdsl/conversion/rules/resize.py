"""Resizing: ``image.resize1d/2d/3d``, ``nn.upsampling`` and ``nn.upsampling3d``, channels-last.

Every method resizes one spatial axis at a time, and along one axis the
output is a fixed linear map of the input: the interpreter's own
`resample_axis` applied to an identity matrix gives it, as an
``out x in`` matrix known when compiling. ``tosa.resize`` takes the two
innermost spatial axes where its integer arithmetic gives exactly that
matrix on both (nearest and linear, for the coordinate modes that are
ratios of integers, within TOSA's scale limits); any other axis is a
``tosa.matmul`` by its matrix, on the data with that axis moved first
(none where the matrix is the identity).
``tf_crop_and_resize`` puts ``extrapolation_value`` where a coordinate
falls outside the image (a ``tosa.select`` by a known mask). The
arithmetic is float32, as topi's, cast to the result's type.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, UnregisteredAttr, f32
from xdsl.ir import SSAValue

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.windows import layout_perm
from relay_xdsl.conversion.values import Tensor, permuted_type
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.kernels.image import resample_axis

_TOSA_ATTRIBUTE = UnregisteredAttr.with_name_and_type("tosa", False)
"""A ``#tosa<...>`` attribute, such as ``#tosa<resize_mode<BILINEAR>>``."""

_MAX_SCALE = 256
"""TOSA's level 8K bound on ``scale_n / scale_d``."""


@dataclass(frozen=True)
class Resize:
    """How a call resizes: the method and coordinates, as the interpreter's `resample` reads them."""

    method: str
    mode: str
    rounding: str = ""
    cubic_alpha: float = -0.5
    cubic_exclude: bool = False
    roi: tuple[float, ...] = ()
    extrapolation_value: float = 0.0

    @property
    def nearest_rounding(self) -> str:
        """The rounding of nearest_neighbor (the interpreter's default where none is given)."""
        if self.rounding:
            return self.rounding
        return "round" if self.mode == "align_corners" else "floor"

    def axis(
        self, image: int, target: int, dims: int, index: int
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """The ``target x image`` matrix of spatial axis `index` of `dims`, and
        which outputs fall outside the image (``tf_crop_and_resize``; else None)."""
        return resample_axis(
            np.eye(image, dtype=np.float32),
            0,
            target,
            self.method,
            self.mode,
            dims=dims,
            index=index,
            rounding=self.rounding,
            cubic_alpha=self.cubic_alpha,
            cubic_exclude=self.cubic_exclude,
            roi=self.roi,
        )


def _tosa_axis(resize: Resize, image: int, target: int) -> tuple[int, int, int, int] | None:
    """TOSA's ``(scale_n, scale_d, offset, border)`` whose source coordinate
    ``(out * scale_d + offset) / scale_n`` is the mode's, within TOSA's limits."""
    if image == 1:
        n, d, offset = 2 * target, 1, 0  # every coordinate clamps to the one pixel
    elif resize.mode == "asymmetric":
        n, d, offset = target, image, 0
    elif resize.mode in ("half_pixel", "pytorch_half_pixel") and (
        target > 1 or resize.mode == "half_pixel"
    ):
        n, d, offset = 2 * target, 2 * image, image - target
    elif resize.mode == "tf_half_pixel_for_nn":
        n, d, offset = 2 * target, 2 * image, image
    elif resize.mode == "align_corners" and target > 1 and image > 1:
        n, d, offset = target - 1, image - 1, 0
    elif resize.mode in ("align_corners", "pytorch_half_pixel"):
        n, d, offset = 1, 1, 0  # every coordinate is 0, or clamps to it
    else:
        return None
    common = math.gcd(n, d, offset)
    n, d, offset = n // common, d // common, offset // common
    if n % 2:  # nearest rounds up at half of n: an even n says where half is
        n, d, offset = 2 * n, 2 * d, 2 * offset
    if resize.method == "nearest_neighbor" and resize.nearest_rounding == "floor":
        offset -= n // 2  # rounding c - 1/2 up is c's floor
    border = (target - 1) * d - (image - 1) * n + offset
    fits = (
        n <= 2048
        and n <= _MAX_SCALE * d
        and d < 16 * n
        and -n <= offset < 16 * n
        and -16 * n <= border < n
    )
    return (n, d, offset, border) if fits else None


def _tosa_matrix(
    mode: str, image: int, target: int, params: tuple[int, int, int, int]
) -> np.ndarray:
    """The ``target x image`` matrix TOSA's resize (`mode`) computes with `params`."""
    n, d, offset, _ = params
    matrix = np.zeros((target, image), np.float64)
    for out in range(target):
        y = out * d + offset
        base, fraction = y // n, y % n
        if mode == "NEAREST_NEIGHBOR":
            matrix[out, min(max(base + (2 * fraction >= n), 0), image - 1)] = 1
        else:
            matrix[out, min(max(base, 0), image - 1)] += 1 - fraction / n
            matrix[out, min(max(base + 1, 0), image - 1)] += fraction / n
    return matrix


def _tosa_resize_mode(resize: Resize) -> str | None:
    return {"nearest_neighbor": "NEAREST_NEIGHBOR", "linear": "BILINEAR"}.get(resize.method)


def _tosa_params(
    resize: Resize, images: Sequence[int], targets: Sequence[int], matrices: Sequence[np.ndarray]
) -> list[tuple[int, int, int, int]] | None:
    """TOSA's parameters for each of the axes, if ``tosa.resize`` computes their matrices."""
    mode = _tosa_resize_mode(resize)
    if mode is None or resize.mode == "tf_crop_and_resize":
        return None
    found = []
    for image, target, matrix in zip(images, targets, matrices):
        params = _tosa_axis(resize, image, target)
        if params is None or not np.allclose(
            _tosa_matrix(mode, image, target, params), matrix, rtol=0, atol=1e-6
        ):
            return None
        found.append(params)
    return found


def resized(
    call: RuleCall, x: Tensor, layout: str, resize: Resize, result_type: TensorType
) -> Tensor:
    """`x` (in `layout`, ``N``, ``C`` and 1 to 3 spatial axes) resized as
    `resize` says to `result_type`, held channels-last."""
    dims = x.rank - 2
    if dims not in (1, 2, 3):
        raise call.error(f"a rank-{x.rank} tensor is not supported")
    perm = layout_perm(call, layout, f"N{spatial_axes(dims)}C")
    result = permuted_type(result_type, perm)
    element = result.get_element_type()
    if isinstance(element, IntegerType):
        raise call.error("an integer result is not supported")
    emit = call.emit
    value = emit.cast(call.value(x, perm), f32)
    images = list(permuted_type(x.type, perm).get_shape()[1:-1])
    targets = list(result.get_shape()[1:-1])
    try:
        axes = [
            resize.axis(image, target, dims, i)
            for i, (image, target) in enumerate(zip(images, targets))
        ]
    except InterpreterError as error:  # a method or mode the interpreter does not know
        raise call.error(str(error)) from None
    matrices = [matrix for matrix, _ in axes]
    # a 1-D resize is a 2-D one with a unit axis, which TOSA keeps with scale 1
    inner = 2 if dims > 1 else 1
    params = _tosa_params(resize, images[-inner:], targets[-inner:], matrices[-inner:])
    through_matrices = list(range(dims)) if params is None else list(range(dims - inner))
    for index in through_matrices:
        matrix = matrices[index]
        if matrix.shape[0] != matrix.shape[1] or not np.array_equal(matrix, np.eye(len(matrix))):
            value = _along_axis(call, value, 1 + index, matrix)
    if params is not None:
        value = _tosa_resize(call, value, inner, params, _tosa_resize_mode(resize) or "")
    outside = [off for _, off in axes]
    if any(off is not None for off in outside):
        value = _extrapolated(call, value, outside, resize.extrapolation_value)
    return Tensor(result_type, emit.cast(value, element), perm)


def _along_axis(call: RuleCall, value: SSAValue, axis: int, matrix: np.ndarray) -> SSAValue:
    """`value` (float32) times `matrix` along `axis`: the axis moved first, a
    ``(1, out, in) x (1, in, rest)`` product, and moved back."""
    emit = call.emit
    shape = list(value.type.get_shape())  # type: ignore[attr-defined]
    order = [axis] + [i for i in range(len(shape)) if i != axis]
    moved = emit.transpose(value, order)
    rest = math.prod(shape) // shape[axis]
    flat = emit.reshape(moved, [1, shape[axis], rest])
    weights = emit.const(np.ascontiguousarray(matrix.reshape(1, *matrix.shape)), f32)
    product = _matmul(call, weights, flat)
    out_shape = [matrix.shape[0]] + [shape[i] for i in order[1:]]
    back = [order.index(i) for i in range(len(shape))]
    return emit.transpose(emit.reshape(product, out_shape), back)


def _matmul(call: RuleCall, a: SSAValue, b: SSAValue) -> SSAValue:
    """``tosa.matmul`` of float32 (B, M, K) and (B, K, N)."""
    batch, m, _ = a.type.get_shape()  # type: ignore[attr-defined]
    n = b.type.get_shape()[2]  # type: ignore[attr-defined]
    zero = call.emit.zero_point(f32)
    return call.emit.op("matmul", [a, b, zero, zero], TensorType(f32, [batch, m, n]))


def _tosa_resize(
    call: RuleCall, value: SSAValue, inner: int, params: list[tuple[int, int, int, int]], mode: str
) -> SSAValue:
    """``tosa.resize`` of the `inner` innermost spatial axes of channels-last `value`."""
    emit = call.emit
    shape = list(value.type.get_shape())  # type: ignore[attr-defined]
    if inner == 1:
        params = [(2, 2, 0, 0), *params]
        shape = [shape[0], 1, *shape[1:]]
    (hn, hd, ho, hb), (wn, wd, wo, wb) = params
    batch = math.prod(shape[:-3])
    h, w, c = shape[-3:]
    out_h = ((h - 1) * hn - ho + hb) // hd + 1
    out_w = ((w - 1) * wn - wo + wb) // wd + 1
    images = emit.reshape(value, [batch, h, w, c])
    mode_attr = _TOSA_ATTRIBUTE("tosa", False, False, f"resize_mode<{mode}>")
    out = emit.op(
        "resize",
        [images, emit.shape([hn, hd, wn, wd]), emit.shape([ho, wo]), emit.shape([hb, wb])],
        TensorType(f32, [batch, out_h, out_w, c]),
        {"mode": mode_attr},
    )
    out_shape = list(value.type.get_shape())  # type: ignore[attr-defined]
    out_shape[-2] = out_w
    if inner == 2:
        out_shape[-3] = out_h
    return emit.reshape(out, out_shape)


def _extrapolated(
    call: RuleCall, value: SSAValue, outside: Sequence[np.ndarray | None], fill: float
) -> SSAValue:
    """`value` (channels-last) with `fill` where any spatial axis is `outside` the image."""
    shape = list(value.type.get_shape())  # type: ignore[attr-defined]
    mask = np.zeros([1, *shape[1:-1], 1], dtype=bool)
    for i, off in enumerate(outside):
        if off is not None:
            along = [1] * len(shape)
            along[1 + i] = shape[1 + i]
            mask = mask | off.reshape(along)
    emit = call.emit
    condition = emit.const(mask, IntegerType(1))
    return emit.select(condition, emit.scalar(fill, f32, len(shape)), value, TensorType(f32, shape))


@lowering("image.resize1d", "image.resize2d", "image.resize3d")
def resize(call: RuleCall) -> Tensor:
    """``image.resize<n>d``: each ``method`` (nearest_neighbor, linear, cubic),
    ``coordinate_transformation_mode`` and ``rounding_method`` the interpreter reads."""
    attr = call.call.attr
    spec = Resize(
        str(attr("method")),
        str(attr("coordinate_transformation_mode")),
        str(attr("rounding_method") or ""),
        float(attr("cubic_alpha")),
        bool(attr("cubic_exclude")),
        tuple(float(v) for v in attr("roi") or ()),
        float(attr("extrapolation_value")),
    )
    return resized(call, call.tensor(0), str(attr("layout")), spec, call.result_type)


@lowering("nn.upsampling")
def upsampling(call: RuleCall) -> Tensor:
    """``nn.upsampling``: a resize of H and W (nearest, bilinear, bicubic) to the
    result's size, ``align_corners`` or else asymmetric coordinates."""
    attr = call.call.attr
    mode = "align_corners" if attr("align_corners") else "asymmetric"
    spec = Resize(str(attr("method")).removeprefix("bi"), mode)
    return resized(call, call.tensor(0), str(attr("layout")), spec, call.result_type)


@lowering("nn.upsampling3d")
def upsampling3d(call: RuleCall) -> Tensor:
    """``nn.upsampling3d``: a resize of D, H and W (nearest, trilinear) to the result's size."""
    attr = call.call.attr
    spec = Resize(
        str(attr("method")).removeprefix("tri"), str(attr("coordinate_transformation_mode"))
    )
    return resized(call, call.tensor(0), str(attr("layout")), spec, call.result_type)
