"""Convolutions, channels-last: ``tosa.conv2d``, ``tosa.depthwise_conv2d``, ``tosa.conv3d``.

``nn.conv2d`` becomes ``tosa.conv2d`` (``groups == 1``),
``tosa.depthwise_conv2d`` (one group per input channel), or, for other
groups, one ``tosa.conv2d`` per group joined by ``tosa.concat`` (with
``prefer_linalg``, one ``linalg.generic`` over all groups instead); the
activation is held in NHWC and the weight is laid out as TOSA wants
(``OHWI``, or ``[KH, KW, C, M]`` for depthwise) when compiling.
``nn.conv3d`` is ``tosa.conv3d`` on NDHWC (grouped: one per group), and
``nn.conv1d`` a ``conv2d`` with a unit ``H`` axis. With ``prefer_linalg``, a
depthwise convolution of one output per channel is
``linalg.depthwise_conv_2d_nhwc_hwc``, which upstream vectorises at any
stride, a float32 3x3 convolution of stride one by a known filter
(``WINOGRAD_CHANNELS``, ``WINOGRAD_PIXELS``) Winograd's F(2x2, 3x3)
(`_winograd_conv2d`, conversion/winograd.py), and
another float32 convolution by a known filter into few pixels a product of
its taps by the filter packed into panels (`_product_conv2d`).
A per-channel bias added right after the convolution is its initial
sums (rules/bias.py).

A transposed convolution is the convolution, of stride one, of its input
with ``stride - 1`` zeros between elements, by its weight flipped along
every spatial axis with input and output channels swapped (per group),
padded by ``dilation * (kernel - 1) - padding`` (plus ``output_padding``
after). Upstream's ``tosa-to-linalg`` does not lower
``tosa.transpose_conv2d``, and this form also takes dilations, groups and
three dimensions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Attribute, SSAValue

from relay_xdsl.conversion import linalg
from relay_xdsl.conversion.lowering import SMALL_CONSTANT, RuleCall
from relay_xdsl.conversion.packed_matmul import pack_panels, packed_conv2d, packed_matmul
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.bias import with_following_bias
from relay_xdsl.conversion.rules.windows import (
    exact_window,
    layout_perm,
    spatial_padding,
    with_unit_axis,
    with_unit_layout,
    without_unit_axis,
)
from relay_xdsl.conversion.tosa import TosaBuilder, i64_array
from relay_xdsl.conversion.values import Tensor, permuted_type
from relay_xdsl.conversion.winograd import winograd_conv2d, winograd_filters
from relay_xdsl.dialects.relay.layouts import spatial_axes


def _checked_layouts(call: RuleCall) -> tuple[str, str]:
    """The call's data and kernel layouts; the out layout must be the data's."""
    layout = call.call.attr("data_layout")
    out_layout = call.call.attr("out_layout") or layout
    if out_layout != layout:
        raise call.error(f"out layout {out_layout} other than the data layout is not supported")
    return layout, call.call.attr("kernel_layout")


def convolution(
    call: RuleCall,
    x: Tensor,
    w: Tensor,
    layout: str,
    kernel_layout: str,
    window: tuple[Sequence[int], Sequence[int], Sequence[int], int],
    result_type: TensorType,
    bias: SSAValue | None = None,
) -> Tensor:
    """`x` (in `layout`) convolved by `w` (in `kernel_layout`) with `window`
    (strides, dilation, Relay's padding, groups), plus the per-channel `bias`
    if given, the result of `result_type` held channels-last."""
    strides, dilation, padding, groups = window
    spatial = spatial_axes(len(strides))
    perm = layout_perm(call, layout, f"N{spatial}C")
    to_tosa = layout_perm(call, kernel_layout, f"O{spatial}I", "kernel layout")
    result = permuted_type(result_type, perm)
    kernel = permuted_type(w.type, to_tosa).get_shape()[1:-1]
    data, pads = exact_window(
        call, call.value(x, perm), padding, kernel, strides, dilation, result.get_shape()[1:-1]
    )
    if len(strides) == 2:
        value = _conv2d(call, data, w, to_tosa, strides, dilation, pads, groups, bias, result)
    else:
        weight = call.value(w, to_tosa)
        value = _grouped(
            call,
            data,
            weight,
            groups,
            _convolver(call, "conv3d", result.get_element_type(), strides, dilation, pads),
            bias,
            result,
        )
    return Tensor(result_type, value, perm)


Convolve = Callable[[SSAValue, SSAValue, SSAValue | None, TensorType], SSAValue]
"""``convolve(data, weight, bias, result_type)``: one convolution's value."""


def _convolver(
    call: RuleCall,
    name: str,
    element: Attribute,
    strides: Sequence[int],
    dilation: Sequence[int],
    pads: Sequence[int],
) -> Convolve:
    """A function emitting ``tosa.<name>`` of data, weight and bias (zeros where
    None) to a result type of `element`s (its zero point emitted first)."""
    emit = call.emit
    zero = emit.zero_point(element)

    def convolve(
        data: SSAValue, weight: SSAValue, bias: SSAValue | None, result: TensorType
    ) -> SSAValue:
        if bias is None:
            bias = emit.splat(0, element, [result.get_shape()[-1]])
        attributes = {
            "acc_type": element,
            "dilation": i64_array(dilation),
            "pad": i64_array(pads),
            "stride": i64_array(strides),
        }
        return emit.op(name, [data, weight, bias, zero, zero], result, attributes)

    return convolve


def _conv2d(
    call: RuleCall,
    data: SSAValue,
    w: Tensor,
    ohwi: tuple[int, ...],
    strides: Sequence[int],
    dilation: Sequence[int],
    pads: list[int],
    groups: int,
    bias: SSAValue | None,
    result: TensorType,
) -> SSAValue:
    """The 2-D convolution of NHWC `data` (cut and padded by `pads`), plus `bias`,
    to NHWC `result`."""
    emit = call.emit
    in_c = data.type.get_shape()[3]  # type: ignore[attr-defined]
    out_c = result.get_shape()[3]
    weight_ohwi = permuted_type(w.type, ohwi)
    kh, kw = weight_ohwi.get_shape()[1:3]
    convolve = _convolver(call, "conv2d", result.get_element_type(), strides, dilation, pads)
    if groups == 1:
        if _as_winograd(call, data, w, result, (kh, kw), strides, dilation):
            return _winograd_conv2d(call, data, w, ohwi, pads, bias, result)
        if _as_product(call, data, w, result, kh * kw):
            return _product_conv2d(call, data, w, ohwi, strides, dilation, pads, bias, result)
        return convolve(data, _ohwi_weight(call, w, ohwi), bias, result)
    if groups == in_c and weight_ohwi.get_shape()[3] == 1:
        multiplier = out_c // in_c
        same_type = w.element_type == result.get_element_type()
        if multiplier == 1 and call.prefer_linalg and same_type:
            # [KH, KW, C]: the OIHW weight (C, 1, KH, KW) seen as (C, KH, KW), then permuted
            hwc = _reshaped_known(call, w, ohwi, (in_c, kh, kw))
            weight = call.lowering.materialize(hwc, (1, 2, 0))
            padded = linalg.zero_padded(emit, data, [0, 0, *pads, 0, 0])
            return linalg.depthwise_conv2d(emit, padded, weight, strides, dilation, bias, result)
        # [KH, KW, C, M]: the OIHW weight (C*M, 1, KH, KW) seen as (C, M, KH, KW), then permuted
        hwcm = _reshaped_known(call, w, ohwi, (in_c, multiplier, kh, kw))
        weight = call.lowering.materialize(hwcm, (2, 3, 0, 1))
        depthwise = _convolver(
            call, "depthwise_conv2d", result.get_element_type(), strides, dilation, pads
        )
        return depthwise(data, weight, bias, result)
    if call.prefer_linalg:
        # [G, KH, KW, C/G, O/G]: the OIHW weight (G*O/G, C/G, KH, KW) seen as (G, O/G, C/G, KH, KW)
        per_group = _reshaped_known(
            call, w, ohwi, (groups, out_c // groups, in_c // groups, kh, kw)
        )
        weight = call.lowering.materialize(per_group, (0, 3, 4, 2, 1))
        padded = emit.pad(data, [0, 0, *pads, 0, 0])
        return linalg.grouped_conv2d(emit, padded, weight, strides, dilation, bias, result)
    return _grouped(call, data, call.value(w, ohwi), groups, convolve, bias, result)


# A filter of a multiple of ALIASED_FILTERS filters has rows a multiple of
# 512 bytes apart; a conv tile's 32-filter slice of them (one 128-byte piece
# per row) then falls in an eighth or less of the L1 cache's sets, too few to
# hold it across the output pixels, and comes from L2 again for every tile.
# Passed with PADDED_FILTERS more columns, unused, its rows lie 64 bytes off
# that multiple and spread over all the sets (resnet50's 1x1 convs from 64
# and 128 channels to 256 and 512: about 1.3x faster; resnet50 48.0 to 46.2
# ms of CPU time a run with 256 here, to about 45.3 with 128; with 64, a 3x3
# conv of 64 channels ran slower).
ALIASED_FILTERS = 128
PADDED_FILTERS = 16


# A float32 conv by a known filter into at most PRODUCT_PIXELS output pixels
# (a late layer's 14x14 or 7x7) is a product of its taps, side by side, by
# the filter packed into panels when compiling (packed_matmul.py): each
# 32-filter panel is contiguous, where a 3x3x512x512 filter read in place as
# HWCF streams 9.4 MB of slices 2 KiB apart on every call, and its few
# output rows share each slice little (resnet18 18.7 to 17.8 ms of CPU time
# a run with 49 pixels; resnet50 43.8 to 42.3 with 49, 41.7 with 196, 42.9
# with 784 for 1x1 filters; 1x1 stride-2 convs into 784 pixels as products
# too: resnet50 about 2% slower).  Only filters of at most PRODUCT_TAPS taps:
# each tap is a slice of its own, and vit_b_16's 16x16 patch embedding as 256
# of them took mlir-opt minutes (a build of 8 s took 494).
PRODUCT_PIXELS = 196
PRODUCT_TAPS = 9
# A conv into more than IN_PLACE_TAPS_PIXELS pixels (the 14x14 and 7x7
# layers) reads its taps in place (`packed_conv2d`) from its padded input seen
# as blocks of its strides, [N, H/SH, SH, W/SW, SW*C] (a view: `_stride_blocks`),
# at (y + kh*DH floordiv SH, kh*DH mod SH, ...), where the product of copied
# taps wrote and read again a matrix up to nine times the input (1.8 MB at
# 14x14x256, beside a 2.4 MB filter in a 2 MiB L2: resnet50's 14x14 3x3 convs
# took about 14% less time in place).  With a 1 MiB L2 and half the FMA
# throughput, the 7x7 layers' copied taps, in the product's blocks of the
# reduction, ran at two thirds of the core's peak, in place at 94%
# (resnet50's 7x7 3x3 512-filter conv of stride 1: 2.97 to 2.30 ms, of
# stride 2: 3.1 to 2.2, its 1x1 stride-2 downsample 3.1 to 2.0; resnet18 35.3
# to 33.1 ms a call, resnet50 83.1 to 76.2, one thread, the same bits).  A
# build for IREE keeps copied taps (`in_place_taps`: iree_build.py).
IN_PLACE_TAPS_PIXELS = 48


def _as_product(call: RuleCall, data: SSAValue, w: Tensor, result: TensorType, taps: int) -> bool:
    """Whether the conv of `data` by `w` (`taps` filter taps) to NHWC `result`
    is a `_product_conv2d`."""
    _, oh, ow, _ = result.get_shape()
    return (
        _known_float32(call, data, w, result) and oh * ow <= PRODUCT_PIXELS and taps <= PRODUCT_TAPS
    )


def _known_float32(call: RuleCall, data: SSAValue, w: Tensor, result: TensorType) -> bool:
    """Whether the conv of `data` by `w` to `result` may be written in linalg, by
    a known filter, all in float32: the products on packed panels' and Winograd's."""
    return (
        call.prefer_linalg
        and w.array is not None
        and data.type.get_element_type() == w.element_type == result.get_element_type() == f32  # type: ignore[attr-defined]
    )


def _known_hwio(w: Tensor, ohwi: tuple[int, ...]) -> np.ndarray:
    """The known filter `w` (`ohwi` its permutation to OHWI) as HWIO."""
    assert w.array is not None
    return w.array.transpose((ohwi[1], ohwi[2], ohwi[3], ohwi[0]))


def _product_conv2d(
    call: RuleCall,
    data: SSAValue,
    w: Tensor,
    ohwi: tuple[int, ...],
    strides: Sequence[int],
    dilation: Sequence[int],
    pads: list[int],
    bias: SSAValue | None,
    result: TensorType,
) -> SSAValue:
    """The 2-D convolution of NHWC `data` by the known `w` as a product by
    the filter as ``[KH * KW * C, F]`` packed into panels (`PRODUCT_PIXELS`),
    plus `bias`, to NHWC `result`: of a stride of one into more than
    `IN_PLACE_TAPS_PIXELS` pixels, a `packed_conv2d`, which reads each tap in
    place; otherwise a `_taps_product`."""
    emit = call.emit
    _, oh, ow, filters = result.get_shape()
    channels = data.type.get_shape()[3]  # type: ignore[attr-defined]
    hwio = _known_hwio(w, ohwi)
    kh, kw = hwio.shape[:2]
    weight = pack_panels(hwio.reshape(kh * kw * channels, filters))
    packed = call.lowering.materialize(Tensor(TensorType(f32, weight.shape), array=weight))
    if call.in_place_taps and oh * ow > IN_PLACE_TAPS_PIXELS:
        blocks = _stride_blocks(emit, data, pads, result, (kh, kw), strides, dilation)
        return packed_conv2d(emit, blocks, packed, filters, (kh, kw), strides, dilation, bias)
    return _taps_product(emit, data, packed, result, (kh, kw), strides, dilation, pads, bias)


# A float32 3x3 conv of stride one by a known filter into at least
# WINOGRAD_PIXELS output pixels (a 7x7 layer's and more) is Winograd's F(2x2,
# 3x3) (winograd.py): a product of 16 batches, of 2.25 times fewer
# multiply-adds than the conv's (resnet50's 3x3 layers, one thread, under `perf` in the model: at
# 56x56 2.08 to 1.38 ms, at 28x28 2.11 to 1.14, at 14x14 2.10 to 1.14;
# resnet50 77.2 to 65.0 ms a call, resnet18 33.6 to 23.9, with the 7x7 layers
# too 63.6 and 22.0; medians of alternating calls). Into fewer pixels, each
# of the 16 transformed filters, 16/9 of the filter, would serve a few rows.
WINOGRAD_PIXELS = 49
# ... and of at least WINOGRAD_CHANNELS input channels: a 3x3 conv from 4
# channels to 64 at 56x56 took 0.19 ms direct, 0.22 as Winograd's; from 8,
# 0.37 and 0.27 (one thread, medians of alternating calls).
WINOGRAD_CHANNELS = 8


def _as_winograd(
    call: RuleCall,
    data: SSAValue,
    w: Tensor,
    result: TensorType,
    kernel: tuple[int, int],
    strides: Sequence[int],
    dilation: Sequence[int],
) -> bool:
    """Whether the conv of `data` by `w` to NHWC `result` is a `_winograd_conv2d`."""
    _, oh, ow, _ = result.get_shape()
    return (
        _known_float32(call, data, w, result)
        and kernel == (3, 3)
        and data.type.get_shape()[3] >= WINOGRAD_CHANNELS  # type: ignore[attr-defined]
        and tuple(strides) == (1, 1)
        and tuple(dilation) == (1, 1)
        and oh * ow >= WINOGRAD_PIXELS
    )


def _winograd_conv2d(
    call: RuleCall,
    data: SSAValue,
    w: Tensor,
    ohwi: tuple[int, ...],
    pads: list[int],
    bias: SSAValue | None,
    result: TensorType,
) -> SSAValue:
    """The 3x3 convolution of stride one of NHWC `data` (padded by `pads`) by
    the known `w`, plus `bias`, to NHWC `result`, as `winograd_conv2d`."""
    emit = call.emit
    n, oh, ow, filters = result.get_shape()
    _, height, width, _ = data.type.get_shape()  # type: ignore[attr-defined]
    filter_transform = winograd_filters(_known_hwio(w, ohwi))
    packed = call.lowering.materialize(
        Tensor(TensorType(f32, filter_transform.shape), array=filter_transform)
    )
    # whole 2x2 blocks of outputs: a row and a column more where odd
    below = oh + oh % 2 + 2 - height - pads[0]
    right = ow + ow % 2 + 2 - width - pads[2]
    # one pass, or none where the group making `data` returns it padded (padded_results.py)
    padded = linalg.zero_padded(emit, data, [0, 0, pads[0], below, pads[2], right, 0, 0])
    out = winograd_conv2d(emit, padded, packed, filters, bias)
    return emit.slice(out, [0, 0, 0, 0], [n, oh, ow, filters])


def _stride_blocks(
    emit: TosaBuilder,
    data: SSAValue,
    pads: list[int],
    result: TensorType,
    kernel: tuple[int, int],
    strides: Sequence[int],
    dilation: Sequence[int],
) -> SSAValue:
    """NHWC `data` padded by `pads` (and cut or padded further at the bottom
    and right to whole blocks) seen as ``[N, H / SH, SH, W / SW, SW * C]``:
    blocks of `strides` rows and columns, so that `packed_conv2d` reads
    output pixel ``(y, x)`` 's tap ``(kh, kw)`` at block ``(y + kh * DH //
    SH, x + kw * DW // SW)`` (see there)."""
    n, height, width, channels = data.type.get_shape()  # type: ignore[attr-defined]
    _, oh, ow, _ = result.get_shape()
    extents = []
    for output, tap, stride, step in zip((oh, ow), kernel, strides, dilation, strict=True):
        extents.append((output + (tap - 1) * step // stride) * stride)
    below = max(0, extents[0] - height - pads[0])
    right = max(0, extents[1] - width - pads[2])
    padded = emit.pad(data, [0, 0, pads[0], below, pads[2], right, 0, 0])
    padded = emit.slice(padded, [0, 0, 0, 0], [n, *extents, channels])
    sh, sw = strides
    return emit.reshape(padded, [n, extents[0] // sh, sh, extents[1] // sw, sw * channels])


def _taps_product(
    emit: TosaBuilder,
    data: SSAValue,
    packed: SSAValue,
    result: TensorType,
    kernel: tuple[int, int],
    strides: Sequence[int],
    dilation: Sequence[int],
    pads: list[int],
    bias: SSAValue | None,
) -> SSAValue:
    """The conv of NHWC `data` by the `packed` filter, plus `bias`, to NHWC
    `result` (`_product_conv2d`) as a `packed_matmul` of its taps' pixels
    copied side by side."""
    n, oh, ow, filters = result.get_shape()
    channels = data.type.get_shape()[3]  # type: ignore[attr-defined]
    kh, kw = kernel
    sh, sw = strides
    # `stride - 1` more rows and columns after, so that every tap's window
    # is `stride` times its output and a reshape picks every stride-th pixel
    padded = emit.pad(data, [0, 0, pads[0], pads[1] + sh - 1, pads[2], pads[3] + sw - 1, 0, 0])
    taps = []
    for i in range(kh):
        for j in range(kw):
            window = emit.slice(
                padded, [0, i * dilation[0], j * dilation[1], 0], [n, oh * sh, ow * sw, channels]
            )
            strided = emit.reshape(window, [n * oh, sh, ow, sw * channels])
            tap = emit.slice(strided, [0, 0, 0, 0], [n * oh, 1, ow, channels])
            taps.append(emit.reshape(tap, [n * oh * ow, channels]))
    rows = emit.concat(taps, 1, TensorType(f32, [n * oh * ow, kh * kw * channels]))
    product = packed_matmul(emit, rows, packed, filters, bias)
    return emit.reshape(product, [n, oh, ow, filters])


def _ohwi_weight(call: RuleCall, w: Tensor, ohwi: tuple[int, ...]) -> SSAValue:
    """The weight in TOSA's OHWI.

    A weight passed as an argument is passed HWIO and transposed to OHWI in
    the IR: the compiled schedule reads HWIO, so the two transposes cancel
    when compiling, where an OHWI argument is transposed on every call.  With
    a multiple of `ALIASED_FILTERS` filters it is passed with
    `PADDED_FILTERS` more (zeros), which a slice leaves out."""
    if w.array is None or not call.lowering.weights_as_arguments or w.array.size <= SMALL_CONSTANT:
        return call.value(w, ohwi)
    to_hwio = (ohwi[1], ohwi[2], ohwi[3], ohwi[0])
    shape = permuted_type(w.type, to_hwio).get_shape()
    if shape[3] % ALIASED_FILTERS == 0:
        hwio = np.ascontiguousarray(w.array.transpose(to_hwio))
        padded = np.pad(hwio, [(0, 0)] * 3 + [(0, PADDED_FILTERS)])
        known = Tensor(TensorType(w.element_type, padded.shape), array=padded)
        value = call.emit.slice(call.value(known), [0, 0, 0, 0], shape)
    else:
        value = call.value(w, to_hwio)
    return call.emit.transpose(value, (3, 0, 1, 2))


def _reshaped_known(
    call: RuleCall, w: Tensor, ohwi: tuple[int, ...], shape: tuple[int, ...]
) -> Tensor:
    """The weight `w` in OIHW order of dimensions, reshaped to `shape`."""
    to_oihw = tuple(ohwi[i] for i in (0, 3, 1, 2))
    type_ = TensorType(w.element_type, shape)
    if w.array is not None:
        return Tensor(type_, array=np.ascontiguousarray(w.array.transpose(to_oihw)).reshape(shape))
    return Tensor(type_, call.emit.reshape(call.value(w, to_oihw), shape))


def _grouped(
    call: RuleCall,
    data: SSAValue,
    weight: SSAValue,
    groups: int,
    convolve: Convolve,
    bias: SSAValue | None,
    result: TensorType,
) -> SSAValue:
    """A convolution of channels-last `data` by a weight ``O<spatial>I``, plus
    `bias`, one convolution per group concatenated on the channels."""
    if groups == 1:
        return convolve(data, weight, bias, result)
    data_shape = list(data.type.get_shape())  # type: ignore[attr-defined]
    weight_shape = list(weight.type.get_shape())  # type: ignore[attr-defined]
    per_group_in, per_group_out = weight_shape[-1], weight_shape[0] // groups
    part_type = TensorType(result.get_element_type(), [*result.get_shape()[:-1], per_group_out])
    parts = []
    for g in range(groups):
        part = call.emit.slice(
            data, [0] * (len(data_shape) - 1) + [g * per_group_in], data_shape[:-1] + [per_group_in]
        )
        kernel = call.emit.slice(
            weight,
            [g * per_group_out] + [0] * (len(weight_shape) - 1),
            [per_group_out, *weight_shape[1:]],
        )
        part_bias = (
            call.emit.slice(bias, [g * per_group_out], [per_group_out])
            if bias is not None
            else None
        )
        parts.append(convolve(part, kernel, part_bias, part_type))
    return call.emit.concat(parts, len(data_shape) - 1, result)


def _summing_into_bias(
    call: RuleCall, layout: str, kernel_layout: str, build: Callable[..., Tensor]
) -> Tensor:
    """`build` 's convolution of `call`, summing into the bias a following add gives
    (rules/bias.py), if any."""
    return with_following_bias(
        call,
        layout.index("C"),
        lambda bias: build(
            call,
            call.tensor(0),
            call.tensor(1),
            layout,
            kernel_layout,
            _window(call),
            call.result_type,
            bias,
        ),
    )


def _window(call: RuleCall) -> tuple[list[int], list[int], list[int], int]:
    return (
        call.call.ints("strides"),
        call.call.ints("dilation"),
        call.call.ints("padding"),
        int(call.call.attr("groups")),
    )


@lowering("nn.conv2d", "nn.conv3d")
def conv(call: RuleCall) -> Tensor:
    layout, kernel_layout = _checked_layouts(call)
    return _summing_into_bias(call, layout, kernel_layout, convolution)


def _as_2d(
    call: RuleCall,
    layout: str,
    kernel_layout: str,
    window: tuple[Sequence[int], Sequence[int], Sequence[int], int],
    run: Callable[..., Tensor],
    bias: SSAValue | None,
) -> Tensor:
    """A 1-D convolution `run` (plus `bias`) as its 2-D kind with a unit ``H``
    axis before ``W``."""
    if "W" not in layout or "W" not in kernel_layout:
        raise call.error(f"layouts {layout}, {kernel_layout} are not supported")
    strides, dilation, padding, groups = window
    ((before, after),) = spatial_padding(padding, 1)
    x = with_unit_axis(call, call.tensor(0), layout.index("W"))
    w = with_unit_axis(call, call.tensor(1), kernel_layout.index("W"))
    shape = list(call.result_type.get_shape())
    shape.insert(layout.index("W"), 1)
    window_2d = ([1, *strides], [1, *dilation], [0, before, 0, after], groups)
    result = run(
        call,
        x,
        w,
        with_unit_layout(layout),
        with_unit_layout(kernel_layout),
        window_2d,
        TensorType(call.result_type.get_element_type(), shape),
        bias,
    )
    return without_unit_axis(call, result, layout.index("W"))


@lowering("nn.conv1d")
def conv1d(call: RuleCall) -> Tensor:
    layout, kernel_layout = _checked_layouts(call)
    return with_following_bias(
        call,
        layout.index("C"),
        lambda bias: _as_2d(call, layout, kernel_layout, _window(call), convolution, bias),
    )


# Transposed convolutions.


def transposed_convolution(
    call: RuleCall,
    x: Tensor,
    w: Tensor,
    layout: str,
    kernel_layout: str,
    window: tuple[Sequence[int], Sequence[int], Sequence[int], int],
    result_type: TensorType,
    bias: SSAValue | None = None,
) -> Tensor:
    """`x` (in `layout`) convolved transposed by `w` (in `kernel_layout`, ``IO``
    and the spatial axes) with `window` (strides, dilation, Relay's padding,
    groups), plus `bias`, as the convolution of the module docstring;
    ``output_padding`` shows in `result_type`."""
    strides, dilation, padding, groups = window
    dims = len(strides)
    spatial = spatial_axes(dims)
    perm = layout_perm(call, layout, f"N{spatial}C")
    to_io = layout_perm(call, kernel_layout, f"IO{spatial}", "kernel layout")
    kernel = permuted_type(w.type, to_io).get_shape()[2:]
    value = call.value(x, perm)
    for axis, stride in enumerate(strides, start=1):
        value = _spread(call, value, axis, stride)
    pads = [
        d * (k - 1) - before
        for (before, _), k, d in zip(spatial_padding(padding, dims), kernel, dilation)
    ]
    physical = value.type.get_shape()  # type: ignore[attr-defined]
    logical = [physical[perm.index(i)] for i in range(dims + 2)]
    spread = Tensor(TensorType(x.element_type, logical), value, perm)
    weight = _forward_weight(call, w, to_io, groups)
    return convolution(
        call,
        spread,
        weight,
        layout,
        f"OI{spatial}",
        ([1] * dims, dilation, [*pads, *([0] * dims)], groups),
        result_type,
        bias,
    )


def _spread(call: RuleCall, value: SSAValue, axis: int, stride: int) -> SSAValue:
    """`value` with ``stride - 1`` zeros between its elements along `axis`."""
    if stride == 1:
        return value
    emit = call.emit
    shape = list(value.type.get_shape())  # type: ignore[attr-defined]
    before, size, after = int(np.prod(shape[:axis])), shape[axis], int(np.prod(shape[axis + 1 :]))
    spread = emit.pad(emit.reshape(value, [before * size, 1, after]), [0, 0, 0, stride - 1, 0, 0])
    spread = emit.reshape(spread, [before, size * stride, after])
    spread = emit.slice(spread, [0, 0, 0], [before, (size - 1) * stride + 1, after])
    return emit.reshape(spread, [*shape[:axis], (size - 1) * stride + 1, *shape[axis + 1 :]])


def _forward_weight(call: RuleCall, w: Tensor, to_io: tuple[int, ...], groups: int) -> Tensor:
    """The ``OI<spatial>`` weight of the forward convolution: per group, the
    transposed weight (``IO<spatial>``) with input and output channels swapped
    and every spatial axis reversed."""
    io = permuted_type(w.type, to_io)
    c, per_group_out, *kernel = io.get_shape()
    per_group_in = c // groups
    grouped = (groups, per_group_in, per_group_out, *kernel)
    swap = (0, 2, 1, *range(3, 3 + len(kernel)))
    shape = (groups * per_group_out, per_group_in, *kernel)
    type_ = TensorType(w.element_type, shape)
    if w.array is not None:
        array = w.array.transpose(to_io)
        array = np.flip(array, tuple(range(2, array.ndim)))
        array = array.reshape(grouped).transpose(swap).reshape(shape)
        return Tensor(type_, array=np.ascontiguousarray(array))
    emit = call.emit
    value = call.value(w, to_io)
    for axis in range(2, 2 + len(kernel)):
        value = emit.reverse(value, axis)
    value = emit.transpose(emit.reshape(value, grouped), swap)
    return Tensor(type_, emit.reshape(value, shape))


@lowering("nn.conv2d_transpose", "nn.conv3d_transpose")
def conv_transpose(call: RuleCall) -> Tensor:
    layout, kernel_layout = _checked_layouts(call)
    return _summing_into_bias(call, layout, kernel_layout, transposed_convolution)


@lowering("nn.conv1d_transpose")
def conv1d_transpose(call: RuleCall) -> Tensor:
    layout, kernel_layout = _checked_layouts(call)
    return with_following_bias(
        call,
        layout.index("C"),
        lambda bias: _as_2d(
            call, layout, kernel_layout, _window(call), transposed_convolution, bias
        ),
    )
