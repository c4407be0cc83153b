"""A product by a known float32 matrix, read from panels packed when compiling.

``rows @ weight`` with `weight` ``[K, N]`` known is written as one
``linalg.generic`` on the weight packed into ``[P, K, PANEL]`` (`pack_panels`):
panel ``p`` holds columns ``p * PANEL`` to ``p * PANEL + PANEL - 1``, row by
row, the last one padded with zero columns to the full width. Its loops are
``(p, m, j, k)``: ``out[m, p, j] += rows[m, k] * packed[p, k, j]``, its result
``[M, P, PANEL]`` seen as ``[M, P * PANEL]`` by a reshape (no data moves) and
cut to the ``N`` columns by a slice. A bias added to the product (found by
rules/bias.py) is its initial sums, laid out as the panels and broadcast
along the rows, so that the compiled tiles start from it.

A convolution by a known filter is the same product with its rows' taps
read in place (`packed_conv2d`): one ``linalg.generic`` of loops ``(n, p, y,
x, j, kh, kw, c)``, ``out[n, y, x, p, j] += padded[n, y * sh + kh * dh, x *
sw + kw * dw, c] * packed[p, kh, kw, c, j]``, the packed weight seen as ``[P,
KH, KW, C, PANEL]`` by a reshape, so that each loop's extent is an operand's
dimension, and the padded input as ``[N, H / sh, sh, W / sw, sw * C]``, so
that a tap of a stride of two reads consecutive elements too.

The compiled schedule (relay_xdsl/compiler/schedule.py) reads a panel of the
right operand ``K`` rows of ``PANEL`` contiguous floats at a time; a panel
read in place from a ``[K, N]`` matrix has its rows ``N`` floats apart, and
copying it into that form on every call was about a third of a dense layer's
time. Packed here, the weight argument already is that form, once, when the
model is compiled.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr, TensorType, f32
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from relay_xdsl.conversion.linalg import initial_sums, multiply_accumulate
from relay_xdsl.conversion.tosa import TosaBuilder

PANEL = 32
"""The columns of a packed panel: the width of the compiled matmul's register tile."""


def pack_panels(weight: np.ndarray) -> np.ndarray:
    """`weight` ``[K, N]`` as ``[ceil(N / PANEL), K, PANEL]``: panel ``p`` is
    columns ``p * PANEL ...`` of every row, the last panel's missing columns zeros."""
    k, n = weight.shape
    panels = -(-n // PANEL)
    padded = np.zeros((k, panels * PANEL), dtype=weight.dtype)
    padded[:, :n] = weight
    return np.ascontiguousarray(padded.reshape(k, panels, PANEL).transpose(1, 0, 2))


def packed_matmul(
    emit: TosaBuilder, rows: SSAValue, packed: SSAValue, columns: int, bias: SSAValue | None = None
) -> SSAValue:
    """``rows @ weight + bias`` (``[M, columns]``), `rows` ``[M, K]`` float32,
    `packed` the weight's `pack_panels` (see the module docstring) and
    `bias` ``[columns]`` (None: zeros), which the sums start from."""
    m, _ = rows.type.get_shape()  # type: ignore[attr-defined]
    panels = packed.type.get_shape()[0]  # type: ignore[attr-defined]
    if bias is not None:
        # laid out as the panels, its padding columns zeros too
        bias = emit.reshape(emit.pad(bias, [0, panels * PANEL - columns]), [panels, PANEL])
    init = initial_sums(emit, bias, TensorType(f32, [m, panels, PANEL]))
    p, i, j, k = (AffineExpr.dimension(d) for d in range(4))
    maps = [AffineMap(4, 0, (i, k)), AffineMap(4, 0, (p, k, j)), AffineMap(4, 0, (i, p, j))]
    parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
    generic = GenericOp(
        [rows, packed],
        [init],
        multiply_accumulate(f32),
        [AffineMapAttr(a) for a in maps],
        [parallel, parallel, parallel, reduction],
        [init.type],
    )
    emit.block.add_op(generic)
    flat = emit.reshape(generic.results[0], [m, panels * PANEL])
    return emit.slice(flat, [0, 0], [m, columns])


def packed_conv2d(
    emit: TosaBuilder,
    padded: SSAValue,
    packed: SSAValue,
    filters: int,
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilation: tuple[int, int],
    output: tuple[int, int],
) -> SSAValue:
    """The 2-D convolution of the padded NHWC `padded` (its rows and columns
    multiples of `strides`) by a `kernel` (``KH, KW``) of `filters` filters
    packed as ``pack_panels(hwio.reshape(KH * KW * C, F))``, `strides` and
    `dilation` apart, into `output` rows and columns (see the module
    docstring): NHWC."""
    n, height, width, channels = padded.type.get_shape()  # type: ignore[attr-defined]
    panels = packed.type.get_shape()[0]  # type: ignore[attr-defined]
    kh_size, kw_size = kernel
    sh, sw = strides
    init = initial_sums(emit, None, TensorType(f32, [n, *output, panels, PANEL]))
    b, p, y, x, j, kh, kw, c = (AffineExpr.dimension(d) for d in range(8))
    # each row and column `stride` apart, by a reshape: every tap reads
    # consecutive pixels, a contiguous vector
    strided = emit.reshape(padded, [n, height // sh, sh, width // sw, sw * channels])
    row, column = kh * dilation[0], kw * dilation[1]
    read = (b, y + row // sh, row % sh, x + column // sw, (column % sw) * channels + c)
    taps = emit.reshape(packed, [panels, kh_size, kw_size, channels, PANEL])
    maps = [
        AffineMap(8, 0, read),
        AffineMap(8, 0, (p, kh, kw, c, j)),
        AffineMap(8, 0, (b, y, x, p, j)),
    ]
    parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
    generic = GenericOp(
        [strided, taps],
        [init],
        multiply_accumulate(f32),
        [AffineMapAttr(a) for a in maps],
        [parallel] * 5 + [reduction] * 3,
        [init.type],
    )
    emit.block.add_op(generic)
    flat = emit.reshape(generic.results[0], [n, *output, panels * PANEL])
    return emit.slice(flat, [0, 0, 0, 0], [n, *output, filters])
