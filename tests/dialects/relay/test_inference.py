"""Result-type inference for Relay operator calls.

Every expected type below is worked out by hand from the TVM v0.19 type
relation named in the test (``src/relay/op/**``), e.g. conv2d's output size
``(in + pad_before + pad_after - (1 + (k - 1) * dilation)) // stride + 1``.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
    f32,
)

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import dtypes, operators
from relay_xdsl.dialects.relay.inference import infer_type

Q = "?"  # an unknown dimension


def t(*shape, dtype: str = "float32") -> TensorType:
    """tensor<shape x dtype>, "?" for an unknown dimension."""
    dims = [DYNAMIC_INDEX if d == Q else d for d in shape]
    return TensorType(dtypes.element_type(dtype), dims)


def tup(*types) -> TupleType:
    return TupleType(tuple(types))


def attr(value):
    """A Python value stored the way the Relay text importer stores it."""
    if value is None:
        return UnitAttr()
    if isinstance(value, bool):
        return IntegerAttr(int(value), IntegerType(1))
    if isinstance(value, int):
        return IntegerAttr(value, IntegerType(32))
    if isinstance(value, float):
        return FloatAttr(value, f32)
    if isinstance(value, str):
        return StringAttr(value)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return DenseArrayBase.from_list(IntegerType(32), list(value))
    if all(isinstance(v, float) for v in value):
        return DenseArrayBase.from_list(f32, list(value))
    return ArrayAttr([attr(v) for v in value])


ROWS = {row.name: row for row in operators.ALL}


def infer(op: str, args, **attributes):
    return infer_type(ROWS[op], args, {k: attr(v) for k, v in attributes.items()})


def check(op: str, args, expected, **attributes):
    assert infer(op, args, **attributes) == expected


# ---------------------------------------------------------------------------
# Convolutions (Conv2DRel, Conv2DTransposeRel, Conv1DRel, Conv3DRel)
# ---------------------------------------------------------------------------


def test_conv2d_resnet_stem():
    # (224 + 3 + 3 - 7) // 2 + 1 = 112
    check(
        "nn.conv2d",
        [t(1, 3, 224, 224), t(64, 3, 7, 7)],
        t(1, 64, 112, 112),
        strides=[2, 2],
        padding=[3, 3],
    )


@pytest.mark.parametrize(
    ("padding", "expected_hw"),
    [
        ([1], (56, 56)),  # one entry pads every side
        ([1, 0], (56, 54)),  # (top/bottom, left/right)
        ([0, 0, 2, 1], (56, 55)),  # (top, left, bottom, right)
        ([0, 1, 2, 1], (56, 56)),
    ],
)
def test_conv2d_padding_forms(padding, expected_hw):
    check(
        "nn.conv2d",
        [t(1, 64, 56, 56), t(64, 64, 3, 3)],
        t(1, 64, *expected_hw),
        padding=padding,
    )


def test_conv2d_default_attributes_give_valid_convolution():
    check("nn.conv2d", [t(1, 3, 32, 32), t(8, 3, 5, 5)], t(1, 8, 28, 28))


def test_conv2d_nhwc_hwio():
    check(
        "nn.conv2d",
        [t(1, 224, 224, 3), t(7, 7, 3, 64)],
        t(1, 112, 112, 64),
        strides=[2, 2],
        padding=[3, 3, 3, 3],
        data_layout="NHWC",
        kernel_layout="HWIO",
    )


def test_conv2d_dilation():
    # dilated window 1 + (3 - 1) * 2 = 5: 32 - 5 + 1 = 28
    check(
        "nn.conv2d",
        [t(1, 8, 32, 32), t(8, 8, 3, 3)],
        t(1, 8, 28, 28),
        dilation=[2, 2],
    )


def test_conv2d_depthwise_groups():
    # (16 + 2 - 3) // 2 + 1 = 8; weight I = 32 / groups = 1
    check(
        "nn.conv2d",
        [t(1, 32, 16, 16), t(32, 1, 3, 3)],
        t(1, 32, 8, 8),
        strides=[2, 2],
        padding=[1, 1],
        groups=32,
    )


def test_conv2d_out_dtype():
    check(
        "nn.conv2d",
        [t(1, 3, 8, 8, dtype="int8"), t(4, 3, 3, 3, dtype="int8")],
        t(1, 4, 6, 6, dtype="int32"),
        out_dtype="int32",
    )


def test_conv2d_channels_and_kernel_size_decide_over_weight():
    # With both attributes set TVM derives the weight type from them.
    check(
        "nn.conv2d",
        [t(1, 3, 10, 10), t(16, 3, 3, 3)],
        t(1, 16, 8, 8),
        channels=16,
        kernel_size=[3, 3],
    )


def test_conv2d_rejects_inconsistent_weight():
    assert infer("nn.conv2d", [t(1, 4, 8, 8), t(8, 3, 3, 3)]) is None  # 4 != 3
    assert infer("nn.conv2d", [t(1, 3, 8, 8), t(8, 3, 3, 3)], channels=4) is None
    assert infer("nn.conv2d", [t(1, 3, 1, 1), t(8, 3, 3, 3)]) is None  # 1 - 3 + 1 < 0
    assert infer("nn.conv2d", [t(1, 3, 8, 8), t(8, 3, 3, 3)], kernel_size=[5, 5]) is None


def test_conv2d_unknown_dimensions():
    check(
        "nn.conv2d",
        [t(Q, 3, 224, Q), t(64, 3, 7, 7)],
        t(Q, 64, 112, Q),
        strides=[2, 2],
        padding=[3, 3],
    )


def test_conv2d_blocked_layouts():
    # data NCHW4c: C = 2 * 4 = 8; weight OIHW4i4o: O = 4 * 4 = 16, I = 2 * 4
    # canonical result 1x16x6x6, back in NCHW4c: 16 / 4 = 4 blocks of 4
    check(
        "nn.conv2d",
        [t(1, 2, 8, 8, 4), t(4, 2, 3, 3, 4, 4)],
        t(1, 4, 6, 6, 4),
        data_layout="NCHW4c",
        kernel_layout="OIHW4i4o",
    )


def test_conv2d_grouped_weight_layout_needs_channels_and_kernel_size():
    # A "G" kernel layout with groups > 1 is DNNL's GOIHW; TVM only sizes it
    # from the channels/kernel_size attributes.
    args = [t(1, 4, 8, 8), t(2, 4, 2, 3, 3)]
    grouped = {"groups": 2, "kernel_layout": "GOIHW"}
    check("nn.conv2d", args, t(1, 8, 6, 6), channels=8, kernel_size=[3, 3], **grouped)
    assert infer("nn.conv2d", args, **grouped) is None


def test_conv2d_out_layout():
    check(
        "nn.conv2d",
        [t(1, 3, 8, 8), t(4, 3, 3, 3)],
        t(1, 6, 6, 4),
        out_layout="NHWC",
    )


def test_conv2d_transpose():
    # 2 * (8 - 1) + 4 - (1 + 1) = 16; IOHW weight: output channels = O = 8
    check(
        "nn.conv2d_transpose",
        [t(1, 16, 8, 8), t(16, 8, 4, 4)],
        t(1, 8, 16, 16),
        strides=[2, 2],
        padding=[1, 1],
    )


def test_conv2d_transpose_output_padding():
    # 2 * (7 - 1) + 3 - 2 + 1 = 14
    check(
        "nn.conv2d_transpose",
        [t(1, 4, 7, 7), t(4, 2, 3, 3)],
        t(1, 2, 14, 14),
        strides=[2, 2],
        padding=[1, 1],
        output_padding=[1, 1],
    )


def test_conv1d_and_conv3d():
    # (100 + 2 - 5) // 2 + 1 = 49
    check(
        "nn.conv1d",
        [t(2, 4, 100), t(8, 4, 5)],
        t(2, 8, 49),
        strides=[2],
        padding=[1, 1],
    )
    check(
        "nn.conv3d",
        [t(1, 2, 8, 10, 12), t(4, 2, 3, 3, 3)],
        t(1, 4, 8, 10, 12),
        padding=[1, 1, 1],
    )


def test_conv3d_transpose_follows_tvm_window_order():
    # TVM v0.19 sizes H with the weight's W window and W with its H window.
    # H: 1 * (4 - 1) + 3 = 6; W: 1 * (4 - 1) + 2 = 5
    check(
        "nn.conv3d_transpose",
        [t(1, 2, 4, 4, 4), t(2, 3, 1, 2, 3)],
        t(1, 3, 4, 6, 5),
    )


# ---------------------------------------------------------------------------
# Dense layers (MatmulRel, BatchMatmulRel) and bias
# ---------------------------------------------------------------------------


def test_dense():
    check("nn.dense", [t(1, 512), t(1000, 512)], t(1, 1000))
    check("nn.dense", [t(2, 3, 512), t(10, 512)], t(2, 3, 10))
    check("nn.dense", [t(1, 512), t(1000, 512)], t(1, 1000), units=1000)
    check(
        "nn.dense",
        [t(4, 16, dtype="int8"), t(8, 16, dtype="int8")],
        t(4, 8, dtype="int32"),
        out_dtype="int32",
    )


@pytest.mark.parametrize(
    ("a", "b", "flags", "expected"),
    [
        ((4, 8), (8, 5), {}, (4, 5)),
        ((8, 4), (8, 5), {"transpose_a": True}, (4, 5)),
        ((4, 8), (5, 8), {"transpose_b": True}, (4, 5)),
        ((8, 4), (5, 8), {"transpose_a": True, "transpose_b": True}, (4, 5)),
    ],
)
def test_matmul(a, b, flags, expected):
    check("nn.matmul", [t(*a), t(*b)], t(*expected), **flags)


def test_batch_matmul():
    # C++ default: transpose_b = False
    check("nn.batch_matmul", [t(2, 3, 4), t(2, 4, 5)], t(2, 3, 5))
    check("nn.batch_matmul", [t(2, 3, 4), t(2, 5, 4)], t(2, 3, 5), transpose_b=True)
    check("nn.batch_matmul", [t(2, 4, 3), t(2, 4, 5)], t(2, 3, 5), transpose_a=True)
    check("nn.batch_matmul", [t(1, 3, 4), t(6, 4, 5)], t(6, 3, 5))
    check("nn.batch_matmul", [t(Q, 3, 4), t(2, 4, 5)], t(Q, 3, 5))
    assert infer("nn.batch_matmul", [t(2, 3, 4), t(2, 5, 5)]) is None


def test_bias_add():
    check("nn.bias_add", [t(1, 64, 56, 56), t(64)], t(1, 64, 56, 56))
    check("nn.bias_add", [t(1, 56, 56, 64), t(64)], t(1, 56, 56, 64), axis=-1)
    assert infer("nn.bias_add", [t(1, 64), t(64)], axis=2) is None


# ---------------------------------------------------------------------------
# Elementwise, broadcasting, comparison
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        "nn.relu", "nn.leaky_relu", "negative", "exp", "log", "sqrt", "rsqrt",
        "erf", "tanh", "sigmoid", "abs", "floor", "copy", "zeros_like",
    ],
)  # fmt: skip
def test_unary_keeps_type(op):
    check(op, [t(2, Q, 5, dtype="float16")], t(2, Q, 5, dtype="float16"))


def test_unary_rejects_tuple_argument():
    assert infer("exp", [tup(t(2), t(3))]) is None


def test_clip_and_prelu():
    check("clip", [t(1, 8)], t(1, 8), a_min=0.0, a_max=6.0)
    check("nn.prelu", [t(1, 8, 4, 4), t(8)], t(1, 8, 4, 4))


@pytest.mark.parametrize(
    "op", ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum"]
)
def test_broadcasting_binary(op):
    check(op, [t(1, 3, 1), t(4, 1, 5)], t(4, 3, 5))
    check(op, [t(8, 1, 6, 1), t(7, 1, 5)], t(8, 7, 6, 5))
    check(op, [t(), t(2, 3)], t(2, 3))


def test_broadcasting_with_unknown_dimensions():
    check("add", [t(Q, 3), t(1, 3)], t(Q, 3))
    check("add", [t(4, Q), t(3)], t(4, 3))  # ? is taken to match 3
    check("add", [t(Q), t(1)], t(Q))


def test_broadcasting_rejects_mismatches():
    assert infer("add", [t(2, 3), t(4)]) is None
    assert infer("add", [t(2, 3), t(3, dtype="int32")]) is None


@pytest.mark.parametrize(
    "op", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
)
def test_comparisons_give_bool(op):
    check(op, [t(2, 3, dtype="int32"), t(3, dtype="int32")], t(2, 3, dtype="bool"))


def test_isnan_gives_bool():
    check("isnan", [t(4, 4)], t(4, 4, dtype="bool"))


def test_logical_and_keeps_bool():
    check(
        "logical_and",
        [t(2, 1, dtype="bool"), t(3, dtype="bool")],
        t(2, 3, dtype="bool"),
    )


def test_where_broadcasts_three_ways():
    check("where", [t(3, 1, dtype="bool"), t(1, 4), t(4)], t(3, 4))
    check("where", [t(2, 1, 1, dtype="bool"), t(5, 1), t(1, 6)], t(2, 5, 6))
    assert infer("where", [t(3, dtype="bool"), t(3), t(3, dtype="int32")]) is None


def test_cast():
    check("cast", [t(2, 3)], t(2, 3, dtype="int8"), dtype="int8")
    check("cast", [t(2, 3)], t(2, 3, dtype="bool"), dtype="bool")
    check("cast", [t(2, 3)], t(2, 3, dtype="uint8"), dtype="uint8")
    check("cast_like", [t(2, 3), t(7, dtype="float16")], t(2, 3, dtype="float16"))
    assert infer("cast", [t(2, 3)], dtype="float128") is None
    assert infer("cast", [t(2, 3)]) is None  # dtype is required


def test_full_zeros_ones():
    check("full", [t()], t(2, 3), shape=[2, 3])
    check("full", [t(dtype="int32")], t(2, 3, dtype="int64"), shape=[2, 3], dtype="int64")
    check("zeros", [], t(4, 5, dtype="int32"), shape=[4, 5], dtype="int32")
    check("ones", [], t(7), shape=[7], dtype="float32")
    check("full_like", [t(2, 3, dtype="int8"), t(dtype="int8")], t(2, 3, dtype="int8"))
    assert infer("full", [t(1)], shape=[2]) is None  # fill value must be a scalar


def test_shape_of():
    check("shape_of", [t(1, 3, 5)], t(3, dtype="int32"), dtype="int32")
    check("shape_of", [t()], t(dtype="int64"), dtype="int64")
    # Written without dtype (TVM's relay.shape_of defaults it to int32).
    check("shape_of", [t(1, 3, 5)], t(3, dtype="int32"))


# ---------------------------------------------------------------------------
# Pooling (Pool2DRel, GlobalPool2DRel, AdaptivePool2DRel) and resizing
# ---------------------------------------------------------------------------


def test_max_pool2d_resnet():
    # (112 + 2 - 3) // 2 + 1 = 56
    check(
        "nn.max_pool2d",
        [t(1, 64, 112, 112)],
        t(1, 64, 56, 56),
        pool_size=[3, 3],
        strides=[2, 2],
        padding=[1, 1],
    )


def test_max_pool2d_ceil_mode():
    # floor: (6 - 3) // 2 + 1 = 2; ceil: (6 - 3 + 1) // 2 + 1 = 3
    kwargs = {"pool_size": [3, 3], "strides": [2, 2]}
    check("nn.max_pool2d", [t(1, 1, 6, 6)], t(1, 1, 2, 2), **kwargs)
    check("nn.max_pool2d", [t(1, 1, 6, 6)], t(1, 1, 3, 3), ceil_mode=True, **kwargs)


def test_max_pool2d_nhwc():
    check(
        "nn.max_pool2d",
        [t(1, 112, 112, 64)],
        t(1, 56, 56, 64),
        pool_size=[3, 3],
        strides=[2, 2],
        padding=[1, 1, 1, 1],
        layout="NHWC",
    )


def test_avg_pool2d():
    check("nn.avg_pool2d", [t(1, 8, 7, 7)], t(1, 8, 1, 1), pool_size=[7, 7])
    # pad_h = 0 + 1, pad_w = 0 + 1: (5 + 1 - 2) // 2 + 1 = 3
    check(
        "nn.avg_pool2d",
        [t(1, 1, 5, 5)],
        t(1, 1, 3, 3),
        pool_size=[2, 2],
        strides=[2, 2],
        padding=[0, 0, 1, 1],
    )


def test_pool1d_and_pool3d():
    check("nn.max_pool1d", [t(1, 4, 10)], t(1, 4, 5), pool_size=[2], strides=[2])
    check(
        "nn.avg_pool3d",
        [t(1, 4, 8, 8, 8)],
        t(1, 4, 4, 4, 4),
        pool_size=[2, 2, 2],
        strides=[2, 2, 2],
    )


def test_global_avg_pool2d():
    check("nn.global_avg_pool2d", [t(1, 512, 7, 7)], t(1, 512, 1, 1))
    check("nn.global_avg_pool2d", [t(1, 7, 7, 512)], t(1, 1, 1, 512), layout="NHWC")


def test_adaptive_avg_pool2d():
    check(
        "nn.adaptive_avg_pool2d",
        [t(1, 512, 14, 10)],
        t(1, 512, 7, 7),
        output_size=[7, 7],
    )
    check("nn.adaptive_avg_pool2d", [t(1, 512, 14, 10)], t(1, 512, 1, 1), output_size=[1])
    check("nn.adaptive_avg_pool2d", [t(1, 512, 14, 10)], t(1, 512, 14, 10))


def test_resize2d():
    check("image.resize2d", [t(1, 3, 32, 32)], t(1, 3, 64, 48), size=[64, 48])
    check(
        "image.resize2d",
        [t(1, 32, 32, 3)],
        t(1, 64, 48, 3, dtype="float16"),
        size=[64, 48],
        layout="NHWC",
        out_dtype="float16",
    )
    assert infer("image.resize2d", [t(1, 3, 32, 32)]) is None  # no size


def test_other_image_operators():
    check("image.resize1d", [t(1, 3, 10)], t(1, 3, 20), size=[20])
    check("image.resize3d", [t(1, 3, 4, 5, 6)], t(1, 3, 8, 10, 12), size=[8, 10, 12])
    check(
        "image.crop_and_resize",
        [t(1, 3, 32, 32), t(5, 4), t(5, dtype="int32")],
        t(5, 3, 7, 7),  # one crop per box
        crop_size=[7, 7],
    )
    check("image.grid_sample", [t(1, 3, 32, 32), t(1, 2, 16, 8)], t(1, 3, 16, 8))


def test_upsampling_and_depth_to_space():
    # round(7 * 1.5) = round(10.5) = 10 (half to even, like TVM's nearbyint)
    check("nn.upsampling", [t(1, 4, 7, 8)], t(1, 4, 10, 16), scale_h=1.5, scale_w=2.0)
    check("nn.depth_to_space", [t(1, 16, 4, 4)], t(1, 4, 8, 8), block_size=2)
    check("nn.space_to_depth", [t(1, 4, 8, 8)], t(1, 16, 4, 4), block_size=2)


# ---------------------------------------------------------------------------
# Normalisation and friends
# ---------------------------------------------------------------------------


def test_batch_norm():
    params = [t(64)] * 4
    check(
        "nn.batch_norm",
        [t(1, 64, 56, 56), *params],
        tup(t(1, 64, 56, 56), t(64), t(64)),
    )
    check(
        "nn.batch_norm",
        [t(2, 5, 3), *[t(3)] * 4],
        tup(t(2, 5, 3), t(3), t(3)),
        axis=-1,
    )
    assert infer("nn.batch_norm", [t(2, 5, 3), *[t(5)] * 4], axis=-2) is None


def test_layer_norm_and_other_norms():
    check("nn.layer_norm", [t(2, 10, 768), t(768), t(768)], t(2, 10, 768))
    check("nn.instance_norm", [t(1, 8, 4, 4), t(8), t(8)], t(1, 8, 4, 4))
    check("nn.group_norm", [t(1, 8, 4, 4), t(8), t(8)], t(1, 8, 4, 4), num_groups=2)
    assert infer("nn.layer_norm", [t(2, 3), t(3), t(3)], axis=2) is None


def test_softmax():
    check("nn.softmax", [t(1, 1000)], t(1, 1000))
    check("nn.log_softmax", [t(2, 5)], t(2, 5), axis=0)
    assert infer("nn.softmax", [t(2, 5)], axis=2) is None


def test_dropout():
    check("nn.dropout", [t(4, 5)], tup(t(4, 5), t(4, 5)), rate=0.1)


def test_batch_flatten():
    check("nn.batch_flatten", [t(1, 512, 7, 7)], t(1, 25088))
    check("nn.batch_flatten", [t(2, Q, 3)], t(2, Q))


def test_pad():
    check(
        "nn.pad",
        [t(1, 3, 224, 224), t()],
        t(1, 3, 227, 231),
        pad_width=[[0, 0], [0, 0], [1, 2], [3, 4]],
    )
    check("nn.pad", [t(Q, 4), t()], t(Q, 6), pad_width=[[1, 1], [1, 1]])
    assert infer("nn.pad", [t(3, 4), t()], pad_width=[[1, 1]]) is None
    check("nn.mirror_pad", [t(3, 4)], t(5, 4), pad_width=[[1, 1], [0, 0]])


# ---------------------------------------------------------------------------
# Reductions (ReduceRel, ArgReduceRel)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["mean", "sum", "max", "min", "prod"])
def test_reduce(op):
    check(op, [t(1, 64, 7, 7)], t(1, 64), axis=[2, 3])
    check(op, [t(1, 64, 7, 7)], t(1, 64, 1, 1), axis=[2, 3], keepdims=True)
    check(op, [t(1, 64, 7, 7)], t())  # axis None reduces everything
    check(op, [t(1, 64, 7, 7)], t(64), axis=[1], exclude=True)
    check(op, [t(2, 3)], t(2), axis=[-1])
    assert infer(op, [t(2, 3)], axis=[2]) is None


def test_argmax_argmin_give_int32():
    check("argmax", [t(2, 3, dtype="float16")], t(2, dtype="int32"), axis=[1])
    check("argmin", [t(2, 3)], t(1, 3, dtype="int32"), axis=[0], keepdims=True)
    check("argmax", [t(2, 3)], t(dtype="int32"))


def test_variance():
    check("variance", [t(2, 3, 4), t(2, 1, 4)], t(2, 4), axis=[1])


# ---------------------------------------------------------------------------
# Shape manipulation (transform.cc)
# ---------------------------------------------------------------------------


def test_squeeze():
    check("squeeze", [t(1, 3, 1, 2)], t(3, 2))  # axis None drops every 1
    check("squeeze", [t(1, 3, 1, 2)], t(3, 1, 2), axis=[0])
    check("squeeze", [t(1, 3, 1, 2)], t(1, 3, 2), axis=[-2])
    check("squeeze", [t(1, 3)], t(1, 3), axis=[])  # an empty list drops nothing
    assert infer("squeeze", [t(1, 3)], axis=[1]) is None  # 3 is not 1
    assert infer("squeeze", [t(Q, 3)]) is None  # needs axis for unknown dims


def test_expand_dims():
    check("expand_dims", [t(3, 4)], t(3, 1, 4), axis=1)
    check("expand_dims", [t(3, 4)], t(3, 4, 1), axis=-1)
    check("expand_dims", [t(3, 4)], t(1, 1, 3, 4), axis=0, num_newaxis=2)
    assert infer("expand_dims", [t(3, 4)], axis=3) is None


@pytest.mark.parametrize(
    ("newshape", "expected"),
    [
        ([6, -1], (6, 4)),
        ([0, -1], (2, 12)),  # 0 copies the input dimension
        ([-1], (24,)),
        ([-2], (2, 3, 4)),  # -2 copies the remaining dimensions
        ([-3, 4], (6, 4)),  # -3 merges two dimensions
        ([-4, 1, 2, -2], (1, 2, 3, 4)),  # -4 splits one into the next two
        ([0, -4, -1, 1, 4], (2, 3, 1, 4)),
    ],
)
def test_reshape(newshape, expected):
    check("reshape", [t(2, 3, 4)], t(*expected), newshape=newshape)


def test_reshape_unknown_and_invalid():
    check("reshape", [t(Q, 3, 4)], t(Q, 12), newshape=[0, -1])
    check("reshape", [t(Q, 3, 4)], t(Q, 4), newshape=[-1, 4])
    assert infer("reshape", [t(2, 3, 4)], newshape=[5, -1]) is None  # 5 * 4 != 24
    assert infer("reshape", [t(2, 3, 4)], newshape=[-1, -1]) is None


def test_reshape_like():
    check("reshape_like", [t(2, 12), t(6, 4)], t(6, 4))
    check(
        "reshape_like",
        [t(1, 2, 3, 4), t(6, 2, 2, 3)],
        t(1, 6, 2, 2),
        lhs_begin=1,
        rhs_end=3,
    )


def test_transpose():
    check("transpose", [t(2, 3, 4)], t(4, 3, 2))  # axes None reverses
    check("transpose", [t(2, 3, 4)], t(2, 4, 3), axes=[0, 2, 1])
    check("transpose", [t(2, 3, 4)], t(2, 4, 3), axes=[0, -1, 1])
    assert infer("transpose", [t(2, 3, 4)], axes=[0, 0, 1]) is None


def test_concatenate():
    check("concatenate", [tup(t(1, 2, 3), t(1, 5, 3))], t(1, 7, 3), axis=1)
    check("concatenate", [tup(t(2, 3), t(2, 4), t(2, 1))], t(2, 8), axis=-1)
    check("concatenate", [tup(t(Q, 3), t(2, 3))], t(Q, 3))
    assert infer("concatenate", [tup(t(2, 3), t(2))]) is None
    assert infer("concatenate", [tup(t(2, 3), t(3, 4))], axis=1) is None
    assert infer("concatenate", [t(2, 3)]) is None  # needs a tuple


def test_stack():
    check("stack", [tup(t(2, 3), t(2, 3))], t(2, 2, 3))
    check("stack", [tup(t(2, 3), t(2, 3), t(2, 3))], t(2, 3, 3), axis=-1)


def test_split():
    check(
        "split",
        [t(6, 4)],
        tup(t(2, 4), t(2, 4), t(2, 4)),
        indices_or_sections=3,
    )
    check(
        "split",
        [t(4, 6)],
        tup(t(4, 1), t(4, 2), t(4, 3)),
        indices_or_sections=[1, 3],
        axis=1,
    )
    check("split", [t(4, 6)], tup(t(2, 6), t(2, 6)), indices_or_sections=2, axis=-2)
    assert infer("split", [t(4, 6)], indices_or_sections=4, axis=1) is None
    assert infer("split", [t(4, 6)], indices_or_sections=[3, 1], axis=1) is None


@pytest.mark.parametrize(
    ("shape", "attributes", "expected"),
    [
        (
            (1, 3, 224, 224),
            {"begin": [0, 0, 16, 16], "end": [1, 3, 208, 208], "strides": [1, 1, 1, 1]},
            (1, 3, 192, 192),
        ),
        ((10,), {"begin": [9], "end": [-11], "strides": [-1]}, (10,)),  # x[::-1]
        ((10,), {"begin": [2], "end": [2147483647], "strides": [1]}, (8,)),
        ((10,), {"begin": [0], "end": [10], "strides": [3]}, (4,)),
        ((10,), {"begin": [-3], "end": [10], "strides": [1]}, (3,)),
        ((4, 5), {"begin": [1], "end": [3], "strides": [1]}, (2, 5)),  # rest whole
        ((4, 5, 6), {"begin": [1], "end": [3], "strides": [1], "axes": [2]}, (4, 5, 2)),
        (
            (4, 5, 6),
            {"begin": [1], "end": [3], "strides": [1], "axes": [-1]},
            (4, 5, 2),
        ),
        (
            (4, 5, 6),
            {"begin": [1, 0], "end": [2, -1], "strides": [1], "slice_mode": "size"},
            (2, 5, 6),
        ),
        ((Q, 5), {"begin": [0, 1], "end": [2, 4], "strides": [1]}, (Q, 3)),
    ],
)
def test_strided_slice(shape, attributes, expected):
    check("strided_slice", [t(*shape)], t(*expected), **attributes)


def test_strided_slice_rejects_empty_range():
    assert infer("strided_slice", [t(10)], begin=[5], end=[2], strides=[1]) is None


def test_take():
    indices = t(3, dtype="int32")
    check("take", [t(5, 4), indices], t(3))  # flattened data
    check("take", [t(5, 4), indices], t(3, 4), axis=0)
    check("take", [t(5, 4), t(2, 2, dtype="int64")], t(5, 2, 2), axis=1)
    check("take", [t(5, 4), t(2, 2, dtype="int64")], t(5, 2, 2), axis=-1)
    check(
        "take",
        [t(2, 5, 4), t(2, 3, dtype="int32")],
        t(2, 3, 4),
        axis=1,
        batch_dims=1,
    )
    assert infer("take", [t(5, 4), t(3)], axis=0) is None  # float indices


def test_gather_family():
    idx = "int32"
    check("gather", [t(3, 4), t(3, 2, dtype=idx)], t(3, 2), axis=1)
    check("gather_nd", [t(5, 6, 7), t(2, 10, dtype=idx)], t(10, 7))
    check("slice_like", [t(5, 6, 7), t(2, 3, 4)], t(2, 3, 4))
    check("slice_like", [t(5, 6, 7), t(2, 3, 4)], t(5, 3, 7), axes=[1])


def test_tile_repeat_reverse():
    check("tile", [t(2, 3)], t(4, 9), reps=[2, 3])
    check("tile", [t(2, 3)], t(2, 2, 3), reps=[2, 1, 1])
    check("repeat", [t(2, 3)], t(2, 6), repeats=2, axis=1)
    check("reverse", [t(2, 3)], t(2, 3), axis=-1)


def test_broadcast_to():
    check("broadcast_to", [t(3, 1)], t(2, 3, 4), shape=[2, 3, 4])
    assert infer("broadcast_to", [t(3, 2)], shape=[3, 4]) is None
    check("broadcast_to_like", [t(1, 4), t(3, 4)], t(3, 4))


def test_one_hot_topk_argsort():
    check(
        "one_hot",
        [t(2, 3, dtype="int32"), t(), t()],
        t(2, 3, 10),
        depth=10,
        dtype="float32",
    )
    check(
        "one_hot",
        [t(2, 3, dtype="int32"), t(), t()],
        t(2, 5, 3, dtype="int8"),
        depth=5,
        axis=1,
        dtype="int8",
    )
    check("topk", [t(4, 100)], tup(t(4, 5), t(4, 5, dtype="int32")), k=5, dtype="int32")
    check("topk", [t(4, 100)], t(4, 5), k=5, ret_type="values", dtype="int32")
    check(
        "topk",
        [t(4, 100)],
        t(4, 100, dtype="int64"),
        k=0,
        ret_type="indices",
        dtype="int64",
    )
    check("argsort", [t(4, 7)], t(4, 7, dtype="int64"), dtype="int64")
    # Written without dtype: int32 indices, the default of TVM's relay.argsort and relay.topk.
    check("argsort", [t(4, 7)], t(4, 7, dtype="int32"))
    check("topk", [t(4, 100)], tup(t(4, 5), t(4, 5, dtype="int32")), k=5)


# ---------------------------------------------------------------------------
# Layouts (LayoutTransformRel / BijectiveLayout)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "src", "dst", "expected"),
    [
        ((1, 3, 224, 224), "NCHW", "NHWC", (1, 224, 224, 3)),
        ((1, 224, 224, 3), "NHWC", "NCHW", (1, 3, 224, 224)),
        ((1, 16, 8, 8), "NCHW", "NCHW4c", (1, 4, 8, 8, 4)),
        ((1, 4, 8, 8, 4), "NCHW4c", "NCHW", (1, 16, 8, 8)),
        ((1, 2, 8, 8, 16), "NCHW16c", "NCHW8c", (1, 4, 8, 8, 8)),
        ((1, 6, 5, 5), "NCHW", "NCHW4c", (1, 2, 5, 5, 4)),  # rounded up
        ((64, 32, 3, 3), "OIHW", "OIHW4i8o", (8, 8, 3, 3, 4, 8)),
        ((Q, 3, 8, 8), "NCHW", "NHWC", (Q, 8, 8, 3)),
    ],
)
def test_layout_transform(shape, src, dst, expected):
    check("layout_transform", [t(*shape)], t(*expected), src_layout=src, dst_layout=dst)


def test_layout_transform_rejects_incompatible_layouts():
    attrs = {"src_layout": "NCHW", "dst_layout": "NCW"}
    assert infer("layout_transform", [t(1, 2, 3, 4)], **attrs) is None
    attrs = {"src_layout": "NCHW4c", "dst_layout": "NCHW"}
    assert infer("layout_transform", [t(1, 2, 3, 4, 3)], **attrs) is None  # 3 != 4


# ---------------------------------------------------------------------------
# Relax-only operators (Relax's InferStructInfoMatmul, InferStructInfoStridedSlice)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lhs, rhs, expected",
    [
        ((2, 3, 4), (4, 5), (2, 3, 5)),
        ((4,), (2, 4, 5), (2, 5)),  # a 1-D lhs is a row vector, dropped again
        ((3, 4), (4,), (3,)),  # a 1-D rhs is a column vector
        ((4,), (4,), ()),
        ((2, 1, 3, 4), (5, 4, 2), (2, 5, 3, 2)),  # batch dimensions broadcast
        ((Q, 4), (4, Q), (Q, Q)),
        ((Q, 3, 4), (2, 4, 5), (Q, 3, 5)),  # Relax leaves ? against 2 unknown
    ],
)
def test_relax_matmul(lhs, rhs, expected):
    check("relax.matmul", [t(*lhs), t(*rhs)], t(*expected))


def test_relax_matmul_dtypes_and_rejections():
    f16 = t(4, 5, dtype="float16")
    assert infer("relax.matmul", [t(3, 4), f16]) is None  # one dtype unless out_dtype
    check("relax.matmul", [t(3, 4), f16], t(3, 5), out_dtype="float32")
    assert infer("relax.matmul", [t(3, 4), t(5, 5)]) is None  # reduction lengths differ
    assert infer("relax.matmul", [t(2, 3, 4), t(3, 4, 5)]) is None  # batch 2 vs 3
    assert infer("relax.matmul", [t(), t(4)]) is None  # no scalars


@pytest.mark.parametrize(
    "shape, axes, begin, end, strides, expected",
    [
        ((10,), [0], [2], [8], None, (6,)),
        ((10,), [0], [0], [8], [3], (3,)),
        ((10,), [0], [-3], [100], None, (3,)),  # clamped
        ((10,), [0], [100], [-100], [-1], (10,)),
        ((10,), [0], [9], [-100], [-3], (4,)),
        ((4, 10), [-1], [2], [10], [2], (4, 4)),
        ((Q, 3), [0], [1], [2], None, (Q, 3)),
    ],
)
def test_relax_strided_slice(shape, axes, begin, end, strides, expected):
    bounds = {"axes": axes, "begin": begin, "end": end}
    if strides is not None:
        bounds["strides"] = strides
    check("relax.strided_slice", [t(*shape)], t(*expected), **bounds)


def test_relax_strided_slice_in_bounds():
    # Indices are taken as given, and Relax rounds ceildiv(end - begin, stride)
    # as for a positive stride even when the stride is negative.
    bounds = {"axes": [0], "assume_inbound": True}
    check("relax.strided_slice", [t(10)], t(100), begin=[0], end=[100], **bounds)
    check("relax.strided_slice", [t(5)], t(4), begin=[8], end=[3], strides=[-2], **bounds)


def test_relax_strided_slice_rejections():
    # Relax gives the negative length -6; no type can hold it.
    assert infer("relax.strided_slice", [t(10)], axes=[0], begin=[8], end=[2]) is None
    assert infer("relax.strided_slice", [t(10)], axes=[0], begin=[0], end=[2], strides=[0]) is None
    assert infer("relax.strided_slice", [t(10)], axes=[1], begin=[0], end=[2]) is None
    assert infer("relax.strided_slice", [t(10)], axes=[0], begin=[0, 1], end=[2]) is None


# ---------------------------------------------------------------------------
# The interface
# ---------------------------------------------------------------------------


def test_unknown_operator_has_no_type():
    from relay_xdsl.importers.relay_text import RelayTextError, parse_relay

    assert "nn.not_an_operator" not in relay.OPERATORS
    text = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) { nn.not_an_operator(%x) }\n'
    with pytest.raises(RelayTextError, match="cannot infer the result type"):
        parse_relay(text)


@pytest.mark.parametrize("op", sorted(ROWS))
def test_never_raises_on_odd_inputs(op):
    odd_calls = [
        [],
        [t()],
        [t(2, 3), t(4)],
        [tup(t(2), t(3, dtype="int32"))],
        [t(Q, Q, Q, Q)] * 5,
    ]
    for args in odd_calls:
        result = infer_type(ROWS[op], args, {"axis": StringAttr("x"), "shape": UnitAttr()})
        assert result is None or isinstance(result, (TensorType, TupleType))
        result = infer_type(ROWS[op], args, {})
        assert result is None or isinstance(result, (TensorType, TupleType))


def test_relay_text_import_uses_inference():
    from relay_xdsl.importers.relay_text import parse_relay

    module = parse_relay(
        """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 224, 224), float32], %w: Tensor[(64, 3, 7, 7), float32]) {
  %0 = nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7]);
  %1 = nn.max_pool2d(%0, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]);
  mean(%1, axis=[-1, -2], keepdims=True)
}
"""
    )
    (func,) = module.ops
    assert func.function_type.outputs.data[0] == t(1, 64, 1, 1)


def test_a_relation_that_fails_otherwise_than_by_rejecting_is_a_bug():
    """Only :class:`Reject` (and malformed attributes, as TVM's ICHECKs)
    means "no type"; any other exception out of a relation propagates."""
    from relay_xdsl.dialects.relay.registry import Operator

    def broken(call):
        return {}["missing"]

    row = Operator(
        "broken",
        "Broken.",
        pattern=relay.OpPattern.OPAQUE,
        infer=broken,
        relax=relay.no_relax("none."),
    )
    with pytest.raises(KeyError):
        infer_type(row, [t(2)], {})
    # A call the verifier refuses never reaches the relation.
    assert infer_type(row, [t(2), t(2)], {}) is None
