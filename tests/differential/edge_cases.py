"""The edge cases of the operators, beyond each row's example: broadcasting,
negative axes, odd sizes, strides, dilations, padding and groups, and each dtype
the operator takes (float32, float16, int32, int64, bool where it applies).

Each is a Relay function ``@main`` (see :func:`~.cases.edge`), named
``<operator>[<what it varies>]``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cases import Case, edge, mlir_edge

ODD = "(3, 5, 7)"
"""An odd-sized shape for elementwise operators: no size divides a vector width."""


def tensor(shape: str, dtype: str = "float32") -> str:
    return f"Tensor[{shape}, {dtype}]"


def unary(operator: str, dtypes: Iterable[str], shape: str = ODD, attrs: str = "") -> list[Case]:
    """`operator` on one odd-sized tensor of each of `dtypes`."""
    extra = f", {attrs}" if attrs else ""
    return [
        edge(operator, dtype, f"%x: {tensor(shape, dtype)}", f"{operator}(%x{extra})")
        for dtype in dtypes
    ]


def broadcasting(operator: str, dtypes: Iterable[str]) -> list[Case]:
    """`operator` on (2, 1, 5) and (3, 1), broadcast to (2, 3, 5), for each of `dtypes`."""
    return [
        edge(
            operator,
            f"broadcast {dtype}",
            f"%a: {tensor('(2, 1, 5)', dtype)}, %b: {tensor('(3, 1)', dtype)}",
            f"{operator}(%a, %b)",
        )
        for dtype in dtypes
    ]


FLOATS = ("float32", "float16")
INTS = ("int32", "int64")
NUMBERS = (*FLOATS, *INTS)

FLOAT_FUNCTIONS = (
    "exp", "fast_exp", "log", "log2", "log10", "sqrt", "rsqrt", "erf", "fast_erf", "tanh",
    "fast_tanh", "sigmoid", "cos", "sin", "tan", "cosh", "sinh", "acos", "acosh", "asin",
    "asinh", "atan", "atanh", "floor", "ceil", "round", "trunc", "isnan", "isinf",
    "isfinite", "nn.relu",
)  # fmt: skip

EDGE_CASES: list[Case] = [
    # -- elementwise ----------------------------------------------------------------
    *(case for op in FLOAT_FUNCTIONS for case in unary(op, FLOATS)),
    *(case for op in ("abs", "negative", "sign") for case in unary(op, NUMBERS)),
    *unary("logical_not", ["bool"]),
    *unary("bitwise_not", INTS),
    *(case for op in ("copy", "zeros_like", "ones_like") for case in unary(op, ["int32", "bool"])),
    *unary("nn.leaky_relu", FLOATS, attrs="alpha=0.2f"),
    *unary("clip", ["float16", "int32"], attrs="a_min=-1f, a_max=1.5f"),
    *(
        edge(
            "cast",
            f"{source} to {target}",
            f"%x: {tensor(ODD, source)}",
            f'cast(%x, dtype="{target}")',
        )
        for source, target in (
            ("float32", "int32"),
            ("int32", "float32"),
            ("float32", "float16"),
            ("float16", "float32"),
            ("int64", "int32"),
            ("bool", "float32"),
            ("float32", "bool"),
            ("int32", "int64"),
        )
    ),
    edge(
        "cast_like",
        "float32 like int64",
        f"%x: {tensor(ODD)}, %y: {tensor('(2)', 'int64')}",
        "cast_like(%x, %y)",
    ),
    edge(
        "reinterpret",
        "int32 to float32",
        f"%x: {tensor(ODD, 'int32')}",
        'reinterpret(%x, dtype="float32")',
    ),
    edge("full", "int32", "%v: int32", 'full(%v, shape=[3, 5], dtype="int32")'),
    edge("full_like", "int64", f"%x: {tensor('(3, 5)', 'int64')}, %v: int64", "full_like(%x, %v)"),
    edge("zeros", "float16", "", 'zeros(shape=[3, 5], dtype="float16")'),
    edge("ones", "bool", "", 'ones(shape=[3, 5], dtype="bool")'),
    # -- broadcasting binary -------------------------------------------------------------
    *(
        case
        for op in (
            "add",
            "subtract",
            "multiply",
            "divide",
            "maximum",
            "minimum",
            "power",
            "floor_divide",
            "floor_mod",
        )
        for case in broadcasting(op, NUMBERS)
    ),
    *(
        case
        for op in ("mod", "trunc_divide", "trunc_mod")
        for case in broadcasting(op, ["float32", *INTS])
    ),
    *(
        case
        for op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
        for case in broadcasting(op, NUMBERS)
    ),
    *(case for op in ("equal", "not_equal") for case in broadcasting(op, ["bool"])),
    *(
        case
        for op in ("logical_and", "logical_or", "logical_xor")
        for case in broadcasting(op, ["bool"])
    ),
    *(
        case
        for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift")
        for case in broadcasting(op, INTS)
    ),
    edge(
        "where",
        "broadcast int32",
        f"%c: {tensor('(3, 1)', 'bool')}, %x: {tensor('(1, 5)', 'int32')}, %y: int32",
        "where(%c, %x, %y)",
    ),
    # -- shapes ----------------------------------------------------------------------------
    edge("squeeze", "negative axis", f"%x: {tensor('(3, 1, 5, 1)')}", "squeeze(%x, axis=[-1])"),
    edge(
        "expand_dims",
        "negative axis",
        f"%x: {tensor('(3, 5)', 'int32')}",
        "expand_dims(%x, axis=-1)",
    ),
    edge(
        "expand_dims",
        "at the front, two",
        f"%x: {tensor('(3, 5)')}",
        "expand_dims(%x, axis=0, num_newaxis=2)",
    ),
    edge("reshape", "0 and -1", f"%x: {tensor('(3, 4, 5)')}", "reshape(%x, newshape=[0, -1])"),
    edge("reshape", "-3", f"%x: {tensor('(3, 4, 5)', 'int64')}", "reshape(%x, newshape=[-3, 5])"),
    edge("reshape", "-4", f"%x: {tensor('(6, 5)')}", "reshape(%x, newshape=[-4, 2, 3, 5])"),
    edge(
        "transpose", "negative axes", f"%x: {tensor('(2, 3, 5)')}", "transpose(%x, axes=[-1, 0, 1])"
    ),
    edge("transpose", "reversed", f"%x: {tensor('(2, 3, 5)', 'int32')}", "transpose(%x)"),
    edge(
        "concatenate",
        "negative axis int32",
        f"%a: {tensor('(2, 3)', 'int32')}, %b: {tensor('(2, 5)', 'int32')}",
        "concatenate((%a, %b), axis=-1)",
    ),
    edge(
        "stack",
        "negative axis",
        f"%a: {tensor('(2, 3)')}, %b: {tensor('(2, 3)')}, %c: {tensor('(2, 3)')}",
        "stack((%a, %b, %c), axis=-1)",
    ),
    edge(
        "split",
        "negative axis",
        f"%x: {tensor('(4, 6)')}",
        "split(%x, indices_or_sections=[1, 4], axis=-1)",
    ),
    edge(
        "split",
        "sections int32",
        f"%x: {tensor('(6, 3)', 'int32')}",
        "split(%x, indices_or_sections=3)",
    ),
    edge(
        "strided_slice",
        "strides",
        f"%x: {tensor('(7, 9)')}",
        "strided_slice(%x, begin=[1, 0], end=[6, 9], strides=[2, 3])",
    ),
    edge(
        "strided_slice",
        "negative stride",
        f"%x: {tensor('(7, 9)')}",
        "strided_slice(%x, begin=[5, -1], end=[0, -10], strides=[-2, -1])",
    ),
    edge(
        "strided_slice",
        "axes",
        f"%x: {tensor('(4, 7, 5)')}",
        "strided_slice(%x, begin=[2], end=[6], strides=[1], axes=[1])",
    ),
    edge(
        "strided_slice",
        "size mode",
        f"%x: {tensor('(7, 9)', 'int32')}",
        'strided_slice(%x, begin=[1, 2], end=[3, -1], slice_mode="size")',
    ),
    edge(
        "strided_slice",
        "without strides",
        f"%x: {tensor('(7, 9, 4)')}",
        "strided_slice(%x, begin=[1, -8], end=[6, 9])",
    ),
    edge(
        "take",
        "negative axis",
        f"%x: {tensor('(3, 7)')}, %i: {tensor('(2, 4)', 'int64')}",
        "take(%x, %i, axis=-1)",
    ),
    edge(
        "take",
        "flattened",
        f"%x: {tensor('(3, 7)', 'int32')}, %i: {tensor('(5)', 'int32')}",
        "take(%x, %i)",
    ),
    edge(
        "gather",
        "axis 0",
        f"%x: {tensor('(5, 3)')}, %i: {tensor('(2, 3)', 'int32')}",
        "gather(%x, %i, axis=0)",
    ),
    edge(
        "gather_nd",
        "int32",
        f"%x: {tensor('(4, 5)', 'int32')}, %i: {tensor('(2, 3)', 'int32')}",
        "gather_nd(%x, %i)",
    ),
    edge(
        "tile",
        "more reps than axes",
        f"%x: {tensor('(2, 3)', 'int32')}",
        "tile(%x, reps=[2, 1, 3])",
    ),
    edge("repeat", "negative axis", f"%x: {tensor('(2, 3)')}", "repeat(%x, repeats=3, axis=-1)"),
    edge("reverse", "negative axis", f"%x: {tensor('(3, 5)', 'int64')}", "reverse(%x, axis=-1)"),
    edge(
        "broadcast_to",
        "new axes",
        f"%x: {tensor('(3, 1)', 'int32')}",
        "broadcast_to(%x, shape=[2, 3, 5])",
    ),
    edge(
        "broadcast_to_like",
        "new axes",
        f"%x: {tensor('(3, 1)')}, %y: {tensor('(2, 3, 5)')}",
        "broadcast_to_like(%x, %y)",
    ),
    edge(
        "reshape_like",
        "int32",
        f"%x: {tensor('(6, 5)', 'int32')}, %y: {tensor('(3, 10)')}",
        "reshape_like(%x, %y)",
    ),
    edge(
        "slice_like",
        "every axis",
        f"%x: {tensor('(5, 7)')}, %y: {tensor('(3, 4)')}",
        "slice_like(%x, %y)",
    ),
    edge(
        "collapse_sum_like",
        "to a row",
        f"%x: {tensor('(4, 3, 5)')}, %y: {tensor('(1, 5)')}",
        "collapse_sum_like(%x, %y)",
    ),
    edge(
        "one_hot",
        "axis 0 int32",
        f"%i: {tensor('(2, 3)', 'int64')}, %on: int32, %off: int32",
        'one_hot(%i, %on, %off, depth=5, axis=0, dtype="int32")',
    ),
    edge(
        "layout_transform",
        "NCHW to NHWC",
        f"%x: {tensor('(1, 3, 5, 7)')}",
        'layout_transform(%x, src_layout="NCHW", dst_layout="NHWC")',
    ),
    edge("shape_of", "int64", f"%x: {tensor('(3, 5, 7)')}", 'shape_of(%x, dtype="int64")'),
    # Written without dtype: int32, which the printer spells out for TVM.
    edge("shape_of", "without dtype", f"%x: {tensor('(3, 5, 7)')}", "shape_of(%x)"),
    # -- reductions -------------------------------------------------------------------------
    edge(
        "sum",
        "negative axis keepdims float16",
        f"%x: {tensor(ODD, 'float16')}",
        "sum(%x, axis=[-1], keepdims=True)",
    ),
    edge("sum", "int32 every axis", f"%x: {tensor(ODD, 'int32')}", "sum(%x)"),
    edge("mean", "exclude", f"%x: {tensor(ODD)}", "mean(%x, axis=[0, -1], exclude=True)"),
    edge("max", "int32 negative axis", f"%x: {tensor(ODD, 'int32')}", "max(%x, axis=[-2])"),
    edge(
        "min",
        "float16 keepdims",
        f"%x: {tensor(ODD, 'float16')}",
        "min(%x, axis=[1], keepdims=True)",
    ),
    edge("prod", "int64 axis", f"%x: {tensor('(3, 4)', 'int64')}", "prod(%x, axis=[1])"),
    edge(
        "all",
        "negative axis keepdims",
        f"%x: {tensor(ODD, 'bool')}",
        "all(%x, axis=[-1], keepdims=True)",
    ),
    edge("any", "axis", f"%x: {tensor(ODD, 'bool')}", "any(%x, axis=[0])"),
    edge(
        "argmax",
        "negative axis keepdims",
        f"%x: {tensor(ODD)}",
        "argmax(%x, axis=[-1], keepdims=True)",
    ),
    edge("argmin", "every axis int32", f"%x: {tensor('(4, 6)', 'int32')}", "argmin(%x)"),
    edge(
        "variance",
        "unbiased",
        f"%x: {tensor('(4, 7)')}, %m: {tensor('(4, 1)')}",
        "variance(%x, %m, axis=[1], keepdims=True, unbiased=True)",
    ),
    # -- sorting ------------------------------------------------------------------------------
    edge(
        "argsort",
        "axis 0 ascending",
        f"%x: {tensor('(5, 3)')}",
        'argsort(%x, axis=0, dtype="int64")',
    ),
    edge("sort", "negative axis int32", f"%x: {tensor('(3, 6)', 'int32')}", "sort(%x, axis=-1)"),
    edge(
        "topk",
        "values axis 0",
        f"%x: {tensor('(7, 3)')}",
        'topk(%x, k=2, axis=0, ret_type="values", dtype="int32")',
    ),
    edge(
        "topk",
        "smallest",
        f"%x: {tensor('(3, 7)')}",
        'topk(%x, k=3, is_ascend=True, dtype="int64")',
    ),
    # -- neural network: convolutions and dense ----------------------------------------------------
    edge(
        "nn.conv2d",
        "strides dilation asymmetric padding groups",
        f"%x: {tensor('(1, 4, 9, 11)')}, %w: {tensor('(6, 2, 3, 3)')}",
        "nn.conv2d(%x, %w, strides=[2, 1], padding=[1, 0, 2, 1], dilation=[2, 2], groups=2, "
        "channels=6, kernel_size=[3, 3])",
    ),
    edge(
        "nn.conv2d",
        "depthwise",
        f"%x: {tensor('(2, 4, 7, 7)')}, %w: {tensor('(4, 1, 3, 3)')}",
        "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=4, channels=4, kernel_size=[3, 3])",
    ),
    edge(
        "nn.conv2d",
        "NHWC HWIO",
        f"%x: {tensor('(1, 7, 5, 3)')}, %w: {tensor('(3, 3, 3, 4)')}",
        'nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWIO")',
    ),
    edge(
        "nn.conv2d",
        "float16",
        f"%x: {tensor('(1, 3, 6, 6)', 'float16')}, %w: {tensor('(2, 3, 3, 3)', 'float16')}",
        "nn.conv2d(%x, %w, channels=2, kernel_size=[3, 3])",
    ),
    edge(
        "nn.conv1d",
        "strides dilation padding",
        f"%x: {tensor('(2, 3, 17)')}, %w: {tensor('(4, 3, 3)')}",
        "nn.conv1d(%x, %w, strides=[2], padding=[1, 2], dilation=[2], channels=4, kernel_size=[3])",
    ),
    edge(
        "nn.conv3d",
        "strides dilation",
        f"%x: {tensor('(1, 2, 5, 6, 7)')}, %w: {tensor('(3, 2, 2, 3, 2)')}",
        "nn.conv3d(%x, %w, strides=[1, 2, 1], padding=[1, 0, 1, 0, 1, 1], dilation=[2, 1, 2], "
        "channels=3, kernel_size=[2, 3, 2])",
    ),
    edge(
        "nn.conv2d_transpose",
        "output padding",
        f"%x: {tensor('(1, 3, 5, 7)')}, %w: {tensor('(3, 4, 3, 3)')}",
        "nn.conv2d_transpose(%x, %w, channels=4, kernel_size=[3, 3], strides=[2, 2], "
        "padding=[1, 1, 1, 1], output_padding=[1, 1])",
    ),
    edge(
        "nn.conv1d_transpose",
        "strides",
        f"%x: {tensor('(1, 3, 9)')}, %w: {tensor('(3, 2, 3)')}",
        "nn.conv1d_transpose(%x, %w, channels=2, kernel_size=[3], strides=[2], padding=[1, 1])",
    ),
    edge(
        "nn.conv3d_transpose",
        "strides",
        f"%x: {tensor('(1, 2, 3, 4, 5)')}, %w: {tensor('(2, 3, 2, 2, 3)')}",
        "nn.conv3d_transpose(%x, %w, channels=3, kernel_size=[2, 2, 3], strides=[2, 1, 2])",
    ),
    edge(
        "nn.dense",
        "3-d data, odd sizes",
        f"%x: {tensor('(2, 3, 17)')}, %w: {tensor('(5, 17)')}",
        "nn.dense(%x, %w)",
    ),
    edge(
        "nn.matmul",
        "transpose_b",
        f"%a: {tensor('(3, 7)')}, %b: {tensor('(5, 7)')}",
        "nn.matmul(%a, %b, transpose_b=True)",
    ),
    edge(
        "nn.batch_matmul",
        "broadcast batch",
        f"%a: {tensor('(1, 4, 5)')}, %b: {tensor('(3, 6, 5)')}",
        "nn.batch_matmul(%a, %b, transpose_b=True)",
    ),
    edge(
        "nn.batch_matmul",
        "no transpose",
        f"%a: {tensor('(2, 4, 5)')}, %b: {tensor('(2, 5, 3)')}",
        "nn.batch_matmul(%a, %b, transpose_b=False)",
    ),
    edge(
        "nn.bias_add",
        "axis 1",
        f"%x: {tensor('(2, 3, 5)')}, %b: {tensor('(3)')}",
        "nn.bias_add(%x, %b)",
    ),
    edge(
        "nn.bias_add",
        "negative axis",
        f"%x: {tensor('(2, 3, 5)')}, %b: {tensor('(5)')}",
        "nn.bias_add(%x, %b, axis=-1)",
    ),
    # -- neural network: activations ---------------------------------------------------------
    edge(
        "nn.prelu",
        "NHWC",
        f"%x: {tensor('(1, 3, 5, 4)')}, %a: {tensor('(4)')}",
        "nn.prelu(%x, %a, axis=3)",
    ),
    edge("nn.softmax", "axis 0", f"%x: {tensor('(5, 3)')}", "nn.softmax(%x, axis=0)"),
    edge("nn.softmax", "float16", f"%x: {tensor('(3, 7)', 'float16')}", "nn.softmax(%x)"),
    edge("nn.log_softmax", "middle axis", f"%x: {tensor(ODD)}", "nn.log_softmax(%x, axis=1)"),
    edge("nn.fast_softmax", "negative axis", f"%x: {tensor(ODD)}", "nn.fast_softmax(%x, axis=-1)"),
    # -- neural network: pooling -------------------------------------------------------------------
    edge(
        "nn.max_pool2d",
        "ceil mode padding dilation",
        f"%x: {tensor('(1, 2, 9, 10)')}",
        "nn.max_pool2d(%x, pool_size=[3, 2], strides=[2, 3], dilation=[2, 1], padding=[1, 0, 1, 0], "
        "ceil_mode=True)",
    ),
    edge(
        "nn.max_pool2d",
        "NHWC",
        f"%x: {tensor('(1, 7, 7, 3)')}",
        'nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2], layout="NHWC")',
    ),
    edge(
        "nn.avg_pool2d",
        "padding without the pad",
        f"%x: {tensor('(1, 2, 7, 9)')}",
        "nn.avg_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])",
    ),
    edge(
        "nn.avg_pool2d",
        "ceil mode",
        f"%x: {tensor('(1, 2, 7, 8)')}",
        "nn.avg_pool2d(%x, pool_size=[2, 3], strides=[2, 2], ceil_mode=True, count_include_pad=True)",
    ),
    edge(
        "nn.max_pool1d",
        "padding",
        f"%x: {tensor('(2, 3, 11)')}",
        "nn.max_pool1d(%x, pool_size=[3], strides=[2], padding=[1, 1])",
    ),
    edge(
        "nn.avg_pool1d",
        "ceil mode",
        f"%x: {tensor('(2, 3, 11)')}",
        "nn.avg_pool1d(%x, pool_size=[3], strides=[2], ceil_mode=True)",
    ),
    edge(
        "nn.max_pool3d",
        "padding",
        f"%x: {tensor('(1, 2, 5, 6, 7)')}",
        "nn.max_pool3d(%x, pool_size=[2, 3, 2], strides=[2, 2, 2], padding=[1, 1, 0, 0, 1, 1])",
    ),
    edge(
        "nn.avg_pool3d",
        "padding",
        f"%x: {tensor('(1, 2, 5, 6, 7)')}",
        "nn.avg_pool3d(%x, pool_size=[2, 2, 2], strides=[1, 2, 2], padding=[1, 1, 1, 1, 1, 1])",
    ),
    edge(
        "nn.global_avg_pool2d",
        "odd sizes",
        f"%x: {tensor('(2, 3, 5, 7)')}",
        "nn.global_avg_pool2d(%x)",
    ),
    edge(
        "nn.global_max_pool2d",
        "odd sizes",
        f"%x: {tensor('(2, 3, 5, 7)')}",
        "nn.global_max_pool2d(%x)",
    ),
    edge(
        "nn.adaptive_avg_pool2d",
        "uneven bins",
        f"%x: {tensor('(1, 2, 7, 5)')}",
        "nn.adaptive_avg_pool2d(%x, output_size=[3, 2])",
    ),
    edge(
        "nn.adaptive_max_pool2d",
        "uneven bins",
        f"%x: {tensor('(1, 2, 7, 5)')}",
        "nn.adaptive_max_pool2d(%x, output_size=[2, 3])",
    ),
    # -- neural network: normalization ------------------------------------------------------------
    edge(
        "nn.batch_norm",
        "last axis, no scale or center",
        f"%x: {tensor('(2, 3, 5)')}, %g: {tensor('(5)')}, %b: {tensor('(5)')}, "
        f"%m: {tensor('(5)')}, %v: {tensor('(5)')}",
        "nn.batch_norm(%x, %g, %b, %m, %v, axis=-1, center=False, scale=False)",
    ),
    edge(
        "nn.layer_norm",
        "axis 1",
        f"%x: {tensor('(2, 5, 3)')}, %g: {tensor('(5)')}, %b: {tensor('(5)')}",
        "nn.layer_norm(%x, %g, %b, axis=1)",
    ),
    edge(
        "nn.instance_norm",
        "odd sizes",
        f"%x: {tensor('(2, 3, 5)')}, %g: {tensor('(3)')}, %b: {tensor('(3)')}",
        "nn.instance_norm(%x, %g, %b)",
    ),
    edge(
        "nn.group_norm",
        "three groups",
        f"%x: {tensor('(2, 6, 5)')}, %g: {tensor('(6)')}, %b: {tensor('(6)')}",
        "nn.group_norm(%x, %g, %b, num_groups=3)",
    ),
    edge("nn.lrn", "size 3", f"%x: {tensor('(1, 5, 3, 3)')}", "nn.lrn(%x, size=3, alpha=0.01f)"),
    edge(
        "nn.l2_normalize",
        "two axes",
        f"%x: {tensor(ODD)}",
        "nn.l2_normalize(%x, eps=1e-5f, axis=[1, 2])",
    ),
    edge("nn.dropout", "float16", f"%x: {tensor(ODD, 'float16')}", "nn.dropout(%x, rate=0.5f)"),
    # -- neural network: data movement -----------------------------------------------------------
    edge("nn.batch_flatten", "3-d", f"%x: {tensor(ODD, 'int32')}", "nn.batch_flatten(%x)"),
    edge(
        "nn.pad",
        "edge mode",
        f"%x: {tensor('(2, 3)')}, %v: float32",
        'nn.pad(%x, %v, pad_width=[[1, 2], [0, 3]], pad_mode="edge")',
    ),
    edge(
        "nn.pad",
        "int32 value",
        f"%x: {tensor('(2, 3)', 'int32')}, %v: int32",
        "nn.pad(%x, %v, pad_width=[[2, 0], [1, 1]])",
    ),
    edge(
        "nn.mirror_pad",
        "symmetric",
        f"%x: {tensor('(1, 2, 3, 4)')}",
        'nn.mirror_pad(%x, pad_width=[[0, 0], [0, 0], [2, 1], [1, 2]], mode="SYMMETRIC")',
    ),
    edge(
        "nn.upsampling",
        "bilinear align corners NHWC",
        f"%x: {tensor('(1, 3, 5, 2)')}",
        'nn.upsampling(%x, scale_h=2f, scale_w=3f, layout="NHWC", method="bilinear", '
        "align_corners=True)",
    ),
    edge(
        "nn.upsampling3d",
        "nearest",
        f"%x: {tensor('(1, 2, 2, 3, 3)')}",
        "nn.upsampling3d(%x, scale_d=2f, scale_h=1f, scale_w=2f)",
    ),
    edge(
        "nn.depth_to_space",
        "DCR",
        f"%x: {tensor('(1, 8, 2, 3)')}",
        'nn.depth_to_space(%x, block_size=2, mode="DCR")',
    ),
    edge(
        "nn.space_to_depth",
        "block 3",
        f"%x: {tensor('(1, 2, 6, 3)')}",
        "nn.space_to_depth(%x, block_size=3)",
    ),
    # -- image --------------------------------------------------------------------------------------
    edge(
        "image.resize2d",
        "linear align corners",
        f"%x: {tensor('(1, 2, 5, 7)')}",
        'image.resize2d(%x, size=[9, 4], method="linear", coordinate_transformation_mode="align_corners")',
    ),
    edge(
        "image.resize2d",
        "cubic half pixel",
        f"%x: {tensor('(1, 2, 5, 7)')}",
        'image.resize2d(%x, size=[8, 10], method="cubic", coordinate_transformation_mode="half_pixel")',
    ),
    edge(
        "image.resize1d",
        "nearest",
        f"%x: {tensor('(1, 2, 7)')}",
        'image.resize1d(%x, size=[12], method="nearest_neighbor", coordinate_transformation_mode="asymmetric")',
    ),
    edge(
        "image.resize3d",
        "nearest",
        f"%x: {tensor('(1, 2, 3, 4, 5)')}",
        'image.resize3d(%x, size=[5, 6, 7], method="nearest_neighbor", '
        'coordinate_transformation_mode="asymmetric")',
    ),
    edge(
        "image.crop_and_resize",
        "nearest",
        f"%x: {tensor('(2, 3, 8, 8)')}, %b: {tensor('(3, 4)')}, %i: {tensor('(3)', 'int32')}",
        'image.crop_and_resize(%x, %b, %i, crop_size=[4, 5], method="nearest_neighbor")',
    ),
    edge(
        "image.grid_sample",
        "border align corners",
        f"%x: {tensor('(1, 2, 5, 6)')}, %g: {tensor('(1, 2, 4, 3)')}",
        'image.grid_sample(%x, %g, padding_mode="border", align_corners=True)',
    ),
    # -- more dtypes ---------------------------------------------------------------------------
    edge("nn.relu", "int32", f"%x: {tensor(ODD, 'int32')}", "nn.relu(%x)"),
    edge(
        "nn.dense",
        "float16",
        f"%x: {tensor('(3, 9)', 'float16')}, %w: {tensor('(4, 9)', 'float16')}",
        "nn.dense(%x, %w)",
    ),
    edge(
        "nn.bias_add",
        "float16",
        f"%x: {tensor('(2, 3, 5)', 'float16')}, %b: {tensor('(3)', 'float16')}",
        "nn.bias_add(%x, %b)",
    ),
    edge(
        "nn.max_pool2d",
        "int32",
        f"%x: {tensor('(1, 2, 5, 5)', 'int32')}",
        "nn.max_pool2d(%x, pool_size=[2, 2])",
    ),
    edge(
        "nn.avg_pool2d",
        "float16",
        f"%x: {tensor('(1, 2, 6, 6)', 'float16')}",
        "nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2])",
    ),
    edge(
        "nn.layer_norm",
        "float16",
        f"%x: {tensor('(3, 8)', 'float16')}, %g: {tensor('(8)', 'float16')}, %b: {tensor('(8)', 'float16')}",
        "nn.layer_norm(%x, %g, %b)",
    ),
    edge(
        "nn.global_avg_pool2d",
        "NHWC",
        f"%x: {tensor('(1, 5, 3, 4)')}",
        'nn.global_avg_pool2d(%x, layout="NHWC")',
    ),
    edge(
        "concatenate",
        "float16",
        f"%a: {tensor('(2, 3)', 'float16')}, %b: {tensor('(1, 3)', 'float16')}",
        "concatenate((%a, %b))",
    ),
    edge(
        "concatenate",
        "bool",
        f"%a: {tensor('(2, 3)', 'bool')}, %b: {tensor('(2, 1)', 'bool')}",
        "concatenate((%a, %b), axis=1)",
    ),
    edge(
        "stack",
        "int64",
        f"%a: {tensor('(3)', 'int64')}, %b: {tensor('(3)', 'int64')}",
        "stack((%a, %b))",
    ),
    edge(
        "split",
        "float16",
        f"%x: {tensor('(4, 6)', 'float16')}",
        "split(%x, indices_or_sections=2, axis=1)",
    ),
    edge(
        "take",
        "float16 data",
        f"%x: {tensor('(5, 3)', 'float16')}, %i: {tensor('(4)', 'int32')}",
        "take(%x, %i, axis=0)",
    ),
    edge("transpose", "bool", f"%x: {tensor('(2, 3)', 'bool')}", "transpose(%x, axes=[1, 0])"),
    edge("reshape", "bool", f"%x: {tensor('(2, 6)', 'bool')}", "reshape(%x, newshape=[3, 4])"),
    edge("squeeze", "int64 every unit axis", f"%x: {tensor('(1, 3, 1)', 'int64')}", "squeeze(%x)"),
    edge("expand_dims", "bool", f"%x: {tensor('(3)', 'bool')}", "expand_dims(%x, axis=0)"),
    edge(
        "broadcast_to",
        "float16",
        f"%x: {tensor('(1, 3)', 'float16')}",
        "broadcast_to(%x, shape=[4, 3])",
    ),
    edge(
        "strided_slice",
        "int64",
        f"%x: {tensor('(5, 6)', 'int64')}",
        "strided_slice(%x, begin=[1, 1], end=[4, 6], strides=[1, 2])",
    ),
    edge(
        "where",
        "float16",
        f"%c: {tensor('(3, 4)', 'bool')}, %x: {tensor('(3, 4)', 'float16')}, %y: {tensor('(4)', 'float16')}",
        "where(%c, %x, %y)",
    ),
    edge("sum", "int64 axis", f"%x: {tensor('(3, 4)', 'int64')}", "sum(%x, axis=[0])"),
    edge("mean", "float16", f"%x: {tensor(ODD, 'float16')}", "mean(%x, axis=[1])"),
    edge("max", "float16 every axis", f"%x: {tensor(ODD, 'float16')}", "max(%x)"),
    edge("prod", "float16", f"%x: {tensor('(3, 4)', 'float16')}", "prod(%x, axis=[1])"),
    edge(
        "argmax",
        "int32 data",
        f"%x: {tensor('(4, 6)', 'int32')}",
        "argmax(%x, axis=[1], select_last_index=True)",
    ),
    edge(
        "image.resize2d",
        "NHWC nearest",
        f"%x: {tensor('(1, 4, 5, 2)')}",
        'image.resize2d(%x, size=[8, 10], layout="NHWC", method="nearest_neighbor", '
        'coordinate_transformation_mode="asymmetric", rounding_method="floor")',
    ),
    edge(
        "nn.conv2d_transpose",
        "groups dilation",
        f"%x: {tensor('(1, 4, 5, 5)')}, %w: {tensor('(4, 1, 3, 3)')}",
        "nn.conv2d_transpose(%x, %w, channels=2, kernel_size=[3, 3], dilation=[2, 2], groups=2)",
    ),
    # -- Relax-only operators ------------------------------------------------------------
    mlir_edge(
        "relax.matmul",
        "broadcast batch",
        [("a", "tensor<2x1x3x4xf32>"), ("b", "tensor<5x4x6xf32>")],
        "tensor<2x5x3x6xf32>",
        'out_dtype = "float32"',
    ),
    mlir_edge(
        "relax.strided_slice",
        "negative strides",
        [("x", "tensor<7x9xf32>")],
        "tensor<3x3xf32>",
        "axes = array<i32: 0, 1>, begin = array<i32: 5, 8>, end = array<i32: 0, 0>, "
        "strides = array<i32: -2, -3>",
    ),
    *(
        mlir_edge(op, "float16", [("x", "tensor<3x5x7xf16>")], "tensor<3x5x7xf16>")
        for op in ("relax.nn.gelu", "relax.nn.gelu_tanh", "relax.nn.silu")
    ),
]
"""Every edge case, by operator family."""
