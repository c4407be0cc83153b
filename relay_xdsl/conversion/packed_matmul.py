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

Several products, each by its own known matrix (Winograd's 16,
winograd.py), are one ``linalg.generic`` of loops ``(b, p, m, j, k)``
(`batched_packed_matmul`): ``out[b, m, p, j] += rows[b, m, k] * packed[b,
p, k, j]``, the weights packed side by side, ``[B, P, K, PANEL]``.

A convolution by a known filter is the same product with its rows' taps read
in place (`packed_conv2d`): one ``linalg.generic`` of loops ``(n, p, y, x,
j, kh, kw, c)`` on the padded input seen as blocks of the strides ``(sh,
sw)``, ``[N, H / sh, sh, W / sw, sw * C]`` (a reshape: no data moves),
``out[n, y, x, p, j] += blocks[n, y + kh * dh floordiv sh, kh * dh mod sh,
x + kw * dw floordiv sw, (kw * dw mod sw) * C + c] * packed[p, kh, kw, c,
j]`` (``y * sh + kh * dh`` is row ``kh * dh mod sh`` of block ``y + kh * dh
floordiv sh``), the packed weight seen as ``[P, KH, KW, C, PANEL]`` by a
reshape, so that each loop's extent is an operand's dimension; its bias, too,
is its initial sums, so that its epilogue (a clamp, a residual add) reads the
panels' layout through no broadcast, and the compiled schedule tiles the two
together.

The compiled schedule (relay_xdsl/compiler/schedule.py) reads a panel of the
right operand ``K`` rows of ``PANEL`` contiguous floats at a time; a panel
read in place from a ``[K, N]`` matrix has its rows ``N`` floats apart, and
copying it into that form on every call was about a third of a dense layer's
time. Packed here, the weight argument already is that form, once, when the
model is compiled.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    init = initial_sums(
        emit, _as_panels(emit, bias, panels, columns), TensorType(f32, [m, panels, PANEL])
    )
    p, i, j, k = (AffineExpr.dimension(d) for d in range(4))
    maps = [(i, k), (p, k, j), (i, p, j)]
    return _panels_summed(emit, [rows, packed], maps, 3, init, columns)


def _as_panels(
    emit: TosaBuilder, bias: SSAValue | None, panels: int, columns: int
) -> SSAValue | None:
    """`bias` ``[columns]`` laid out as `panels` panels, ``[panels, PANEL]``, its
    padding columns zeros too (None: None)."""
    if bias is None:
        return None
    return emit.reshape(emit.pad(bias, [0, panels * PANEL - columns]), [panels, PANEL])


def batched_packed_matmul(
    emit: TosaBuilder, rows: SSAValue, packed: SSAValue, columns: int
) -> SSAValue:
    """``rows[b] @ weight[b]`` for each batch ``b`` (``[B, M, columns]``),
    `rows` ``[B, M, K]`` float32 and `packed` ``[B, P, K, PANEL]``, each
    batch's weight packed by `pack_panels`: one ``linalg.generic`` of loops
    ``(b, p, m, j, k)``, summed from zeros."""
    batches, m, _ = rows.type.get_shape()  # type: ignore[attr-defined]
    panels = packed.type.get_shape()[1]  # type: ignore[attr-defined]
    init = initial_sums(emit, None, TensorType(f32, [batches, m, panels, PANEL]))
    b, p, i, j, k = (AffineExpr.dimension(d) for d in range(5))
    maps = [(b, i, k), (b, p, k, j), (b, i, p, j)]
    return _panels_summed(emit, [rows, packed], maps, 4, init, columns)


def _panels_summed(
    emit: TosaBuilder,
    inputs: list[SSAValue],
    maps: list[tuple[AffineExpr, ...]],
    parallel: int,
    init: SSAValue,
    columns: int,
) -> SSAValue:
    """The ``linalg.generic`` multiplying `inputs` (by their `maps`, of
    `parallel` parallel loops, then reductions) into `init` (``[..., P,
    PANEL]``), seen as ``[..., P * PANEL]`` and cut to `columns`."""
    dims = len({d for m in maps for e in m for d in e.used_dims()})
    iterators = [IteratorTypeAttr.parallel()] * parallel
    iterators += [IteratorTypeAttr.reduction()] * (dims - parallel)
    generic = GenericOp(
        inputs,
        [init],
        multiply_accumulate(f32),
        [AffineMapAttr(AffineMap(dims, 0, m)) for m in maps],
        iterators,
        [init.type],
    )
    emit.block.add_op(generic)
    *outer, panels, _ = init.type.get_shape()  # type: ignore[attr-defined]
    flat = emit.reshape(generic.results[0], [*outer, panels * PANEL])
    return emit.slice(flat, [0] * (len(outer) + 1), [*outer, columns])


def packed_conv2d(
    emit: TosaBuilder,
    blocks: SSAValue,
    packed: SSAValue,
    filters: int,
    kernel: tuple[int, int],
    strides: Sequence[int],
    dilation: Sequence[int],
    bias: SSAValue | None = None,
) -> SSAValue:
    """The 2-D convolution of an NHWC input, padded, seen as `blocks` of
    ``strides`` rows and columns (``[N, H / SH, SH, W / SW, SW * C]``), by a
    `kernel` (``KH, KW``) of `filters` filters packed as
    ``pack_panels(hwio.reshape(KH * KW * C, F))``, dilated by `dilation`
    (see the module docstring), plus `bias` ``[filters]`` (None: zeros),
    which the sums start from: NHWC."""
    b, p, y, x, j, kh, kw, c = (AffineExpr.dimension(d) for d in range(8))
    panels = packed.type.get_shape()[0]  # type: ignore[attr-defined]
    kh_size, kw_size = kernel
    sh, sw = strides
    n, rows, _, columns, width = blocks.type.get_shape()  # type: ignore[attr-defined]
    channels = width // sw
    output = (
        rows - (kh_size - 1) * dilation[0] // sh,
        columns - (kw_size - 1) * dilation[1] // sw,
    )
    init = initial_sums(
        emit, _as_panels(emit, bias, panels, filters), TensorType(f32, [n, *output, panels, PANEL])
    )
    taps = emit.reshape(packed, [panels, kh_size, kw_size, channels, PANEL])
    (row, row_in_block), (column, column_in_block) = (
        _in_blocks(tap * step, stride)
        for tap, step, stride in zip((kh, kw), dilation, strides, strict=True)
    )
    maps: list[tuple[AffineExpr, ...]] = [
        (b, y + row, row_in_block, x + column, column_in_block * channels + c),
        (p, kh, kw, c, j),
        (b, y, x, p, j),
    ]
    return _panels_summed(emit, [blocks, taps], maps, 5, init, filters)


def _in_blocks(offset: AffineExpr, stride: int) -> tuple[AffineExpr, AffineExpr]:
    """`offset` (rows or columns) as whole blocks of `stride` and the rest."""
    if stride == 1:
        return offset, AffineExpr.constant(0)
    return offset // stride, offset % stride
