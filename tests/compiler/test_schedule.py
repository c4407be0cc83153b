"""The vectorising schedule parses in mlir-opt-22 and computes what the plain loops compute.

Each case is a small TOSA function shaped to reach the schedule's corners: tiles
the width does not divide (peeled remainders), fewer input channels than the
channel tile, reductions over enough channels for the convolution's other loop
order, stride 2, 1x1 and 7x7 filters, filters given HWIO through a
``tosa.transpose`` (cancelled by the schedule) and OHWI (transposed at run time),
depthwise convs (TOSA's, and the conversion's linalg form at strides 2 and 3,
dilated), pooling, dense and elementwise ops, matmuls with long reductions
and remainders in every dimension. Every case is
compiled through both pipelines with mlir-opt-22, mlir-translate-22 and clang-22,
called through ctypes, and the outputs compared.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnitAttr, f32
from xdsl.ir import Block, Region
from xdsl.parser import Parser

from relay_xdsl.compiler import build
from relay_xdsl.compiler.artifact import Signature
from relay_xdsl.compiler.frontend import lower
from relay_xdsl.compiler.pipeline import Schedule, pass_pipeline, stages
from relay_xdsl.compiler.program import program_from_mlir
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.compiler.schedule import (
    DEPTHWISE_CHANNEL_BLOCK,
    DEPTHWISE_CHANNEL_BLOCK_ROWS,
    DEPTHWISE_PAD_BLOCK,
    LONG_REDUCTION,
    PACKED_FEW_ROWS,
    PACKED_K_BLOCK,
    PAD_ROWS,
    PARALLEL_EPILOGUE_ROWS,
    PARALLEL_PAD_ROWS,
    PARALLEL_ROWS,
    SCHEDULE,
    SHARED_ROWS_PANELS,
    SHARED_ROWS_STEPS,
    STACK_BUFFER_BYTES,
    THIN_CONV_UNROLL,
    vector_lowering,
    vectorize,
)
from relay_xdsl.conversion.linalg import depthwise_conv2d, zero_padded
from relay_xdsl.conversion.rules.convolutions import PRODUCT_PIXELS
from relay_xdsl.conversion.tosa import TosaBuilder
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.tools.mlir_text import relay_context

TOOLS = ["mlir-opt-22", "mlir-translate-22", "clang-22"]
ZP = '%zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>'
RELU_MAX = "3.40282347E+38"


@pytest.fixture(scope="module", autouse=True)
def _tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"the compile tests need {', '.join(missing)}: apt-get install mlir-22-tools clang-22"
        )


def _ty(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _function(
    name: str, args: list[tuple[int, ...]], result: tuple[int, ...], body: list[str]
) -> str:
    params = ", ".join(f"%a{i}: {_ty(s)}" for i, s in enumerate(args))
    lines = "\n    ".join([ZP, *body])
    return (
        f"func.func @{name}({params}) -> {_ty(result)} attributes {{llvm.emit_c_interface}} {{\n"
        f"    {lines}\n    func.return %out : {_ty(result)}\n}}\n"
    )


def _conv(
    name: str,
    size: int,
    cin: int,
    cout: int,
    k: int,
    stride: int,
    pads,
    hwio: bool,
    relu: bool = True,
) -> tuple:
    """A conv by a bias, then (if `relu`) a relu; with none, its result is
    the conv's (no epilogue)."""
    top, bottom = pads
    out = (size - 1 + top + bottom - (k - 1)) // stride + 1
    ohwi = (cout, k, k, cin)
    weight = (k, k, cin, cout) if hwio else ohwi
    args = [(1, size, size, cin), weight, (cout,)]
    body = []
    filt = "%a1"
    if hwio:
        body.append(
            f'%w = "tosa.transpose"(%a1) {{perms = array<i32: 3, 0, 1, 2>}} : ({_ty(weight)}) -> {_ty(ohwi)}'
        )
        filt = "%w"
    result = (1, out, out, cout)
    conv = "%c" if relu else "%out"
    body += [
        (
            f'{conv} = "tosa.conv2d"(%a0, {filt}, %a2, %zp, %zp) {{acc_type = f32, dilation = array<i64: 1, 1>, '
            f"pad = array<i64: {top}, {bottom}, {top}, {bottom}>, stride = array<i64: {stride}, {stride}>}} : "
            f"({_ty(args[0])}, {_ty(ohwi)}, tensor<{cout}xf32>, tensor<1xf32>, tensor<1xf32>) -> {_ty(result)}"
        ),
        (
            f'%out = "tosa.clamp"(%c) {{min_val = 0.0 : f32, max_val = {RELU_MAX} : f32}} : '
            f"({_ty(result)}) -> {_ty(result)}"
        ),
    ][: 2 if relu else 1]
    return name, args, result, body


def _residual_conv(name: str, size: int, cin: int, cout: int) -> tuple:
    """A 1x1 conv by a bias added to a residual as mobilenet_v2 writes it,
    ``add(residual, conv)``: the conv the epilogue's second operand."""
    name, args, result, body = _conv(name, size, cin, cout, 1, 1, (0, 0), hwio=True, relu=False)
    body[-1] = body[-1].replace("%out = ", "%c = ")
    body.append(f'%out = "tosa.add"(%a3, %c) : ({_ty(result)}, {_ty(result)}) -> {_ty(result)}')
    return name, [*args, result], result, body


def _depthwise(name: str, stride: int, pads: tuple[int, int]) -> tuple:
    args = [(1, 12, 12, 48), (3, 3, 48, 1), (48,)]
    size = (12 - 1 + sum(pads) - 2) // stride + 1
    result = (1, size, size, 48)
    body = [
        (
            '%out = "tosa.depthwise_conv2d"(%a0, %a1, %a2, %zp, %zp) {acc_type = f32, dilation = array<i64: 1, 1>, '
            f"pad = array<i64: {pads[0]}, {pads[1]}, {pads[0]}, {pads[1]}>, stride = array<i64: {stride}, {stride}>}} : "
            f"({_ty(args[0])}, {_ty(args[1])}, tensor<48xf32>, tensor<1xf32>, tensor<1xf32>) -> {_ty(result)}"
        )
    ]
    return name, args, result, body


def _depthwise_hwc(
    name: str,
    size: tuple[int, int],
    channels: int,
    stride: int,
    dilation: int,
    clamped: bool = False,
) -> tuple:
    """The conversion's depthwise form: ``linalg.depthwise_conv_2d_nhwc_hwc`` of
    (already padded) data by a 3x3 ``[KH, KW, C]`` filter, summing into the
    broadcast bias (then `clamped` to [0, 6], as mobilenet_v2's are)."""
    reach = 2 * dilation + 1
    out = tuple((n - reach) // stride + 1 for n in size)
    args = [(1, *size, channels), (3, 3, channels), (channels,)]
    result = (1, *out, channels)
    body = [
        f'%e = "tensor.empty"() : () -> {_ty(result)}',
        '%init = "linalg.broadcast"(%a2, %e) <{dimensions = array<i64: 0, 1, 2>}> ({',
        "^bb0(%bias: f32, %unused: f32):",
        '  "linalg.yield"(%bias) : (f32) -> ()',
        f"}}) : ({_ty(args[2])}, {_ty(result)}) -> {_ty(result)}",
        (
            f'%dw = "linalg.depthwise_conv_2d_nhwc_hwc"(%a0, %a1, %init) <{{strides = dense<{stride}> '
            f": tensor<2xi64>, dilations = dense<{dilation}> : tensor<2xi64>, "
            "operandSegmentSizes = array<i32: 2, 1>}> ({"
        ),
        "^bb0(%x: f32, %w: f32, %acc: f32):",
        '  %product = "arith.mulf"(%x, %w) : (f32, f32) -> f32',
        '  %sum = "arith.addf"(%acc, %product) : (f32, f32) -> f32',
        '  "linalg.yield"(%sum) : (f32) -> ()',
        f"}}) : ({_ty(args[0])}, {_ty(args[1])}, {_ty(result)}) -> {_ty(result)}",
        (
            f'%out = "tosa.clamp"(%dw) {{min_val = 0.0 : f32, max_val = 6.0 : f32}} : '
            f"({_ty(result)}) -> {_ty(result)}"
            if clamped
            else f'%out = "tensor.cast"(%dw) : ({_ty(result)}) -> {_ty(result)}'
        ),
    ]
    return name, args, result, body


DEPTHWISE_HWC_SHAPES = [
    # 16 output pixels (s1), odd sizes: remainders of the 7-pixel tiles; 40
    # channels: a remainder of 8
    ("depthwise_hwc_s1", (12, 18), 40, 1, 1),
    ("depthwise_hwc_s2", (15, 13), 40, 2, 1),
    ("depthwise_hwc_s3_dilated", (16, 19), 24, 3, 2),
]
DEPTHWISE_HWC = [_depthwise_hwc(*shape) for shape in DEPTHWISE_HWC_SHAPES]


def _pad(name: str, shape: tuple[int, ...], pads: tuple[int, ...]) -> tuple:
    """``tosa.pad`` with zeros by `pads` ((before, after) per axis): of HWC, as
    the conversion pads an NHWC image, or of NHWC, as a conv's pad."""
    result = tuple(n + pads[2 * i] + pads[2 * i + 1] for i, n in enumerate(shape))
    widths = ", ".join(map(str, pads))
    body = [
        (
            f'%widths = "tosa.const_shape"() {{values = dense<[{widths}]> : tensor<{len(pads)}xindex>}} '
            f": () -> !tosa.shape<{len(pads)}>"
        ),
        f'%out = "tosa.pad"(%a0, %widths, %zp) : ({_ty(shape)}, !tosa.shape<{len(pads)}>, tensor<1xf32>) -> {_ty(result)}',
    ]
    return name, [shape], result, body


PADS = [
    # at least PARALLEL_PAD_ROWS rows (the copy's too): split among threads
    _pad("pad_hwc", (49, 11, 40), (1, 1, 1, 0, 0, 0)),
    _pad("pad_nhwc", (1, 48, 6, 24), (0, 0, 2, 1, 1, 2, 0, 0)),
    # fewer: on one thread
    _pad("pad_hwc_short", (13, 11, 40), (1, 1, 1, 0, 0, 0)),
]


def _dense() -> tuple:
    args = [(1, 3, 96), (1, 96, 100), (1, 1, 100)]
    result = (1, 3, 100)
    body = [
        (
            f'%m = "tosa.matmul"(%a0, %a1, %zp, %zp) : ({_ty(args[0])}, {_ty(args[1])}, tensor<1xf32>, '
            f"tensor<1xf32>) -> {_ty(result)}"
        ),
        f'%out = "tosa.add"(%m, %a2) : ({_ty(result)}, {_ty(args[2])}) -> {_ty(result)}',
    ]
    return "dense", args, result, body


def _matmul(name: str, batch: int, m: int, k: int, n: int) -> tuple:
    """``tosa.matmul`` of (batch, m, k) by (batch, k, n): a ``linalg.batch_matmul``."""
    args = [(batch, m, k), (batch, k, n)]
    result = (batch, m, n)
    body = [
        (
            f'%out = "tosa.matmul"(%a0, %a1, %zp, %zp) : ({_ty(args[0])}, {_ty(args[1])}, '
            f"tensor<1xf32>, tensor<1xf32>) -> {_ty(result)}"
        )
    ]
    return name, args, result, body


def _transpose(name: str, shape: tuple[int, ...], perms: tuple[int, ...]) -> tuple:
    """``tosa.transpose`` of `shape` by `perms`: a ``linalg.transpose``."""
    result = tuple(shape[p] for p in perms)
    body = [
        (
            f'%out = "tosa.transpose"(%a0) {{perms = array<i32: {", ".join(map(str, perms))}>}} : '
            f"({_ty(shape)}) -> {_ty(result)}"
        )
    ]
    return name, [shape], result, body


def _reduction(name: str, op: str, shape: tuple[int, ...], axis: int) -> tuple:
    """``tosa.<op>`` of `shape` along `axis`."""
    result = tuple(1 if d == axis else n for d, n in enumerate(shape))
    body = [f'%out = "tosa.{op}"(%a0) {{axis = {axis} : i32}} : ({_ty(shape)}) -> {_ty(result)}']
    return name, [shape], result, body


# Rows, columns and reduction each leave a remainder of the 8x32x8 tile.
MATMULS = [_matmul("matmul_long_k", 1, 9, 1000, 70), _matmul("batch_matmul", 3, 13, 197, 45)]


def _packed_matmul(name: str, batch: int, m: int, k: int, n: int) -> tuple:
    """The product of relay_xdsl/conversion/packed_matmul.py: (batch, m, k),
    its rows collapsed (a reshape next to the product, which
    ``linalg-fuse-elementwise-ops`` would move through it), by a weight of
    `n` columns packed into panels (n, if not a multiple of 32, padded)."""
    panels = -(-n // 32)
    rows = batch * m
    args = [(batch, m, k), (panels, k, 32)]
    result = (batch, m, n)
    flat, packed, out = _ty((rows, k)), _ty((rows, panels, 32)), _ty((rows, n))
    maps = (
        "(d0, d1, d2, d3) -> (d1, d3)",
        "(d0, d1, d2, d3) -> (d0, d3, d2)",
        "(d0, d1, d2, d3) -> (d1, d0, d2)",
    )
    parallel = "#linalg.iterator_type<parallel>"
    body = [
        f'%rows = "tensor.collapse_shape"(%a0) <{{reassociation = [[0, 1], [2]]}}> : ({_ty(args[0])}) -> {flat}',
        '%zero = "arith.constant"() <{value = 0.0 : f32}> : () -> f32',
        f'%empty = "tensor.empty"() : () -> {packed}',
        (
            '%init = "linalg.fill"(%zero, %empty) <{operandSegmentSizes = array<i32: 1, 1>}> ({\n'
            '    ^bb0(%e: f32, %o: f32):\n      "linalg.yield"(%e) : (f32) -> ()\n'
            f"    }}) : (f32, {packed}) -> {packed}"
        ),
        (
            '%product = "linalg.generic"(%rows, %a1, %init) <{indexing_maps = ['
            + ", ".join(f"affine_map<{m}>" for m in maps)
            + f"], iterator_types = [{parallel}, {parallel}, {parallel}, "
            "#linalg.iterator_type<reduction>], operandSegmentSizes = array<i32: 2, 1>}> ({\n"
            "    ^bb0(%x: f32, %w: f32, %acc: f32):\n"
            '      %xw = "arith.mulf"(%x, %w) : (f32, f32) -> f32\n'
            '      %sum = "arith.addf"(%acc, %xw) : (f32, f32) -> f32\n'
            '      "linalg.yield"(%sum) : (f32) -> ()\n'
            f"    }}) : ({flat}, {_ty(args[1])}, {packed}) -> {packed}"
        ),
        f'%whole = "tensor.collapse_shape"(%product) <{{reassociation = [[0], [1, 2]]}}> : ({packed}) -> {_ty((rows, panels * 32))}',
        (
            '%cut = "tensor.extract_slice"(%whole) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, '
            f"static_offsets = array<i64: 0, 0>, static_sizes = array<i64: {rows}, {n}>, "
            f"static_strides = array<i64: 1, 1>}}> : ({_ty((rows, panels * 32))}) -> {out}"
        ),
        (
            '%out = "tensor.expand_shape"(%cut) <{reassociation = [[0, 1], [2]], '
            f"static_output_shape = array<i64: {batch}, {m}, {n}>}}> : ({out}) -> {_ty(result)}"
        ),
    ]
    return name, args, result, body


def _packed_conv(name: str, pixels: int, k: int, n: int) -> tuple:
    """A 1x1 conv as relay_xdsl/conversion/rules/convolutions.py makes it a
    product on packed panels (`n` a multiple of 32), reshaped back to NHWC,
    its bias added and clamped to [0, 6] (its epilogue, a pass of its own)."""
    _, _, _, product = _packed_matmul(name, 1, pixels * pixels, k, n)
    result = (1, pixels, pixels, n)
    flat = _ty((pixels * pixels, n))
    body = [
        f'%rows = "tensor.collapse_shape"(%a0) <{{reassociation = [[0, 1, 2], [3]]}}> : ({_ty((1, pixels, pixels, k))}) -> {_ty((pixels * pixels, k))}',
        *product[1:-2],
        f'%nhwc = "tensor.expand_shape"(%whole) <{{reassociation = [[0, 1, 2], [3]], static_output_shape = array<i64: {", ".join(map(str, result))}>}}> : ({flat}) -> {_ty(result)}',
        f'%bias = "tensor.expand_shape"(%a2) <{{reassociation = [[0, 1, 2, 3]], static_output_shape = array<i64: 1, 1, 1, {n}>}}> : ({_ty((n,))}) -> {_ty((1, 1, 1, n))}',
        f'%sums = "tosa.add"(%nhwc, %bias) : ({_ty(result)}, {_ty((1, 1, 1, n))}) -> {_ty(result)}',
        f'%out = "tosa.clamp"(%sums) {{min_val = 0.0 : f32, max_val = 6.0 : f32}} : ({_ty(result)}) -> {_ty(result)}',
    ]
    return name, [(1, pixels, pixels, k), (n // 32, k, 32), (n,)], result, body


# 70 columns: a last panel of 6 columns and 26 of zeros; 26 rows: a remainder of 2,
# few enough for blocks of the reduction (40: a block and a remainder of 8); 140
# rows (a remainder of 4) too many.
PACKED_MATMULS = [
    _packed_matmul("packed_matmul", 2, 13, 40, 70),
    _packed_matmul("packed_matmul_many_rows", 2, 70, 40, 70),
    # one row (a classifier's head): its unit dim is dropped from the tiles
    _packed_matmul("packed_matvec", 1, 1, 40, 70),
]


def _pools() -> tuple:
    args = [(1, 14, 14, 24), (1, 7, 7, 24)]
    result = (1, 1, 1, 24)
    body = [
        (
            '%p = "tosa.max_pool2d"(%a0) {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, '
            f"pad = array<i64: 1, 0, 1, 0>}} : ({_ty(args[0])}) -> {_ty(args[1])}"
        ),
        f'%s = "tosa.add"(%p, %a1) : ({_ty(args[1])}, {_ty(args[1])}) -> {_ty(args[1])}',
        (
            '%out = "tosa.avg_pool2d"(%s, %zp, %zp) {acc_type = f32, kernel = array<i64: 7, 7>, '
            "stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : "
            f"({_ty(args[1])}, tensor<1xf32>, tensor<1xf32>) -> {_ty(result)}"
        ),
    ]
    return "pools", args, result, body


def _softmax_concat() -> tuple:
    """Reductions (left to loops), exp and a concat (an insert_slice, made a copy)."""
    args = [(1, 5, 37), (1, 5, 11)]
    row, out = (1, 5, 1), (1, 5, 48)
    body = [
        '%shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>',
        f'%max = "tosa.reduce_max"(%a0) {{axis = 2 : i32}} : ({_ty(args[0])}) -> {_ty(row)}',
        f'%d = "tosa.sub"(%a0, %max) : ({_ty(args[0])}, {_ty(row)}) -> {_ty(args[0])}',
        f'%e = "tosa.exp"(%d) : ({_ty(args[0])}) -> {_ty(args[0])}',
        f'%sum = "tosa.reduce_sum"(%e) {{axis = 2 : i32}} : ({_ty(args[0])}) -> {_ty(row)}',
        f'%r = "tosa.reciprocal"(%sum) : ({_ty(row)}) -> {_ty(row)}',
        f'%p = "tosa.mul"(%e, %r, %shift) : ({_ty(args[0])}, {_ty(row)}, tensor<1xi8>) -> {_ty(args[0])}',
        f'%out = "tosa.concat"(%p, %a1) {{axis = 2 : i32}} : ({_ty(args[0])}, {_ty(args[1])}) -> {_ty(out)}',
    ]
    return "softmax_concat", args, out, body


def _softmax4(width: int = 70) -> tuple:
    """Attention's softmax along the last of four axes, rows `width` wide: its
    reductions, the elementwise ops fused into them and the reshape moved
    through them, are generics of five loops."""
    shape, row = (1, 3, 11, width), (1, 3, 11, 1)
    body = [
        '%shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>',
        f'%max = "tosa.reduce_max"(%a0) {{axis = 3 : i32}} : ({_ty(shape)}) -> {_ty(row)}',
        f'%d = "tosa.sub"(%a0, %max) : ({_ty(shape)}, {_ty(row)}) -> {_ty(shape)}',
        f'%e = "tosa.exp"(%d) : ({_ty(shape)}) -> {_ty(shape)}',
        f'%sum = "tosa.reduce_sum"(%e) {{axis = 3 : i32}} : ({_ty(shape)}) -> {_ty(row)}',
        f'%r = "tosa.reciprocal"(%sum) : ({_ty(row)}) -> {_ty(row)}',
        f'%out = "tosa.mul"(%e, %r, %shift) : ({_ty(shape)}, {_ty(row)}, tensor<1xi8>) -> {_ty(shape)}',
    ]
    return "softmax4", [shape], shape, body


def _variance() -> tuple:
    """layer_norm's variance: a row's squared differences from its mean, summed
    and scaled (a generic of four loops, the subtraction and square fused in)."""
    shape, row = (1, 13, 200), (1, 13, 1)
    scale = '"tosa.const"() {values = dense<5.0e-03> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>'
    body = [
        '%shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>',
        f"%scale = {scale}",
        f'%sum = "tosa.reduce_sum"(%a0) {{axis = 2 : i32}} : ({_ty(shape)}) -> {_ty(row)}',
        f'%mean = "tosa.mul"(%sum, %scale, %shift) : ({_ty(row)}, tensor<1x1x1xf32>, tensor<1xi8>) -> {_ty(row)}',
        f'%d = "tosa.sub"(%a0, %mean) : ({_ty(shape)}, {_ty(row)}) -> {_ty(shape)}',
        f'%sq = "tosa.mul"(%d, %d, %shift) : ({_ty(shape)}, {_ty(shape)}, tensor<1xi8>) -> {_ty(shape)}',
        f'%squares = "tosa.reduce_sum"(%sq) {{axis = 2 : i32}} : ({_ty(shape)}) -> {_ty(row)}',
        f'%out = "tosa.mul"(%squares, %scale, %shift) : ({_ty(row)}, tensor<1x1x1xf32>, tensor<1xi8>) -> {_ty(row)}',
    ]
    return "variance", [shape], row, body


def _gelu(rows: int = 10, name: str = "gelu") -> tuple:
    """gelu as the conversion writes it: five elementwise ops, one of them erf."""
    shape = (1, rows, 200)
    body = [
        '%shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>',
        '%c = "tosa.const"() {values = dense<0.707106769> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>',
        '%one = "tosa.const"() {values = dense<1.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>',
        '%half = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>',
        f'%s = "tosa.mul"(%a0, %c, %shift) : ({_ty(shape)}, tensor<1x1x1xf32>, tensor<1xi8>) -> {_ty(shape)}',
        f'%e = "tosa.erf"(%s) : ({_ty(shape)}) -> {_ty(shape)}',
        f'%p = "tosa.add"(%e, %one) : ({_ty(shape)}, tensor<1x1x1xf32>) -> {_ty(shape)}',
        f'%h = "tosa.mul"(%a0, %half, %shift) : ({_ty(shape)}, tensor<1x1x1xf32>, tensor<1xi8>) -> {_ty(shape)}',
        f'%out = "tosa.mul"(%h, %p, %shift) : ({_ty(shape)}, {_ty(shape)}, tensor<1xi8>) -> {_ty(shape)}',
    ]
    return name, [shape], shape, body


# Passes large enough (PARALLEL_ROWS) to be split among the threads: 3 heads
# (parts of 2 and 1) of 130 rows, or 131 rows, each with a remainder column tile.
LARGE_PASSES = [
    _transpose("transpose4_large", (1, 130, 3, 70), (0, 2, 1, 3)),
    _reduction("row_sums4_large", "reduce_sum", (1, 3, 130, 70), 3),
    _gelu(131, "gelu_large"),
]


CASES = [
    _conv("conv3x3", 14, 32, 64, 3, 1, (1, 1), hwio=True),
    _conv("conv3x3_ohwi", 10, 16, 32, 3, 1, (1, 1), hwio=False),
    _conv("conv3x3_s2", 14, 16, 32, 3, 2, (1, 0), hwio=True),
    _conv("conv1x1", 9, 48, 40, 1, 1, (0, 0), hwio=True),
    _conv("conv1x1_s2", 13, 16, 32, 1, 2, (0, 0), hwio=True),
    # fewer than 32 filters: 14 columns by 16 filters, with remainders (1
    # column, 8 filters)
    _conv("conv1x1_narrow", 15, 40, 24, 1, 1, (0, 0), hwio=True),
    _conv("stem7x7_s2", 20, 3, 32, 7, 2, (3, 2), hwio=True),
    # at least 256 channels into at most 7 rows: the reduction-outer order,
    # with remainders in filters and channels
    _conv("conv3x3_long", 7, 256, 40, 3, 1, (1, 1), hwio=True),
    _conv("conv1x1_long_s2", 13, 264, 48, 1, 2, (0, 0), hwio=True),
    # into more rows: output rows outer, the clamp fused, remainders in width
    _conv("conv3x3_long_rows", 9, 256, 40, 3, 1, (1, 1), hwio=True),
    # no epilogue (the bias its sums start from), remainders in width and filters
    _conv("conv3x3_s2_bias_only", 14, 16, 40, 3, 2, (1, 0), hwio=True, relu=False),
    _conv("conv1x1_bias_only", 9, 48, 40, 1, 1, (0, 0), hwio=True, relu=False),
    # of no epilogue, narrow (14x16 tiles) and thin (3 channels)
    _conv("conv1x1_narrow_bias_only", 15, 40, 24, 1, 1, (0, 0), hwio=True, relu=False),
    _conv("stem7x7_s2_bias_only", 20, 3, 32, 7, 2, (3, 2), hwio=True, relu=False),
    # a residual add of the conv as its second operand: 24 filters (narrow), 40
    _residual_conv("conv1x1_narrow_residual", 9, 48, 24),
    _residual_conv("conv1x1_residual", 9, 48, 40),
    _depthwise("depthwise", 1, (1, 1)),
    _depthwise("depthwise_s2", 2, (1, 0)),
    *DEPTHWISE_HWC,
    # its clamp fused into its tiles
    _depthwise_hwc("depthwise_hwc_clamped", (17, 16), 40, 1, 1, clamped=True),
    *PADS,
    _dense(),
    *MATMULS,
    *PACKED_MATMULS,
    # 14 rows of 14 pixels, 64 filters: its clamp split 7 and 7 rows on two threads
    _packed_conv("packed_conv_clamped", 14, 40, 64),
    # 3 panels, its rows shared out on two threads
    _packed_conv("packed_conv_three_panels", 14, 40, 96),
    # attention's keys, transposed in 16x16 blocks with remainders
    _transpose("transpose3", (2, 21, 37), (0, 2, 1)),
    # NCHW to NHWC of 3 channels (a CNN's input), 37 pixels: a remainder of 5
    _transpose("transpose_to_3_channels", (1, 3, 6, 37), (0, 2, 3, 1)),
    _transpose("transpose2", (19, 40), (1, 0)),
    # rows of 8 reduced 64 columns at a time, with remainders; one along a
    # middle axis (no rule: loops)
    _reduction("row_sums4", "reduce_sum", (2, 3, 10, 70), 3),
    _reduction("row_maxima2", "reduce_max", (19, 130), 1),
    _reduction("column_sums3", "reduce_sum", (2, 30, 20), 1),
    _pools(),
    _softmax_concat(),
    _softmax4(),
    _variance(),
    _gelu(),
    *LARGE_PASSES,
]


Compiled = dict[str, CompiledModel]
"""Each case's function of one library, by name."""


def _compile(tmp: Path, schedule: Schedule | None) -> Compiled:
    """Every case in one module, compiled with `schedule` (None: plain loops)."""
    text = "".join(_function(*case) for case in CASES)
    name = "plain" if schedule is None else f"{schedule.name}-{schedule.threads}"
    library = tmp / f"{name}.so"
    llvm = build.lower_to_llvm_dialect(text, stages(schedule), schedule)
    openmp = schedule is not None and schedule.threads > 1
    build.compile_library(build.translate_to_llvm_ir(llvm), library, openmp=openmp)
    return {
        name: CompiledModel(library, Signature.of(program_from_mlir(text, function=name)), [])
        for name, *_ in CASES
    }


@pytest.fixture(scope="module")
def libraries(tmp_path_factory: pytest.TempPathFactory) -> tuple[Compiled, Compiled]:
    tmp = tmp_path_factory.mktemp("schedule")
    return _compile(tmp, None), _compile(tmp, SCHEDULE)


def test_schedule_parses(tmp_path: Path) -> None:
    path = tmp_path / "schedule.mlir"
    path.write_text(SCHEDULE.script)
    done = subprocess.run(
        ["mlir-opt-22", str(path), "-o", "/dev/null"], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_schedule_replaces_bufferization_and_loops() -> None:
    names = [stage.name for stage in stages(SCHEDULE)]
    assert names == ["tosa-to-linalg", "schedule", "bufferize", "vector-lowering"]
    text = pass_pipeline(stages(SCHEDULE), "/s.mlir")
    assert "transform-library-paths=/s.mlir}" in text
    assert "function-boundary-type-conversion=identity-layout-map" in text


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_scheduled_matches_plain(case: tuple, libraries: tuple[Compiled, Compiled]) -> None:
    name, args, _, _ = case
    rng = np.random.default_rng(len(name))
    inputs = [rng.standard_normal(shape, dtype=np.float32) for shape in args]
    plain, scheduled = (library[name](*inputs)[0] for library in libraries)
    assert np.abs(plain).max() > 0
    np.testing.assert_allclose(scheduled, plain, rtol=0, atol=1e-4)


@pytest.fixture(scope="module")
def two_threads(tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    return _compile(tmp_path_factory.mktemp("threads"), vectorize(2))


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_two_threads_compute_what_one_does(
    case: tuple, libraries: tuple[Compiled, Compiled], two_threads: Compiled
) -> None:
    """Only outer parallel loops are shared out, so every output is computed as on one
    thread, bit for bit."""
    name, args, _, _ = case
    rng = np.random.default_rng(len(name))
    inputs = [rng.standard_normal(shape, dtype=np.float32) for shape in args]
    np.testing.assert_array_equal(two_threads[name](*inputs)[0], libraries[1][name](*inputs)[0])


def test_threads_lower_to_openmp_above_one() -> None:
    assert not any("openmp" in p for p in vector_lowering(1))
    two = vector_lowering(2)
    assert "convert-scf-to-openmp{num-threads=2}" in two
    assert two.index("convert-scf-to-openmp{num-threads=2}") < two.index("convert-scf-to-cf")
    assert two.index("convert-openmp-to-llvm") < two.index("reconcile-unrealized-casts")
    # the parallel bodies' alloca scopes lowered while each is one block
    assert two.index("finalize-memref-to-llvm") < two.index("convert-scf-to-cf")
    assert (SCHEDULE.threads, vectorize(3).threads) == (1, 3)
    with pytest.raises(ValueError, match="at least 1, not 0"):
        vectorize(0)


def test_heavy_ops_tile_their_outer_parallel_loops_into_foralls() -> None:
    """Convolution rows split into one part per thread (the batch of one folds away),
    matmul column panels, and the batches of a batch matmul with several."""
    conv = _scheduled(_function(*CASES[0]), "schedule", vectorize(2))
    assert re.search(r"scf\.forall \(%\w+\) in \(2\)", conv), conv
    matmul = _scheduled(_function(*_matmul("f", 1, 24, 64, 70)), "schedule")
    # 70 columns: panels of 32, 32 and 6
    assert re.search(r"scf\.forall \(%\w+\) in \(3\)", matmul), matmul
    batches = _scheduled(_function(*_matmul("f", 5, 24, 64, 70)), "schedule")
    assert re.search(r"scf\.forall \(%\w+\) in \(5\)", batches), batches


def test_a_packed_convs_epilogue_splits_its_rows_among_threads() -> None:
    """The clamp after a conv made a product on packed panels runs in a loop
    of two parts on two threads (its rows split), after the product's loop,
    where it has PARALLEL_EPILOGUE_ROWS rows or more; in none on one thread,
    nor with fewer rows."""
    case = next(case for case in CASES if case[0] == "packed_conv_clamped")
    assert case[2][1] >= PARALLEL_EPILOGUE_ROWS
    two = _scheduled(_function(*case), "schedule", vectorize(2))
    forall = r"scf\.forall \(%\w+\) in \(2\) shared_outs\(%\w+ = %\w+\) -> \(tensor<{}xf32>\)"
    product = re.search(forall.format("196x2x32"), two)
    rows = re.search(forall.format("1x14x14x64"), two)
    assert product is not None and rows is not None and product.start() < rows.start(), two
    assert "arith.maximumf" in two[rows.end() :], two
    one = _scheduled(_function(*case), "schedule")
    assert not re.search(r"scf\.forall .* -> \(tensor<1x14x14x64xf32>\)", one), one
    small = _scheduled(_function(*_packed_conv("f", 7, 40, 64)), "schedule", vectorize(2))
    assert 7 < PARALLEL_EPILOGUE_ROWS
    assert not re.search(r"scf\.forall .* -> \(tensor<1x7x7x64xf32>\)", small), small


def test_a_product_of_few_short_panels_shares_out_its_rows_among_threads() -> None:
    """On two threads a product of a 14x14 layer's ``PRODUCT_PIXELS`` rows of
    few, short panels runs in a forall of two halves of its rows, each taking
    every panel in turn, in 8-row tiles and a static, vectorised remainder of
    2; one of panels longer than ``SHARED_ROWS_STEPS`` shares out its panels."""
    pixels, panels = 14, 3
    assert pixels * pixels == PRODUCT_PIXELS and panels <= SHARED_ROWS_PANELS
    shared = _scheduled(
        _function(*_packed_conv("f", pixels, 40, 32 * panels)), "schedule", vectorize(2)
    )
    forall = re.search(r"scf\.forall \(%\w+\) in \(2\) .* -> \(tensor<196x3x32xf32>\)", shared)
    assert forall is not None, shared
    inside = shared[forall.end() :]
    assert "[98, 3, 32]" in inside, shared
    each_panel = re.search(rf"scf\.for %\w+ = %c0 to %c{panels} step %c1", inside)
    assert each_panel is not None, shared
    tiles = re.search(r"scf\.for %\w+ = %c0 to %c96 step %c8", inside[each_panel.end() :])
    assert tiles is not None, shared
    assert "vector<2x8xf32>, vector<8x32xf32> into vector<2x32xf32>" in inside, shared
    longer = _packed_conv("f", pixels, SHARED_ROWS_STEPS + 8, 32 * panels)
    by_panels = _scheduled(_function(*longer), "schedule", vectorize(2))
    assert re.search(r"scf\.forall \(%\w+\) in \(3\)", by_panels), by_panels


def test_pads_split_their_rows_among_threads() -> None:
    """On two threads a pad's fill and copy each run in a loop of two parts
    (its rows split), where it has PARALLEL_PAD_ROWS rows or more; on one
    thread, or with fewer rows, in none."""
    for case in PADS:
        two = _scheduled(_function(*case), "schedule", vectorize(2))
        rows = case[2][PAD_ROWS[len(case[2])]]
        splits = 2 if rows >= PARALLEL_PAD_ROWS else 0
        assert len(re.findall(r"scf\.forall \(%\w+\) in \(2\)", two)) == splits, two
        assert "scf.forall" not in _scheduled(_function(*case), "schedule"), case[0]


def test_large_passes_split_their_rows_among_threads() -> None:
    """On two threads an elementwise op, a transpose or a row reduction of
    PARALLEL_ROWS rows or more runs in a loop of two parts (its heads or rows
    split); on one thread, or with fewer rows, in none."""
    for case in LARGE_PASSES:
        assert max(case[1][0][:-1]) >= PARALLEL_ROWS
        two = _scheduled(_function(*case), "schedule", vectorize(2))
        assert re.search(r"scf\.forall \(%\w+\) in \(2\)", two), two
        assert "scf.forall" not in _scheduled(_function(*case), "schedule"), case[0]
    small = _gelu(PARALLEL_ROWS - 1)
    assert "scf.forall" not in _scheduled(_function(*small), "schedule", vectorize(2))


@pytest.mark.parametrize("case", PADS, ids=[case[0] for case in PADS])
def test_scheduled_pad_matches_numpy(case: tuple, two_threads: Compiled) -> None:
    name, args, _, body = case
    widths = [int(w) for w in re.findall(r"-?\d+", body[0].split("[")[1].split("]")[0])]
    x = np.random.default_rng(5).standard_normal(args[0], dtype=np.float32)
    expected = np.pad(x, list(zip(widths[::2], widths[1::2])))
    np.testing.assert_array_equal(two_threads[name](x)[0], expected)


def _allocs_in_loops(bufferized: str) -> list[str]:
    """The ``memref.alloc`` lines of `bufferized` nested in an ``scf.for``."""
    found, open_ops = [], []
    for line in bufferized.splitlines():
        indent = len(line) - len(line.lstrip())
        while open_ops and open_ops[-1][0] >= indent:
            open_ops.pop()
        if "memref.alloc" in line and any("scf.for " in op for _, op in open_ops):
            found.append(line.strip())
        if line.rstrip().endswith("{"):
            open_ops.append((indent, line))
    return found


@pytest.mark.parametrize("threads", [1, 2])
def test_tile_scratch_buffers_are_on_the_stack_once_per_thread(threads: int) -> None:
    """A fused conv's tile sums into a scratch buffer before its epilogue: a
    small alloca outside the tile loops (inside one, each would take fresh
    stack), one per thread's share of the rows; on one thread the forall
    loops are plain loops before bufferization, and it is out of them too."""
    for name in ("depthwise_hwc_clamped", "conv3x3"):
        (case,) = [case for case in CASES if case[0] == name]
        bufferized = _scheduled(_function(*case), "bufferize", vectorize(threads))
        stacked = re.findall(r"memref\.alloca\(\).* : memref<((?:\d+x)+)f32>", bufferized)
        assert stacked and ("scf.forall" in bufferized) == (threads > 1), name
        assert all(
            math.prod(map(int, d[:-1].split("x"))) * 4 <= STACK_BUFFER_BYTES for d in stacked
        )
        assert _allocs_in_loops(bufferized) == [], name


def test_scheduled_conv_matches_numpy(libraries: tuple[Compiled, Compiled]) -> None:
    name, args, _, _ = CASES[0]
    rng = np.random.default_rng(1)
    x, w, b = (rng.standard_normal(shape, dtype=np.float32) for shape in args)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))  # N,H,W,C,KH,KW
    expected = np.maximum(np.einsum("nhwcij,ijcf->nhwf", windows, w) + b, 0)
    np.testing.assert_allclose(libraries[1][name](x, w, b)[0], expected, rtol=0, atol=1e-4)


BIAS_ONLY = ["conv3x3_s2_bias_only", "conv1x1_bias_only"]


@pytest.mark.parametrize("name", BIAS_ONLY)
def test_scheduled_conv_of_no_epilogue_matches_numpy(
    name: str, libraries: tuple[Compiled, Compiled]
) -> None:
    (case,) = [case for case in CASES if case[0] == name]
    args, result = case[1], case[2]
    k, stride = args[1][0], 2 if "_s2" in name else 1
    before, after = (1, 0) if k == 3 else (0, 0)
    rng = np.random.default_rng(4)
    x, w, b = (rng.standard_normal(shape, dtype=np.float32) for shape in args)
    padded = np.pad(x, ((0, 0), (before, after), (before, after), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(1, 2))
    windows = windows[:, ::stride, ::stride][:, : result[1], : result[2]]
    expected = np.einsum("nhwcij,ijcf->nhwf", windows.astype(np.float64), w) + b
    for library in libraries:
        np.testing.assert_allclose(library[name](x, w, b)[0], expected, rtol=0, atol=1e-4)


@pytest.mark.parametrize("case", MATMULS, ids=[case[0] for case in MATMULS])
def test_scheduled_matmul_matches_numpy(case: tuple, libraries: tuple[Compiled, Compiled]) -> None:
    name, args, _, _ = case
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal(shape, dtype=np.float32) for shape in args)
    expected = np.matmul(a.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(libraries[1][name](a, b)[0], expected, rtol=0, atol=1e-4)


@pytest.mark.parametrize("case", PACKED_MATMULS, ids=[case[0] for case in PACKED_MATMULS])
def test_scheduled_packed_matmul_matches_numpy(
    case: tuple, libraries: tuple[Compiled, Compiled]
) -> None:
    name, args, result, _ = case
    rng = np.random.default_rng(3)
    a, packed = (rng.standard_normal(shape, dtype=np.float32) for shape in args)
    k, n = args[0][2], result[2]
    weight = packed.transpose(1, 0, 2).reshape(k, -1)[:, :n]
    expected = np.matmul(a.astype(np.float64), weight.astype(np.float64))
    np.testing.assert_allclose(libraries[1][name](a, packed)[0], expected, rtol=0, atol=1e-4)


def test_packed_matmul_reads_its_panels_in_place() -> None:
    """A product on packed panels of many rows is one forall over its panels,
    whose tiles read the packed weight's slices with no copy, in a loop of
    8x8 by 8x32 contractions carrying the accumulator; the reshape of its
    rows stays outside it."""
    scheduled = _scheduled(_function(*PACKED_MATMULS[1]), "schedule")
    assert re.search(r"scf\.forall \(%\w+\) in \(3\)", scheduled), scheduled
    assert "alloc_tensor" not in scheduled
    assert re.search(r"tensor.extract_slice %arg1\[%\w+, 0, 0\] \[1, 40, 32\]", scheduled)
    loop = re.search(r"scf\.for .* step %c8 iter_args\(.*\) -> \(vector<8x32xf32>\)", scheduled)
    assert loop is not None, scheduled
    assert "vector<8x8xf32>, vector<8x32xf32> into vector<8x32xf32>" in scheduled[loop.end() :]
    assert "tensor.collapse_shape %arg0 [[0, 1], [2]]" in scheduled


def test_a_conv_reading_its_taps_in_place_takes_a_direct_convs_tiles(
    known_conv: Callable[..., ModuleOp],
) -> None:
    """A stride-1 conv into 14x14 pixels by known filters, dilated (not
    Winograd's: packed_conv2d): a forall over its 2 panels; in each, rows, then tiles of 7 pixels, then the
    3x3 taps and the channels in steps of 4, which carry a 7x32 accumulator."""
    text = build.generic_text(lower(known_conv(14, 16, 64, dilation=2)))
    scheduled = _scheduled(text, "schedule")
    forall = re.search(r"scf\.forall \(%\w+\) in \(2\)", scheduled)
    assert forall is not None, scheduled
    nest = [
        r"scf\.for %\w+ = %c0 to %c14 step %c1 ",
        r"scf\.for %\w+ = %c0 to %c14 step %c7 ",
        r"scf\.for %\w+ = %c0 to %c3 step %c1 iter_args\(.*\) -> \(vector<7x32xf32>\)",
        r"scf\.for %\w+ = %c0 to %c3 step %c1 iter_args\(.*\) -> \(vector<7x32xf32>\)",
        r"scf\.for %\w+ = %c0 to %c16 step %c4 iter_args\(.*\) -> \(vector<7x32xf32>\)",
    ]
    at = forall.end()
    for loop in nest:
        found = re.compile(loop).search(scheduled, at)
        assert found is not None, (loop, scheduled)
        at = found.end()
    assert "vector<7x4xf32>, vector<4x32xf32> into vector<7x32xf32>" in scheduled[at:]


def test_winograds_transforms_and_products_are_vectorised(
    known_conv: Callable[..., ModuleOp],
) -> None:
    """A stride-1 3x3 conv into 14x14 pixels by known filters (Winograd's,
    conversion/winograd.py) leaves no linalg op: its windows' transform is 3
    additions or subtractions of vectors of its 16 channels for each of the
    16 windows' sums, its product of 16 batches one 8x32 tile in a forall
    over the batches and the 2 panels, its outputs' transform multiply-adds
    of vectors."""
    text = build.generic_text(lower(known_conv(14, 16, 64)))
    scheduled = _scheduled(text, "schedule")
    assert "linalg." not in scheduled, scheduled
    additions = re.findall(r"arith\.(?:add|sub)f %\w+, %\w+ : vector<16xf32>", scheduled)
    assert len(additions) == 16 * 3
    assert re.search(r"scf\.forall \(%\w+, %\w+\) in \(16, 2\)", scheduled)
    assert scheduled.count("into vector<8x32xf32>") == 1
    assert re.search(r"arith\.mulf %\w+, %\w+ : vector<64xf32>", scheduled)


def test_a_padded_max_pool_pools_each_row_of_its_inside_into_a_row_buffer() -> None:
    """The inside of a padded max pool (pooling.py pools it apart from the
    padded edges and copies each part into the result) runs a row at a time:
    each row pooled into a buffer of one row (on the stack, on one thread),
    then copied into the result; no buffer of the whole inside is filled,
    pooled into and copied."""
    text = build.generic_text(
        lower(
            Parser(
                relay_context(),
                """builtin.module {
  func.func @main(%x: tensor<1x24x20x20xf32>) -> tensor<1x24x10x10xf32> {
    %r = relay.nn.max_pool2d(%x) {pool_size = array<i32: 3, 3>, strides = array<i32: 2, 2>,
      padding = array<i32: 1, 1, 1, 1>} : (tensor<1x24x20x20xf32>) -> tensor<1x24x10x10xf32>
    func.return %r : tensor<1x24x10x10xf32>
  }
}""",
            ).parse_module()
        )
    )
    bufferized = _scheduled(text, "bufferize")
    assert "memref<1x9x9x24xf32>" not in bufferized, bufferized
    assert re.search(r"memref.alloca\(\) [^\n]*: memref<1x1x9x24xf32>", bufferized), bufferized
    assert "vector<2x24xf32>" in bufferized, bufferized


def test_a_packed_matmul_of_few_rows_runs_blocks_of_its_reduction_outermost() -> None:
    """In each panel of a product of at most ``PACKED_FEW_ROWS`` rows, the
    reduction runs in blocks of ``PACKED_K_BLOCK`` outside the row tiles,
    each tile's accumulator read, carried in registers through the block's
    8-long steps, and written; the panel starts from its zeros, one vector."""
    rows, k = 26, 2 * PACKED_K_BLOCK + 100
    assert rows <= PACKED_FEW_ROWS and k % PACKED_K_BLOCK  # a block and a remainder
    scheduled = _scheduled(_function(*_packed_matmul("f", 2, 13, k, 70)), "schedule")
    forall = scheduled.index("scf.forall")
    zeros = f"arith.constant dense<0.000000e+00> : vector<{rows}x1x32xf32>"
    assert zeros in scheduled, scheduled
    whole = k - k % PACKED_K_BLOCK
    blocks = re.search(
        rf"scf\.for %\w+ = %c0 to %c{whole} step %c{PACKED_K_BLOCK} iter_args",
        scheduled[forall:],
    )
    assert blocks is not None, scheduled
    inside = scheduled[forall + blocks.end() :]
    tiles = re.search(r"scf\.for %\w+ = %c0 to %c24 step %c8 iter_args", inside)
    assert tiles is not None, scheduled
    steps = re.search(
        rf"scf\.for %\w+ = %c0 to %c{PACKED_K_BLOCK} step %c8 iter_args\(.*\) -> \(vector<8x32xf32>\)",
        inside[tiles.end() :],
    )
    assert steps is not None, scheduled


@pytest.mark.parametrize(
    ("case", "tiles"),
    [(PACKED_MATMULS[1], ["8x32", "4x32"]), (MATMULS[1], ["8x32", "5x32", "8x13", "5x13"])],
    ids=["packed", "batches"],
)
def test_products_accumulate_from_zeros_in_registers(case: tuple, tiles: list[str]) -> None:
    """Each output tile's accumulator, of a product on packed panels or of
    a batch matmul of several batches, starts as a zero vector carried into
    the reduction loop: neither a pass filling the output with zeros nor a
    read of them back."""
    scheduled = _scheduled(_function(*case), "schedule")
    for tile in tiles:
        loop = rf"scf\.for .* iter_args\(%\w+ = (%\w+)\) -> \(vector<{tile}xf32>\)"
        found = re.search(loop, scheduled)
        assert found is not None, scheduled
        zeros = f"{found.group(1)} = arith.constant dense<0.000000e+00> : vector<{tile}xf32>"
        assert zeros in scheduled, scheduled
    assert "linalg.fill" not in scheduled, scheduled


@pytest.mark.parametrize("shape", DEPTHWISE_HWC_SHAPES, ids=[s[0] for s in DEPTHWISE_HWC_SHAPES])
def test_scheduled_depthwise_matches_numpy(
    shape: tuple, libraries: tuple[Compiled, Compiled]
) -> None:
    name, args, result, _ = _depthwise_hwc(*shape)
    stride, dilation = shape[3:]
    rng = np.random.default_rng(3)
    x, w, b = (rng.standard_normal(shape, dtype=np.float32) for shape in args)
    expected = np.broadcast_to(b, result).astype(np.float64)
    for i in range(3):
        for j in range(3):
            rows = slice(i * dilation, i * dilation + stride * (result[1] - 1) + 1, stride)
            cols = slice(j * dilation, j * dilation + stride * (result[2] - 1) + 1, stride)
            expected = expected + x[:, rows, cols, :] * w[i, j]
    np.testing.assert_allclose(libraries[1][name](x, w, b)[0], expected, rtol=0, atol=1e-4)


def test_depthwise_is_vectorised_at_any_stride() -> None:
    """Strided and dilated depthwise convs leave no linalg op: each tile is FMAs on vectors."""
    for case in DEPTHWISE_HWC:
        scheduled = _scheduled(_function(*case), "schedule")
        assert "linalg." not in scheduled, scheduled
        assert "vector.fma" in scheduled


def test_a_depthwise_conv_at_14_pixels_takes_7_pixel_tiles_only() -> None:
    """14 output pixels a row (mobilenet_v2's middle layers) are two tiles of
    7 pixels by 32 channels, with no narrower remainder tile."""
    case = next(case for case in CASES if case[0] == "depthwise_hwc_clamped")
    assert case[2][2] == 14
    scheduled = _scheduled(_function(*case), "schedule")
    widths = set(re.findall(r"vector<(\d+)x32xf32>", scheduled))
    # the accumulators, the input row each reads and the filter row's taps
    assert widths == {"7", "9", "3"}, widths


def test_a_transpose_to_3_channels_reads_rows_of_16_pixels() -> None:
    """NCHW to NHWC of 3 channels reads each channel's 16 pixels as one
    contiguous vector and transposes them in registers (no per-element
    loop), the remainder pixels likewise; on two threads, its rows split
    between them."""
    case = next(case for case in CASES if case[0] == "transpose_to_3_channels")
    scheduled = _scheduled(_function(*case), "schedule")
    for pixels in (16, 5):
        read = f": tensor<3x{pixels}xf32>, vector<3x{pixels}xf32>"
        assert read in scheduled, scheduled
        assert f"[1, 0] : vector<3x{pixels}xf32> to vector<{pixels}x3xf32>" in scheduled
    assert "linalg." not in scheduled and "scf.forall" not in scheduled, scheduled
    two = _scheduled(_function(*case), "schedule", vectorize(2))
    assert re.search(r"scf\.forall \(%\w+\) in \(2\) .* -> \(tensor<1x6x37x3xf32>\)", two), two


def test_convs_are_vectorised_in_either_loop_order() -> None:
    """Convs of short and of long reductions (the two loop orders), remainders
    included, leave no linalg op."""
    convs = [case for case in CASES if case[0].startswith(("conv", "stem"))]
    assert any(case[1][0][-1] >= LONG_REDUCTION for case in convs)
    for case in convs:
        scheduled = _scheduled(_function(*case), "schedule")
        assert "linalg." not in scheduled, scheduled


def _epilogue_in_tile(scheduled: str, op: str = "arith.maximumf") -> bool:
    """Whether a clamp (or `op`) follows the conv's sums before any loop yields
    the whole output: in the loops of the tile that sums it, not in a pass of
    its own."""
    whole = re.search(r"\) -> (tensor<[^>]*>) attributes", scheduled)
    assert whole is not None, scheduled
    between = rf"(?:(?!scf\.yield [^\n]*: {re.escape(whole[1])}).)*?"
    return re.search(rf"vector\.(?:contract|fma){between}{op}", scheduled, re.DOTALL) is not None


@pytest.mark.parametrize("name", ["conv1x1_narrow_residual", "conv1x1_residual"])
def test_a_residual_add_of_a_conv_as_its_second_operand_is_applied_to_each_tile(
    name: str,
) -> None:
    """``add(residual, conv)`` is fused into the conv's tiles as ``add(conv,
    residual)`` is, not added in a pass of its own."""
    (case,) = [case for case in CASES if case[0] == name]
    scheduled = _scheduled(_function(*case), "schedule")
    assert _epilogue_in_tile(scheduled, "arith.addf"), scheduled


def test_a_short_convs_epilogue_is_applied_to_each_tile_as_it_is_summed() -> None:
    """The clamp after a conv of a short reduction (or of a long one into more
    than 7 rows), or after a depthwise conv, runs on each tile in the loops
    that sum it; after a conv of a long reduction into 7 rows, in a pass of
    its own."""
    for name in ("conv3x3", "conv3x3_long_rows", "depthwise_hwc_clamped"):
        (short,) = [case for case in CASES if case[0] == name]
        assert _epilogue_in_tile(_scheduled(_function(*short), "schedule")), name
    (long,) = [case for case in CASES if case[0] == "conv3x3_long"]
    scheduled = _scheduled(_function(*long), "schedule")
    assert "vector.contract" in scheduled and not _epilogue_in_tile(scheduled)


def test_a_conv_of_3_channels_steps_over_them_one_at_a_time_in_line() -> None:
    """A stem's conv of 3 input channels (fewer than a step of CONV_TILE)
    reduces over them in 3 steps (THIN_CONV_UNROLL), each a 1x32 slice of the
    filter and one channel of the pixels, not one 3-wide step, and in line
    inside the loop of a filter row's taps, not a loop of 3."""
    (stem,) = [case for case in CASES if case[0] == "stem7x7_s2"]
    scheduled = _scheduled(_function(*stem), "schedule")
    carried = r"iter_args\([^\n]*\) -> \(vector<7x32xf32>\)"
    taps = re.search(rf"scf\.for %\w+ = %c0 to %c7 step %c1 {carried}", scheduled)
    assert taps is not None, scheduled
    assert not re.search(rf"scf\.for %\w+ = %c0 to %c3 step %c1 {carried}", scheduled)
    assert THIN_CONV_UNROLL == 3
    assert "vector<1x32xf32>" in scheduled, scheduled


def test_a_pool_tile_is_2_outputs_of_a_row() -> None:
    """A max pool's tile is 2 outputs by the channels (24 here), reading the 5
    input pixels that a 3-wide window at stride 2 covers; 8 outputs a tile
    spilled their results."""
    (pools,) = [case for case in CASES if case[0] == "pools"]
    scheduled = _scheduled(_function(*pools), "schedule")
    assert "vector<2x24xf32>" in scheduled and "vector<5x24xf32>" in scheduled, scheduled
    assert "vector<8x24xf32>" not in scheduled, scheduled


def test_a_conv_steps_4_channels_at_a_time() -> None:
    """Each reduction step of a conv's 7x32 tile reads 7 pixels' 4 channels and
    a 4x32 slice of the filter (8 registers beside the accumulator's 14), in
    either loop order."""
    for name in ("conv3x3", "conv3x3_long"):
        (conv,) = [case for case in CASES if case[0] == name]
        scheduled = _scheduled(_function(*conv), "schedule")
        slices = set(re.findall(r"vector<(\d+)x32xf32>", scheduled))
        assert slices == {"4", "7"}, (name, slices)
        assert "vector<7x4xf32>" in scheduled, name


def test_a_fused_epilogue_runs_rows_then_filter_tiles_then_columns() -> None:
    """A conv tiled from its epilogue loops over its output rows outermost,
    then its 32-filter tiles, then its 7-column tiles (CONV_EPILOGUE_ORDER):
    each output row is written whole before the next."""
    (conv,) = [case for case in CASES if case[0] == "conv3x3"]
    _, rows, columns, filters = conv[2]
    scheduled = _scheduled(_function(*conv), "schedule")
    assert _rows_then_filter_tiles_then_columns(scheduled, rows, columns, filters), scheduled


def test_a_conv_of_no_epilogue_runs_rows_then_filter_tiles_then_columns() -> None:
    """A conv of a short reduction and no epilogue (its sums start from the
    bias) loops over its output rows outermost too (CONV_ROWS_OUTER)."""
    conv = _conv("bias_only", 28, 16, 64, 1, 1, (0, 0), hwio=True, relu=False)
    scheduled = _scheduled(_function(*conv), "schedule")
    assert _rows_then_filter_tiles_then_columns(scheduled, 28, 28, 64), scheduled


def test_a_conv_of_no_epilogue_starts_each_tile_from_its_bias() -> None:
    """A conv of no epilogue reads its bias into each 7x32 tile, inside the
    tile loops: its one loop over the output rows is the conv's, with no
    pass broadcasting the bias over the whole output before it; the bias is
    broadcast to one vector of the tile's shape, which the accumulator
    starts from, not written pixel by pixel and read back."""
    conv = _conv("bias_only", 28, 16, 64, 1, 1, (0, 0), hwio=True, relu=False)
    scheduled = _scheduled(_function(*conv), "schedule")
    rows = r"scf\.for %\w+ = %c0 to %c28 step %c1 [^\n]*-> \(tensor<1x28x28x64xf32>\)"
    assert len(re.findall(rows, scheduled)) == 1, scheduled
    columns = scheduled.index("step %c7 iter_args")
    bias = r"vector\.transfer_read %\w+\[%c0\], %\w+ {in_bounds = \[true\]} : tensor<32xf32>"
    assert re.search(bias, scheduled[columns:]), scheduled
    assert "vector<32xf32> to vector<7x32xf32>" in scheduled[columns:], scheduled


def test_a_fused_epilogue_starts_each_tile_from_its_bias_in_one_vector() -> None:
    """A conv tiled from its epilogue broadcasts its bias to one vector of
    the tile's shape too."""
    (conv,) = [case for case in CASES if case[0] == "conv3x3"]
    scheduled = _scheduled(_function(*conv), "schedule")
    assert "vector<32xf32> to vector<7x32xf32>" in scheduled, scheduled


def _rows_then_filter_tiles_then_columns(
    scheduled: str, rows: int, columns: int, filters: int
) -> bool:
    """Whether `scheduled` loops over the output's rows one at a time, then
    its 32-filter tiles, then its 7-column tiles, each loop inside the last."""
    nest = re.search(
        rf"scf\.for %\w+ = %c0 to %c{rows} step %c1 [^\n]*-> \(tensor<1x{rows}x{columns}x{filters}xf32>\) {{\n"
        rf"\s*%\w+ = scf\.for %\w+ = %c0 to %c{filters} step %c32 [^\n]*\n"
        rf"\s*%\w+ = scf\.for %\w+ = %c0 to %c{columns} step %c7 ",
        scheduled,
    )
    return nest is not None


def test_a_fused_epilogue_sums_in_one_tile_buffer_outside_the_loops() -> None:
    """A conv whose epilogue is fused sums each tile in a buffer of the tile's
    size, on the stack once before the tile loops (on one thread), and writes
    the output, the one buffer of the output's size (not the conv's sums,
    then the output)."""
    (conv,) = [case for case in CASES if case[0] == "conv3x3"]
    bufferized = _scheduled(_function(*conv), "bufferize")
    output = _ty(conv[2]).replace("tensor", "memref")
    allocs = re.findall(r"memref\.alloc\(\) [^\n]*: (memref<[^>]*>)", bufferized)
    assert allocs.count(output) == 1, bufferized
    # after the pad's loops, which come first: the tile buffer, then the conv's loops
    conv_loops = re.search(
        rf"memref\.alloc\(\) [^\n]*: {re.escape(output)}(?:(?!scf\.for).)*"
        r"memref\.alloca\(\) [^\n]*: memref<1x1x7x32xf32>\n\s*scf\.for",
        bufferized,
        re.DOTALL,
    )
    assert conv_loops is not None, bufferized


def test_each_thread_sums_in_a_tile_buffer_of_its_own() -> None:
    """On two threads, the tile buffer is on the stack inside the forall that
    shares out the rows (one per thread), not hoisted out of it."""
    (conv,) = [case for case in CASES if case[0] == "conv3x3"]
    bufferized = _scheduled(_function(*conv), "bufferize", vectorize(2))
    inside = re.search(
        r"scf\.forall \(%\w+\) in \(2\)(?:(?!scf\.for).)*"
        r"memref\.alloca\(\) [^\n]*: memref<1x1x7x32xf32>",
        bufferized,
        re.DOTALL,
    )
    assert inside is not None, bufferized


def test_a_narrow_conv_sums_14_columns_by_16_filters() -> None:
    """A conv of fewer than 32 filters (24) sums 14x16 tiles and an 8-wide
    remainder, never a 24-wide vector, and clamps each tile as it is summed."""
    (narrow,) = [case for case in CASES if case[0] == "conv1x1_narrow"]
    scheduled = _scheduled(_function(*narrow), "schedule")
    assert "vector<14x16xf32>" in scheduled and "vector<14x8xf32>" in scheduled, scheduled
    assert not re.search(r"vector<\d+x24xf32>", scheduled), scheduled
    assert _epilogue_in_tile(scheduled)


@pytest.mark.parametrize("name", ["conv1x1_narrow", "conv1x1_narrow_bias_only"])
def test_a_narrow_conv_runs_its_rows_outermost(name: str) -> None:
    """A narrow conv (24 filters: a 16- and an 8-filter tile), with an
    epilogue or starting from its bias, loops over its 15 output rows once,
    both filter tiles inside each row (CONV_ROWS_OUTER), not once per filter
    tile, which read the input twice."""
    (narrow,) = [case for case in CASES if case[0] == name]
    scheduled = _scheduled(_function(*narrow), "schedule")
    rows = re.findall(r"scf\.for %\w+ = %c0 to %c15 step %c1 ", scheduled)
    assert len(rows) == 1, scheduled
    row_loop = scheduled.index(rows[0])
    assert "vector<14x16xf32>" in scheduled[row_loop:], scheduled
    assert "vector<14x8xf32>" in scheduled[row_loop:], scheduled


def _scheduled(text: str, upto: str, schedule: Schedule = SCHEDULE) -> str:
    """`text` through `schedule` 's stages up to and including `upto`."""
    names = [stage.name for stage in stages(schedule)]
    return build.lower_to_llvm_dialect(text, stages(schedule)[: names.index(upto) + 1], schedule)


def test_matmul_reduction_stays_a_loop() -> None:
    """The reduction is an scf.for of 8-long steps carrying the 8x32 accumulator."""
    text = _function(*_matmul("f", 2, 16, 4096, 64))
    scheduled = _scheduled(text, "schedule")
    loop = re.search(
        r"scf\.for %\w+ = %c0 to %c4096 step %c8 iter_args\(.*\) -> \(vector<8x32xf32>\)",
        scheduled,
    )
    assert loop is not None, scheduled
    assert "vector.contract" in scheduled[loop.end() :]


def test_matmul_reads_a_contiguous_copy_of_its_panel() -> None:
    """Each 32-column panel of the right operand is copied, in 8x32 vectors,
    into a buffer of its own, which the contractions read."""
    scheduled = _scheduled(_function(*_matmul("f", 1, 16, 300, 64)), "schedule")
    panel = re.search(r"(%\w+) = bufferization.alloc_tensor\(\) : tensor<1x300x32xf32>", scheduled)
    assert panel is not None, scheduled
    copy = scheduled[panel.end() :]
    assert re.search(
        r"vector.transfer_write %\w+, %\w+.* : vector<8x32xf32>, tensor<1x8x32xf32>", copy
    )
    assert re.search(r"tensor.extract_slice %\w+\[0, %\w+, 0\] \[1, 8, 32\]", copy)


def test_row_broadcasts_are_splatted_scalars() -> None:
    """Softmax's maxima and sums reach each row's tile as one scalar, broadcast:
    no read broadcasts along a vector's minor dimension (which the lowering of
    transfers fills element by element)."""
    scheduled = _scheduled(_function(*_softmax_concat()), "schedule")
    assert "vector.broadcast" in scheduled
    assert "permutation_map" not in scheduled, scheduled


@pytest.mark.parametrize("case", [_softmax4(), _variance()], ids=lambda case: case[0])
def test_fused_row_reductions_are_vectorised(case: tuple) -> None:
    """Reductions along the last axis that elementwise ops were fused into
    (generics, of four or five loops) are tiled and vectorised, not loops."""
    scheduled = _scheduled(_function(*case), "schedule")
    assert not re.search(r"linalg\.generic .*reduction", scheduled), scheduled
    assert re.search(r"vector\.reduction <(add|maximumf)>, %\w+, %\w+ : vector<64xf32>", scheduled)


@pytest.mark.parametrize("case", [_softmax4(197), _variance()], ids=lambda case: case[0])
def test_row_reductions_reduce_across_once_a_row(case: tuple) -> None:
    """A row reduction's column loop (vit_b_16's rows of 197: three tiles
    and a remainder; layer_norm's of 200) carries a vector of 64 running results,
    combined elementwise with each tile; the one reduction across a vector
    (per row) follows the loop."""
    scheduled = _scheduled(_function(*case), "schedule")
    loops = list(
        re.finditer(
            r"scf\.for .* iter_args\(.*\) -> \(vector<64xf32>\) \{\n(?P<body>(?:.*\n)*?)\s*\}",
            scheduled,
        )
    )
    assert loops, scheduled
    for loop in loops:
        assert re.search(r"arith\.(addf|maximumf) .* : vector<64xf32>", loop["body"]), loop[0]
        assert "vector.reduction" not in loop["body"], loop[0]
        after = scheduled[loop.end() :]
        assert re.search(r"vector\.reduction <(add|maximumf)>, %\w+, %\w+ : vector<64xf32>", after)


def test_softmax_is_one_pass_a_row() -> None:
    """A softmax's maximum, exponentials, sum and scaling are fused into one
    loop over its rows (an ``scf.forall`` of one row an iteration): each row's
    exponentials are computed once, and no pass runs over the whole tensor."""
    scheduled = _scheduled(_function(*_softmax4(197)), "schedule")
    loops = re.findall(r"scf\.forall \(%\w+, %\w+\) in \(3, 11\)", scheduled)
    assert len(loops) == 1, scheduled
    body = scheduled[scheduled.index(loops[0]) :]
    assert scheduled.count("math.exp") == body.count("math.exp") == 2, scheduled  # tile, remainder
    assert re.search(r"vector\.reduction <maximumf>", body)
    assert re.search(r"vector\.reduction <add>", body)


def test_scheduled_softmax_and_variance_match_numpy(libraries: tuple[Compiled, Compiled]) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 3, 11, 70), dtype=np.float32)
    e = np.exp(x - x.max(axis=3, keepdims=True))
    softmax = e / e.sum(axis=3, keepdims=True)
    np.testing.assert_allclose(libraries[1]["softmax4"](x)[0], softmax, rtol=1e-5, atol=1e-6)
    y = rng.standard_normal((1, 13, 200), dtype=np.float32)
    variance = y.var(axis=2, keepdims=True)
    np.testing.assert_allclose(libraries[1]["variance"](y)[0], variance, rtol=1e-5)


def test_matmul_code_does_not_grow_with_k() -> None:
    sizes = [
        len(_scheduled(_function(*_matmul("f", 1, 24, k, 64)), "vector-lowering").splitlines())
        for k in (512, 4096)
    ]
    assert sizes[0] == sizes[1]


TRANSCENDENTAL = {
    "exp": np.exp,
    "tanh": np.tanh,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "erf": np.vectorize(math.erf),
}
"""TOSA's transcendental functions, which the schedule computes as polynomials."""


def test_polynomial_approximations_within_3_ulp(tmp_path: Path) -> None:
    x = np.concatenate([np.linspace(-100, 100, 20001), np.linspace(-5, 5, 20001), [0, 88.7, 89]])
    x = x.astype(np.float32)
    size = (x.size,)
    functions = [
        (op, [size], size, [f'%out = "tosa.{op}"(%a0) : ({_ty(size)}) -> {_ty(size)}'])
        for op in TRANSCENDENTAL
    ]
    library = tmp_path / "transcendental.so"
    text = "".join(_function(*function) for function in functions)
    llvm = build.lower_to_llvm_dialect(text, stages(SCHEDULE), SCHEDULE)
    build.compile_library(build.translate_to_llvm_ir(llvm), library)
    for op, reference in TRANSCENDENTAL.items():
        signature = Signature.of(program_from_mlir(text, function=op))
        got = CompiledModel(library, signature, [])(x)[0].astype(np.float64)
        with np.errstate(over="ignore"):
            expected = reference(x.astype(np.float64))
            overflows = np.isinf(expected.astype(np.float32))
        assert np.isinf(got[overflows]).all(), op
        # below float32's smallest normal number, exp flushes to zero
        np.testing.assert_allclose(
            got[~overflows],
            expected[~overflows],
            rtol=3.6e-7,
            atol=float(np.finfo(np.float32).smallest_normal),
            err_msg=op,
        )


def _padded_depthwise_module(size: int, channels: int, stride: int) -> str:
    """A 3x3 depthwise conv as the conversion makes it (its input padded by
    ``zero_padded``, 1 before and ``2 - stride`` after), its bias, and a clamp
    to [0, 6] after it, as mobilenet_v2's."""
    data = TensorType(f32, (1, size, size, channels))
    weight, bias = TensorType(f32, (3, 3, channels)), TensorType(f32, (channels,))
    block = Block(arg_types=[data, weight, bias])
    emit = TosaBuilder(block)
    after = 2 - stride
    padded = zero_padded(emit, block.args[0], [0, 0, 1, after, 1, after, 0, 0])
    out = size // stride
    result = TensorType(f32, (1, out, out, channels))
    conv = depthwise_conv2d(
        emit, padded, block.args[1], [stride] * 2, [1, 1], block.args[2], result
    )
    clamped = emit.clamp(conv, 0.0, 6.0)
    block.add_op(func.ReturnOp(clamped))
    function = func.FuncOp("depthwise", ([data, weight, bias], [result]), Region([block]))
    function.attributes["llvm.emit_c_interface"] = UnitAttr()
    return build.module_text(ModuleOp([function]))


def _padded_input_written(size: int, stride: int, channels: int, threads: int) -> str:
    """The padded input a thread writes, per `test_a_depthwise_convs_padded_input_is_written_in_parts`."""
    whole, out = size + 3 - stride, size // stride
    rows = (min(out, DEPTHWISE_PAD_BLOCK) - 1) * stride + 3
    if out >= DEPTHWISE_PAD_BLOCK * threads:
        if out < DEPTHWISE_CHANNEL_BLOCK_ROWS:
            return f"1x{rows}x{whole}x{min(channels, DEPTHWISE_CHANNEL_BLOCK)}"
        return f"1x{rows}x{whole}x{channels}"
    if threads > 1:
        return f"1x{rows}x{whole}x{min(channels // threads, DEPTHWISE_CHANNEL_BLOCK)}"
    return f"1x{whole}x{whole}x{channels}"


@pytest.mark.parametrize(
    ("size", "stride", "channels"),
    [(56, 1, 40), (28, 1, 72), (30, 1, 40), (28, 2, 40), (7, 1, 64), (14, 2, 64), (10, 1, 40)],
)
def test_a_depthwise_convs_padded_input_is_written_in_parts(
    size: int, stride: int, channels: int, tmp_path: Path
) -> None:
    """A depthwise conv with an epilogue writes its padded input in blocks of
    the rows that DEPTHWISE_PAD_BLOCK output rows read, inside each thread's
    rows, where each thread has that many rows (and, where the conv has fewer
    than DEPTHWISE_CHANNEL_BLOCK_ROWS output rows, of DEPTHWISE_CHANNEL_BLOCK
    channels, the last block narrower where it does not divide the channels:
    72 = 64 + 8; a last block of fewer rows where DEPTHWISE_PAD_BLOCK does not
    divide them: 30 = 4 x 7 + 2); on several threads with fewer rows, the
    threads split the channels, each padding its channels' input by blocks of
    DEPTHWISE_CHANNEL_BLOCK;
    else it is one pass before the conv. It computes as numpy does on one
    thread and on two, and leaves no linalg op."""
    text = _padded_depthwise_module(size, channels, stride)
    whole = size + 3 - stride
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, size, size, channels), dtype=np.float32)
    w = rng.standard_normal((3, 3, channels), dtype=np.float32)
    b = rng.standard_normal(channels, dtype=np.float32)
    padded = np.pad(x, [(0, 0), (1, 2 - stride), (1, 2 - stride), (0, 0)]).astype(np.float64)
    out = size // stride
    sums = np.broadcast_to(b, (1, out, out, channels)).astype(np.float64)
    for i in range(3):
        for j in range(3):
            window = padded[:, i : i + stride * (out - 1) + 1 : stride]
            sums = sums + window[:, :, j : j + stride * (out - 1) + 1 : stride] * w[i, j]
    expected = np.clip(sums, 0.0, 6.0)
    for threads in (1, 2):
        scheduled = _scheduled(text, "schedule", vectorize(threads))
        written = _padded_input_written(size, stride, channels, threads)
        assert f"tensor.empty() : tensor<{written}xf32>" in scheduled, scheduled
        assert "linalg." not in scheduled, scheduled
        if written != f"1x{whole}x{whole}x{channels}":
            assert f"tensor<1x{whole}x{whole}x{channels}xf32>" not in scheduled, scheduled
        library = tmp_path / f"depthwise{threads}.so"
        llvm = build.lower_to_llvm_dialect(text, stages(vectorize(threads)), vectorize(threads))
        build.compile_library(build.translate_to_llvm_ir(llvm), library, openmp=threads > 1)
        signature = Signature.of(program_from_mlir(text, function="depthwise"))
        result = CompiledModel(library, signature, [])(x, w, b)[0]
        np.testing.assert_allclose(result, expected, rtol=0, atol=1e-5)


EXPANDED_DEPTHWISE = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 56, 56, 4), float32]) {
  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(1, 1, 4, 8), float32] */,
    padding=[0, 0, 0, 0], channels=8,
    kernel_size=[1, 1], data_layout="NHWC", kernel_layout="HWIO");
  %1 = clip(%0, a_min=0f, a_max=6f);
  %2 = nn.conv2d(%1, meta[relay.Constant][1] /* ty=Tensor[(3, 3, 8, 1), float32] */,
    padding=[1, 1, 1, 1], groups=8, channels=8,
    kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWOI");
  clip(%2, a_min=0f, a_max=6f)
}
"""
"""An expansion whose result a depthwise conv pads to 58 rows
(conversion/padded_results.py: the expansion returns it padded)."""
EXPANDED_CONV = EXPANDED_DEPTHWISE.replace("(3, 3, 8, 1)", "(3, 3, 8, 8)").replace(
    'groups=8, channels=8,\n    kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWOI"',
    'channels=8,\n    kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWIO"',
)
"""The same, a 3x3 conv instead of the depthwise one."""


def _written_in_place(
    tmp_path: Path, relay: str, x: np.ndarray, padded: str, unpadded: str, threads: int
) -> None:
    """`relay` 's groups, bufferized, hold the `padded` buffer, no `unpadded` one
    and no copy; built for 1 to `threads` threads, they compute the interpreter's
    outputs on `x`."""
    program = lower(parse_relay(relay), random_constants=0)
    bufferized = _scheduled(build.generic_text(program), "bufferize")
    assert padded in bufferized
    assert unpadded not in bufferized.split("func.func private")[1]
    assert "memref.copy" not in bufferized and "linalg.copy" not in bufferized
    (expected,) = run(parse_relay(relay), {"x": x}, random_constants=0)
    for count in range(1, threads + 1):
        library = tmp_path / f"padded-{count}.so"
        build.build(program, library, schedule=vectorize(count), cache=False)
        (output,) = CompiledModel.load(library)(x)
        np.testing.assert_allclose(output, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("relay", [EXPANDED_DEPTHWISE, EXPANDED_CONV], ids=["depthwise", "conv"])
def test_a_result_padded_where_it_is_made_is_written_in_place(tmp_path: Path, relay: str) -> None:
    """The expansion's epilogue writes inside the padded buffer, with no buffer
    of the unpadded result and no copy, and the outputs are the interpreter's on
    one thread and on two."""
    x = np.random.default_rng(3).standard_normal((1, 56, 56, 4), dtype=np.float32)
    padded = "memref.alloc() {alignment = 64 : i64} : memref<1x58x58x8xf32>"
    _written_in_place(tmp_path, relay, x, padded, "memref<1x56x56x8xf32>", threads=2)


NCHW_STEM = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 64, 64), float32]) {
  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 3, 7, 7), float32] */,
    strides=[2, 2], padding=[3, 3, 3, 3], channels=8, kernel_size=[7, 7]);
  nn.relu(%0)
}
"""
"""A CNN's stem on an NCHW image: the conv's input transposed to NHWC, then
padded to 69 rows (conversion/padded_results.py: the transpose writes it padded)."""


def test_a_transpose_that_a_conv_pads_is_written_inside_the_padded_buffer(tmp_path: Path) -> None:
    """No buffer of the unpadded NHWC image and no copy into the padded one; the
    outputs are the interpreter's."""
    x = np.random.default_rng(5).standard_normal((1, 3, 64, 64), dtype=np.float32)
    padded, unpadded = "memref<1x69x69x3xf32>", "memref<1x64x64x3xf32>"
    _written_in_place(tmp_path, NCHW_STEM, x, padded, unpadded, threads=1)


def _pointwise(epilogue: str) -> str:
    """Relay: a 1x1 conv of 14x14 NHWC pixels from 40 channels to 64 by known
    filters (a `packed_conv2d` reading its input in place), its bias added,
    then `epilogue` of ``%1`` (the conv and bias) and ``%x``."""
    return f"""#[version = "0.0.5"]
def @main(%x: Tensor[(1, 14, 14, 64), float32], %y: Tensor[(1, 14, 14, 40), float32]) {{
  %0 = nn.conv2d(%y, meta[relay.Constant][0] /* ty=Tensor[(1, 1, 40, 64), float32] */,
    padding=[0, 0, 0, 0], channels=64, kernel_size=[1, 1], data_layout="NHWC", kernel_layout="HWIO");
  %1 = nn.bias_add(%0, meta[relay.Constant][1] /* ty=Tensor[(64), float32] */, axis=3);
  {epilogue}
}}
"""


@pytest.mark.parametrize(
    "epilogue",
    ["clip(%1, a_min=0f, a_max=6f)", "add(%x, %1)"],
    ids=["clamp", "residual-second"],
)
def test_a_packed_convs_epilogue_runs_in_its_tiles(tmp_path: Path, epilogue: str) -> None:
    """The conv's tiles start from its bias and go through its epilogue (a
    clamp, or a residual added as ``add(x, conv)``) before they are stored:
    rows, 7-pixel tiles, then the panels (on two threads, a forall of one
    part of the panels each), each tile summing the channels in steps of 4
    from the bias broadcast; its epilogue once, after them, and no pass over
    the output of its own; the outputs are the interpreter's on one thread
    and on two."""
    relay = _pointwise(epilogue)
    program = lower(parse_relay(relay), random_constants=0)
    operation = "arith.maximumf" if epilogue.startswith("clip") else "arith.addf"
    for threads in (1, 2):
        scheduled = _scheduled(build.generic_text(program), "schedule", vectorize(threads))
        assert "linalg." not in scheduled, scheduled
        nest = [
            *([r"scf\.forall \(%\w+\) in \(2\)"] if threads == 2 else []),
            r"scf\.for %\w+ = %c0 to %c14 step %c1 ",
            r"scf\.for %\w+ = %c0 to %c14 step %c7 ",
            *([r"scf\.for %\w+ = %c0 to %c2 step %c1 "] if threads == 1 else []),
            r"vector\.broadcast %\w+ : vector<32xf32> to vector<7x1x32xf32>",
            r"scf\.for %\w+ = %c0 to %c40 step %c4 iter_args\(.*\) -> \(vector<7x32xf32>\)",
            rf"{operation} %\w+, %\w+ : vector<32xf32>",
        ]
        at = 0
        for line in nest:
            found = re.compile(line).search(scheduled, at)
            assert found is not None, (line, scheduled)
            at = found.end()
        assert scheduled.count(operation) == 1, scheduled
        assert ("scf.forall" in scheduled) == (threads == 2), scheduled
    rng = np.random.default_rng(4)
    inputs = {
        "x": rng.standard_normal((1, 14, 14, 64), dtype=np.float32),
        "y": rng.standard_normal((1, 14, 14, 40), dtype=np.float32),
    }
    (expected,) = run(parse_relay(relay), inputs, random_constants=0)
    for threads in (1, 2):
        library = tmp_path / f"pointwise-{threads}.so"
        build.build(program, library, schedule=vectorize(threads), cache=False)
        (output,) = CompiledModel.load(library).run(inputs)
        np.testing.assert_allclose(output, expected, rtol=1e-5, atol=1e-5)
