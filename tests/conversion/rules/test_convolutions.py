"""Convolutions (1-D, 2-D, 3-D, transposed) lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from relay_xdsl.conversion import lower_module
from relay_xdsl.conversion.packed_matmul import PANEL
from relay_xdsl.conversion.rules.convolutions import (
    ALIASED_FILTERS,
    IN_PLACE_TAPS_PIXELS,
    PADDED_FILTERS,
    PRODUCT_PIXELS,
    PRODUCT_TAPS,
    WINOGRAD_CHANNELS,
    WINOGRAD_PIXELS,
)
from relay_xdsl.tools.mlir_text import relay_context

RNG = np.random.default_rng(3)


def random(*shape: int, dtype: str = "float32") -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def _shape(shape: tuple[int, ...]) -> str:
    return f"({', '.join(map(str, shape))},)" if len(shape) == 1 else str(shape)


def conv_case(
    operator: str,
    x_shape: tuple[int, ...],
    w_shape: tuple[int, ...],
    attrs: str,
    dtype: str = "float32",
) -> tuple[str, dict[str, np.ndarray]]:
    """``operator(%x, %w, attrs)`` on random data and weight of the shapes."""
    text = (
        f"def @main(%x: Tensor[{_shape(x_shape)}, {dtype}], %w: Tensor[{_shape(w_shape)}, {dtype}])"
        f" {{ {operator}(%x, %w, {attrs}) }}"
    )
    return text, {"x": random(*x_shape, dtype=dtype), "w": random(*w_shape, dtype=dtype)}


CASES = {
    "conv1d": conv_case("nn.conv1d", (2, 3, 11), (4, 3, 3), "channels=4, kernel_size=[3]"),
    "conv1d_strided_asymmetric": conv_case(
        "nn.conv1d",
        (1, 4, 12),
        (6, 2, 3),
        "strides=[2], padding=[2, 1], dilation=[2], groups=2, channels=6, kernel_size=[3]",
    ),
    "conv1d_nwc": conv_case(
        "nn.conv1d",
        (2, 9, 3),
        (3, 3, 5),
        'padding=[1, 1], channels=5, kernel_size=[3], data_layout="NWC", kernel_layout="WIO"',
    ),
    "conv1d_depthwise": conv_case(
        "nn.conv1d", (1, 4, 10), (4, 1, 3), "groups=4, channels=4, kernel_size=[3]"
    ),
    "conv2d_ihwo": conv_case(
        "nn.conv2d",
        (1, 3, 7, 6),
        (3, 3, 2, 5),
        'padding=[1, 0, 2, 1], channels=5, kernel_size=[3, 2], kernel_layout="IHWO"',
    ),
    "conv3d": conv_case(
        "nn.conv3d", (1, 3, 5, 6, 7), (4, 3, 3, 3, 2), "channels=4, kernel_size=[3, 3, 2]"
    ),
    "conv3d_strided_padded": conv_case(
        "nn.conv3d",
        (2, 2, 6, 7, 5),
        (3, 2, 2, 3, 3),
        "strides=[2, 1, 2], padding=[1, 0, 1, 0, 2, 1], dilation=[1, 2, 1], channels=3,"
        " kernel_size=[2, 3, 3]",
    ),
    "conv3d_grouped": conv_case(
        "nn.conv3d", (1, 4, 4, 5, 5), (6, 2, 2, 2, 2), "groups=2, channels=6, kernel_size=[2, 2, 2]"
    ),
    "conv3d_ndhwc": conv_case(
        "nn.conv3d",
        (1, 4, 5, 6, 3),
        (2, 3, 3, 3, 4),
        'padding=[1, 1, 1], channels=4, kernel_size=[2, 3, 3], data_layout="NDHWC",'
        ' kernel_layout="DHWIO"',
    ),
    "conv2d_transpose": conv_case(
        "nn.conv2d_transpose", (1, 3, 5, 4), (3, 2, 3, 3), "channels=2, kernel_size=[3, 3]"
    ),
    "conv2d_transpose_strided": conv_case(
        "nn.conv2d_transpose",
        (2, 4, 4, 5),
        (4, 3, 3, 4),
        "strides=[2, 3], padding=[1, 2, 0, 1], output_padding=[1, 2], channels=3,"
        " kernel_size=[3, 4]",
    ),
    "conv2d_transpose_dilated_grouped": conv_case(
        "nn.conv2d_transpose",
        (1, 4, 5, 5),
        (4, 3, 2, 3),
        "strides=[2, 2], padding=[1, 1], dilation=[2, 1], groups=2, channels=6, kernel_size=[2, 3]",
    ),
    "conv2d_transpose_large_padding": conv_case(
        "nn.conv2d_transpose",
        (1, 2, 6, 6),
        (2, 2, 3, 3),
        "strides=[2, 2], padding=[4, 3], channels=2, kernel_size=[3, 3]",
    ),
    "conv2d_transpose_nhwc": conv_case(
        "nn.conv2d_transpose",
        (1, 5, 4, 3),
        (3, 3, 2, 3),
        'strides=[2, 2], padding=[1, 1], channels=2, kernel_size=[3, 3], data_layout="NHWC",'
        ' kernel_layout="HWOI"',
    ),
    "conv2d_transpose_depthwise": conv_case(
        "nn.conv2d_transpose",
        (1, 3, 4, 4),
        (3, 1, 3, 3),
        "strides=[2, 2], padding=[1, 1], groups=3, channels=3, kernel_size=[3, 3]",
    ),
    "conv1d_transpose": conv_case(
        "nn.conv1d_transpose",
        (2, 3, 7),
        (3, 4, 3),
        "strides=[2], padding=[1], output_padding=[1], channels=4, kernel_size=[3]",
    ),
    "conv1d_transpose_dilated": conv_case(
        "nn.conv1d_transpose",
        (1, 2, 5),
        (2, 2, 4),
        "strides=[3], dilation=[2], channels=2, kernel_size=[4]",
    ),
    "conv3d_transpose": conv_case(
        "nn.conv3d_transpose",
        (1, 2, 3, 4, 3),
        (2, 3, 2, 2, 2),
        "strides=[2, 1, 2], padding=[0, 1, 1], channels=3, kernel_size=[2, 2, 2]",
    ),
    # Depthwise at strides 2 and 3 (linalg.depthwise_conv_2d_nhwc_hwc, vectorised
    # by the schedule): odd sizes, asymmetric padding, dilation, channel counts
    # the 32-channel tile does not divide, NHWC.
    "depthwise_s2_odd": conv_case(
        "nn.conv2d",
        (1, 40, 13, 11),
        (40, 1, 3, 3),
        "strides=[2, 2], padding=[1, 1, 1, 1], groups=40, channels=40, kernel_size=[3, 3]",
    ),
    "depthwise_s2_asymmetric": conv_case(
        "nn.conv2d",
        (1, 24, 14, 17),
        (24, 1, 3, 3),
        "strides=[2, 2], padding=[0, 1, 2, 0], groups=24, channels=24, kernel_size=[3, 3]",
    ),
    "depthwise_s2_dilated": conv_case(
        "nn.conv2d",
        (1, 36, 19, 18),
        (36, 1, 3, 3),
        "strides=[2, 2], padding=[2, 2, 2, 2], dilation=[2, 2], groups=36, channels=36,"
        " kernel_size=[3, 3]",
    ),
    "depthwise_s3_5x5": conv_case(
        "nn.conv2d",
        (1, 8, 16, 21),
        (8, 1, 5, 5),
        "strides=[3, 2], padding=[2, 2, 2, 2], groups=8, channels=8, kernel_size=[5, 5]",
    ),
    "depthwise_s2_nhwc": conv_case(
        "nn.conv2d",
        (1, 9, 9, 33),
        (3, 3, 33, 1),
        "strides=[2, 2], padding=[1, 1, 1, 1], groups=33, channels=33, kernel_size=[3, 3],"
        ' data_layout="NHWC", kernel_layout="HWOI"',
    ),
    "conv2d_float16": conv_case(
        "nn.conv2d",
        (1, 3, 6, 6),
        (4, 3, 3, 3),
        "padding=[1, 1], channels=4, kernel_size=[3, 3]",
        dtype="float16",
    ),
    "conv2d_transpose_float16": conv_case(
        "nn.conv2d_transpose",
        (1, 2, 4, 4),
        (2, 2, 3, 3),
        "strides=[2, 2], channels=2, kernel_size=[3, 3]",
        dtype="float16",
    ),
}
# A known weight, as after import: folded into the forward convolution's layout when compiling.
CASES["conv2d_transpose_known_weight"] = (
    """
    func.func @main(%x: tensor<1x2x3x3xf32>) -> tensor<1x1x6x6xf32> {
      %w = relay.constant dense<[[[[1.0, -2.0], [0.5, 3.0]]], [[[2.0, 1.0], [-1.0, 0.25]]]]>
        : tensor<2x1x2x2xf32>
      %r = relay.nn.conv2d_transpose(%x, %w) {channels = 1 : i32,
        kernel_size = array<i32: 2, 2>, strides = array<i32: 2, 2>}
        : (tensor<1x2x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x1x6x6xf32>
      func.return %r : tensor<1x1x6x6xf32>
    }
    """,
    {"x": random(1, 2, 3, 3)},
)


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)


def _known(array: np.ndarray) -> str:
    return f'dense<"0x{array.tobytes().hex().upper()}">'


def _type(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _known_weight_conv(filters: int) -> str:
    """A 1x1 conv of 4 channels to `filters` on 15x14 pixels (more than
    `PRODUCT_PIXELS`), its weight a known OIHW constant."""
    weight = random(filters, 4, 1, 1)
    return f"""
    func.func @main(%x: tensor<1x4x15x14xf32>) -> tensor<1x{filters}x15x14xf32> {{
      %w = relay.constant {_known(weight)} : tensor<{filters}x4x1x1xf32>
      %r = relay.nn.conv2d(%x, %w) {{channels = {filters} : i32, kernel_size = array<i32: 1, 1>}}
        : (tensor<1x4x15x14xf32>, tensor<{filters}x4x1x1xf32>) -> tensor<1x{filters}x15x14xf32>
      func.return %r : tensor<1x{filters}x15x14xf32>
    }}
    """


# 256 filters: the weight argument has 16 more, unused (ALIASED_FILTERS).
CASES["conv2d_256_known_filters"] = (_known_weight_conv(256), {"x": random(1, 4, 15, 14)})


def _product_conv(x: tuple[int, ...], w: tuple[int, ...], r: tuple[int, ...], attrs: str) -> str:
    """A conv (`attrs`) of NCHW `x` by a known OIHW weight `w` to `r`, plus a
    known bias: at most `PRODUCT_PIXELS` output pixels, a product of its taps."""
    return f"""
    func.func @main(%x: {_type(x)}) -> {_type(r)} {{
      %w = relay.constant {_known(random(*w))} : {_type(w)}
      %b = relay.constant {_known(random(w[0]))} : {_type((w[0],))}
      %c = relay.nn.conv2d(%x, %w) {{channels = {w[0]} : i32, {attrs}}}
        : ({_type(x)}, {_type(w)}) -> {_type(r)}
      %r = relay.nn.bias_add(%c, %b) : ({_type(r)}, {_type((w[0],))}) -> {_type(r)}
      func.return %r : {_type(r)}
    }}
    """


def _product_case(
    x: tuple[int, ...], w: tuple[int, ...], r: tuple[int, ...], attrs: str
) -> tuple[str, dict[str, np.ndarray]]:
    """`_product_conv` 's case, on a random `x`."""
    return _product_conv(x, w, r, attrs), {"x": random(*x)}


STRIDED_DILATED = (
    "kernel_size = array<i32: 3, 2>, strides = array<i32: 2, 3>,"
    " dilation = array<i32: 2, 1>, padding = array<i32: 2, 1, 0, 2>"
)
STRIDE_TWO_1X1 = "kernel_size = array<i32: 1, 1>, strides = array<i32: 2, 2>"

# Convs into at most PRODUCT_PIXELS pixels by known filters: 40 and 33
# filters leave a last panel of 8 and 1 (packed_matmul.py); two images, 3x3
# taps; strides, a dilation and uneven padding; a 1x1 conv of stride 2.
CASES["conv2d_known_3x3_as_product"] = _product_case(
    (2, 5, 6, 7),
    (40, 5, 3, 3),
    (2, 40, 6, 7),
    "kernel_size = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>",
)
CASES["conv2d_known_strided_dilated_as_product"] = _product_case(
    (1, 6, 11, 9),
    (33, 6, 3, 2),
    (1, 33, 5, 4),
    STRIDED_DILATED,
)
CASES["conv2d_known_1x1_strided_as_product"] = _product_case(
    (1, 8, 9, 9),
    (16, 8, 1, 1),
    (1, 16, 5, 5),
    STRIDE_TWO_1X1,
)

# Into more than IN_PLACE_TAPS_PIXELS pixels (11x12): its taps read in place;
# two images, a dilation, uneven padding, 12 columns (a tile of 7 and a
# remainder of 5), 5 channels (steps of 4 and a remainder of 1), 40 filters
# (a last panel of 8).
CASES["conv2d_known_3x3_taps_in_place"] = _product_case(
    (2, 5, 12, 13),
    (40, 5, 3, 3),
    (2, 40, 11, 12),
    "kernel_size = array<i32: 3, 3>, dilation = array<i32: 2, 2>, padding = array<i32: 2, 2, 1, 1>",
)

# Strided into more than IN_PLACE_TAPS_PIXELS pixels: read in place from the
# input seen as blocks of the strides (10x9 pixels: a stride of (2, 3), a
# dilation, uneven padding; 8x8: a 1x1 conv of stride 2 whose 15 rows and
# columns are padded by one to whole blocks).
CASES["conv2d_known_strided_dilated_taps_in_place"] = _product_case(
    (1, 6, 21, 25),
    (33, 6, 3, 2),
    (1, 33, 10, 9),
    STRIDED_DILATED,
)
CASES["conv2d_known_1x1_strided_taps_in_place"] = _product_case(
    (1, 8, 15, 15),
    (16, 8, 1, 1),
    (1, 16, 8, 8),
    STRIDE_TWO_1X1,
)

# 3x3 convs of stride one into at least WINOGRAD_PIXELS pixels, of at least
# WINOGRAD_CHANNELS channels: Winograd's F(2x2, 3x3). Two images of 15x14
# pixels (a last row of blocks cut to one row), 9 channels, 40 filters (a
# last panel of 8); uneven padding, 33 filters (a last panel of 1).
CASES["conv2d_known_3x3_winograd"] = _product_case(
    (2, 9, 15, 14),
    (40, 9, 3, 3),
    (2, 40, 15, 14),
    "kernel_size = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>",
)
CASES["conv2d_known_3x3_winograd_uneven_padding"] = _product_case(
    (1, WINOGRAD_CHANNELS, 16, 15),
    (33, WINOGRAD_CHANNELS, 3, 3),
    (1, 33, 16, 14),
    "kernel_size = array<i32: 3, 3>, padding = array<i32: 0, 1, 2, 0>",
)


def _parsed(text: str) -> ModuleOp:
    return Parser(relay_context(), text).parse_module()


def test_a_multiple_of_128_filters_is_passed_with_16_more() -> None:
    """Its HWIO weight argument is 16 filters wider, zeros, sliced off before the
    conv; a filter count of no such multiple is passed as it is."""
    assert 256 % ALIASED_FILTERS == 0 and PADDED_FILTERS == 16
    program = lower_module(_parsed(_known_weight_conv(256)))
    (weight,) = program.weights
    assert weight.shape == (1, 1, 4, 272)
    assert not weight[..., 256:].any()
    assert '"tosa.slice"' in str(program.module)
    (weight,) = lower_module(_parsed(_known_weight_conv(160))).weights
    assert weight.shape == (1, 1, 4, 160)


def test_a_small_conv_by_known_filters_reads_them_packed() -> None:
    """Into at most PRODUCT_PIXELS pixels: the filter is passed as the panels
    of its ``[KH * KW * C, F]`` matrix, summed by one ``linalg.generic``, no
    ``tosa.conv2d``."""
    (text, _) = CASES["conv2d_known_3x3_as_product"]
    assert 6 * 7 <= PRODUCT_PIXELS
    program = lower_module(_parsed(text))
    packed = next(w for w in program.weights if w.ndim == 3)
    assert packed.shape == (2, 3 * 3 * 5, PANEL)
    assert not packed[1, :, 8:].any()
    ops = [op.name for op in program.module.walk()]
    assert ops.count("linalg.generic") == 1 and '"tosa.conv2d"' not in str(program.module)


def test_a_conv_of_more_taps_stays_a_conv() -> None:
    """A patch embedding's filter (4x4 taps here, 16x16 in vit_b_16) has more
    than PRODUCT_TAPS taps: one ``tosa.conv2d``, however few its pixels."""
    text = _product_conv(
        (1, 3, 8, 8),
        (8, 3, 4, 4),
        (1, 8, 2, 2),
        "kernel_size = array<i32: 4, 4>, strides = array<i32: 4, 4>",
    )
    assert 4 * 4 > PRODUCT_TAPS and 2 * 2 <= PRODUCT_PIXELS
    module = str(lower_module(_parsed(text)).module)
    assert module.count('"tosa.conv2d"') == 1


def _generic_ranks(text: str) -> tuple[list[int], str]:
    """The loop counts of the ``linalg.generic`` s of `text` 's lowering, and the module."""
    module = lower_module(_parsed(text)).module
    generics = [op for op in module.walk() if op.name == "linalg.generic"]
    return [len(op.iterator_types) for op in generics], str(module)  # type: ignore[attr-defined]


def test_a_conv_into_more_pixels_reads_its_taps_in_place() -> None:
    """Into more than IN_PLACE_TAPS_PIXELS pixels, of any stride: one
    ``linalg.generic`` of loops (n, p, y, x, j, kh, kw, c) on the padded
    input seen as blocks of the strides, no concatenation of its taps; into
    fewer pixels, the taps are concatenated into the product's rows."""
    for name, pixels in (
        ("conv2d_known_3x3_taps_in_place", 11 * 12),
        ("conv2d_known_strided_dilated_taps_in_place", 10 * 9),
        ("conv2d_known_1x1_strided_taps_in_place", 8 * 8),
    ):
        assert IN_PLACE_TAPS_PIXELS < pixels <= PRODUCT_PIXELS
        ranks, module = _generic_ranks(CASES[name][0])
        assert ranks == [8] and '"tosa.concat"' not in module
    for name in ("conv2d_known_3x3_as_product", "conv2d_known_strided_dilated_as_product"):
        ranks, module = _generic_ranks(CASES[name][0])
        assert ranks == [4] and '"tosa.concat"' in module


def test_a_3x3_conv_into_many_pixels_is_winograds() -> None:
    """Into at least WINOGRAD_PIXELS pixels: the padded input (``zero_padded``),
    the windows' transform (16 generics, each a sum of 4 windows, inserted
    into one tensor), one product
    of 16 batches (loops b, p, m, j, k) by the filter transformed into 16
    matrices ``[C, F]``, each packed, side by side in one weight, and the
    outputs' transform (loops n, ty, u, tx, v, f); no ``tosa.conv2d``. Of
    fewer channels, a conv stays one."""
    text = CASES["conv2d_known_3x3_winograd"][0]
    assert 15 * 14 >= WINOGRAD_PIXELS and 9 >= WINOGRAD_CHANNELS
    program = lower_module(_parsed(text))
    generics = [op for op in program.module.walk() if op.name == "linalg.generic"]
    assert [len(op.iterator_types) for op in generics] == [4] + [5] * 16 + [5, 6]  # type: ignore[attr-defined]
    assert {len(op.inputs) for op in generics[1:17]} == {4}  # type: ignore[attr-defined]
    assert [w.shape for w in program.weights if w.ndim == 4] == [(16, 2, 9, PANEL)]
    assert '"tosa.conv2d"' not in str(program.module)
    fewer = _product_conv(
        (1, WINOGRAD_CHANNELS - 1, 15, 14),
        (8, WINOGRAD_CHANNELS - 1, 3, 3),
        (1, 8, 15, 14),
        "kernel_size = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>",
    )
    assert str(lower_module(_parsed(fewer)).module).count('"tosa.conv2d"') == 1
