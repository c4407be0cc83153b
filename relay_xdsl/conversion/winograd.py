"""A 3×3 convolution of stride one by a known filter, as Winograd's F(2×2, 3×3).

Each 2×2 block of output pixels ``(2ty + u, 2tx + v)`` of a channel is ``Aᵀ
[(G g Gᵀ) ⊙ (Bᵀ d B)] A`` (Lavin and Gray, "Fast Algorithms for Convolutional
Neural Networks", 2016), ``d`` the 4×4 window of the padded input at ``(2ty,
2tx)``, ``g`` the 3×3 filter. Summed over the input channels, the 16 elementwise
products become 16 products of matrices: ``M[ab] = V[ab] @ U[ab]``, ``V[ab]``
``[tiles, C]`` the transformed windows, ``U[ab]`` ``[C, F]`` the transformed
filter. They take 16 multiply-adds for 4 output pixels a channel and filter,
where the convolution takes 36: the products are 2.25 times fewer, at the cost
of two passes (the windows' transform before, the outputs' after) of additions
only. ``B``, ``G`` and ``A`` hold 0, ±1 and ½, so the sums differ from the
direct convolution's by rounding only.

`winograd_conv2d` writes:

* the padded input's 16 strided views ``d[i][j]`` ``[N, TH, 1, TW, C]`` (row
  ``2ty + i``, column ``2tx + j``: a slice of the input seen as blocks of 2×2
  pixels, no copy);
* 16 ``linalg.generic`` s, ``V[ab]`` of ``Bᵀ d B``, each the sum of 4 windows
  (signs ±1), written into one ``V`` ``[16·N, TH, 1, TW, C]`` (`input_transform`);
* one product of 16 batches on panels packed when compiling (packed_matmul.py's
  `batched_packed_matmul`), ``V`` seen as ``[16, N·TH·TW, C]`` by the 16
  ``U[ab]`` side by side: a compiled product's code, not 16 (resnet18's build
  took three times as long with 16);
* one ``linalg.generic`` over ``[N, TH, 2, TW, 2, F]`` (the output seen as
  blocks of 2×2 pixels, a reshape) from the 16 ``M[ab]``, ``Aᵀ M A`` plus the
  bias (`output_transform`), each pixel's coefficients ``Aᵀ[u]`` and ``Aᵀ[v]``
  read from constants by its ``u`` and ``v``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType, UnitAttr, f32
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from relay_xdsl.conversion.packed_matmul import batched_packed_matmul, pack_panels
from relay_xdsl.conversion.padded_results import IN_PLACE
from relay_xdsl.conversion.tosa import TosaBuilder

TILE = 4
"""The input window of one 2×2 block of outputs: 2 + 3 - 1."""
INPUT_TRANSFORM = ((1, 0, -1, 0), (0, 1, 1, 0), (0, -1, 1, 0), (0, 1, 0, -1))
"""``Bᵀ``."""
FILTER_TRANSFORM = ((1, 0, 0), (0.5, 0.5, 0.5), (0.5, -0.5, 0.5), (0, 0, 1))
"""``G``."""
OUTPUT_TRANSFORM = ((1, 1, 1, 0), (0, 1, -1, -1))
"""``Aᵀ``."""


def winograd_filters(hwio: np.ndarray) -> np.ndarray:
    """The 3×3 filter `hwio` ``[3, 3, C, F]`` transformed, ``G g Gᵀ``: 16
    matrices ``U[ab]`` ``[C, F]``, in the order ``a * 4 + b``, each packed
    into panels (`pack_panels`), side by side: ``[16, P, C, PANEL]``, one
    argument of the compiled model (a model's arguments are few: ctypes calls
    take at most 1024)."""
    g = np.asarray(FILTER_TRANSFORM, dtype=np.float64)
    transformed = np.einsum("ai,ijcf,bj->abcf", g, hwio.astype(np.float64), g)
    return np.stack(
        [
            pack_panels(transformed[a, b].astype(np.float32))
            for a in range(TILE)
            for b in range(TILE)
        ]
    )


def winograd_conv2d(
    emit: TosaBuilder,
    padded: SSAValue,
    packed: SSAValue,
    filters: int,
    bias: SSAValue | None,
) -> SSAValue:
    """The 3×3 convolution of stride one of the NHWC `padded` input (``[N, 2·TH
    + 2, 2·TW + 2, C]``: padded, and further at the bottom and right to whole
    blocks) by the filter transformed and packed by `winograd_filters`
    (`packed`), plus `bias` ``[F]`` (None: none), to ``[N, 2·TH,
    2·TW, F]`` (see the module docstring)."""
    n, height, width, channels = padded.type.get_shape()  # type: ignore[attr-defined]
    rows, columns = (height - 2) // 2, (width - 2) // 2
    blocks = emit.reshape(padded, [n, height // 2, 2, width // 2, 2 * channels])
    # [N, TH, 1, TW, C], not reshaped to drop the unit dim: a reshape between
    # the transform's results and their inserts (which linalg-fuse-elementwise-ops
    # moves there) would keep bufferization from writing them in place
    windows = [
        emit.slice(
            blocks, [0, i // 2, i % 2, j // 2, (j % 2) * channels], [n, rows, 1, columns, channels]
        )
        for i in range(TILE)
        for j in range(TILE)
    ]
    transformed = input_transform(emit, windows)
    tiles = n * rows * columns
    sums = batched_packed_matmul(
        emit, emit.reshape(transformed, [TILE * TILE, tiles, channels]), packed, filters
    )
    blocks_of_sums = emit.reshape(sums, [TILE * TILE, n, rows, columns, filters])
    products = [
        emit.reshape(
            emit.slice(blocks_of_sums, [index, 0, 0, 0, 0], [1, n, rows, columns, filters]),
            [n, rows, columns, filters],
        )
        for index in range(TILE * TILE)
    ]
    out = output_transform(emit, products, bias)
    return emit.reshape(out, [n, 2 * rows, 2 * columns, filters])


def input_transform(emit: TosaBuilder, windows: Sequence[SSAValue]) -> SSAValue:
    """``Bᵀ d B`` of the 16 `windows` ``d[i][j]`` (in the order ``i * 4 + j``,
    each ``[N, ...]``): ``V`` ``[16·N, ...]``, ``V[ab]`` its rows ``ab·N`` to
    ``ab·N + N - 1``, the sum of the 4 windows whose coefficients
    ``Bᵀ[a][i]·Bᵀ[b][j]`` are not 0, each ±1. One ``linalg.generic`` for each,
    written into its slice of ``V`` and inserted back (marked `IN_PLACE`),
    which bufferization writes where it lies. (One generic of 16 results, which
    shares the sums of rows among them, is not written in place: bufferization
    takes its results' inserts into one tensor as conflicting writes, and
    copied 15 of them.)"""
    type_ = windows[0].type
    assert isinstance(type_, TensorType)
    n, *rest = type_.get_shape()
    rank = 1 + len(rest)
    identity = AffineMapAttr(AffineMap.identity(rank))
    whole = tensor.EmptyOp([], TensorType(f32, [TILE * TILE * n, *rest]))
    emit.block.add_op(whole)
    result: SSAValue = whole.tensor
    for a, b in itertools.product(range(TILE), repeat=2):
        coefficients = [
            (windows[i * TILE + j], INPUT_TRANSFORM[a][i] * INPUT_TRANSFORM[b][j])
            for i, j in itertools.product(range(TILE), repeat=2)
        ]
        # those added first: the sum starts from one
        terms = sorted(((w, c) for w, c in coefficients if c), key=lambda term: term[1] < 0)
        offset = [(a * TILE + b) * n] + [0] * len(rest)
        part = tensor.ExtractSliceOp.from_static_parameters(result, offset, [n, *rest])
        body = Block(arg_types=[f32] * (len(terms) + 1))
        total, ops = _signed_sum(list(zip(body.args, (sign for _, sign in terms))))
        body.add_ops([*ops, YieldOp(total)])
        generic = GenericOp(
            [window for window, _ in terms],
            [part.result],
            Region([body]),
            [identity] * (len(terms) + 1),
            [IteratorTypeAttr.parallel()] * rank,
            [type_],
        )
        insert = tensor.InsertSliceOp.from_static_parameters(
            generic.results[0], result, offset, [n, *rest]
        )
        insert.attributes[IN_PLACE] = UnitAttr()
        for op in (part, generic, insert):
            emit.block.add_op(op)
        result = insert.result
    return result


def _signed_sum(terms: Sequence[tuple[SSAValue, int]]) -> tuple[SSAValue, list[Operation]]:
    """``Σ sign·x`` of `terms` (each sign ±1, the first +1), and its ops."""
    (total, first), *others = terms
    assert first == 1
    ops: list[Operation] = []
    for value, sign in others:
        op = arith.AddfOp(total, value) if sign > 0 else arith.SubfOp(total, value)
        ops.append(op)
        total = op.result
    return total, ops


def output_transform(
    emit: TosaBuilder, products: Sequence[SSAValue], bias: SSAValue | None
) -> SSAValue:
    """``Aᵀ M A`` (plus `bias`) of the 16 `products` ``M[ab]`` ``[N, TH, TW,
    F]``: ``[N, TH, 2, TW, 2, F]``, one ``linalg.generic`` of loops ``(n, ty,
    u, tx, v, f)``."""
    n, rows, columns, filters = products[0].type.get_shape()  # type: ignore[attr-defined]
    result = TensorType(f32, [n, rows, 2, columns, 2, filters])
    image, ty, u, tx, v, f = (AffineExpr.dimension(i) for i in range(6))
    # Aᵀ[u][a] for u = 0, 1: a [2] constant for each a, read at u (and at v)
    coefficients = [
        emit.const(np.array([row[a] for row in OUTPUT_TRANSFORM], dtype=np.float32), f32)
        for a in range(TILE)
    ]
    inputs = [*products, *coefficients, *coefficients]
    maps: list[tuple[AffineExpr, ...]] = [(image, ty, tx, f)] * len(products)
    maps += [(u,)] * TILE + [(v,)] * TILE
    if bias is not None:
        inputs.append(bias)
        maps.append((f,))
    maps.append((image, ty, u, tx, v, f))
    body = Block(arg_types=[f32] * (len(inputs) + 1))
    m = body.args[: len(products)]
    by_u = body.args[len(products) : len(products) + TILE]
    by_v = body.args[len(products) + TILE : len(products) + 2 * TILE]
    ops: list[Operation] = []

    def weighted_sum(terms: Sequence[SSAValue], weights: Sequence[SSAValue]) -> SSAValue:
        total: SSAValue | None = None
        for term, weight in zip(terms, weights, strict=True):
            product = arith.MulfOp(term, weight)
            ops.append(product)
            if total is None:
                total = product.result
                continue
            summed = arith.AddfOp(total, product.result)
            ops.append(summed)
            total = summed.result
        assert total is not None
        return total

    # Aᵀ[u] M, column by column, then by Aᵀ[v]
    by_columns = [weighted_sum([m[a * TILE + b] for a in range(TILE)], by_u) for b in range(TILE)]
    out = weighted_sum(by_columns, by_v)
    if bias is not None:
        biased = arith.AddfOp(out, body.args[len(inputs) - 1])
        ops.append(biased)
        out = biased.result
    body.add_ops([*ops, YieldOp(out)])
    empty = tensor.EmptyOp([], result)
    generic = GenericOp(
        inputs,
        [empty.tensor],
        Region([body]),
        [AffineMapAttr(AffineMap(6, 0, exprs)) for exprs in maps],
        [IteratorTypeAttr.parallel()] * 6,
        [result],
    )
    emit.block.add_op(empty)
    emit.block.add_op(generic)
    return generic.results[0]
