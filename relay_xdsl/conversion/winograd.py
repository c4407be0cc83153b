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

* the padded input's 16 strided views ``d[i][j]`` (row ``2ty + i``, column
  ``2tx + j``: a slice of the input seen as blocks of 2×2 pixels, no copy);
* one ``linalg.generic`` of 16 inputs and 16 outputs ``V[ab]`` ``[N, TH, TW,
  C]``, ``Bᵀ d B`` by additions (`input_transform`);
* 16 products on panels packed when compiling (packed_matmul.py), each
  ``V[ab]`` seen as ``[N·TH·TW, C]`` by its ``U[ab]``, a slice of one weight;
* one ``linalg.generic`` over ``[N, TH, 2, TW, 2, F]`` (the output seen as
  blocks of 2×2 pixels, a reshape) from the 16 ``M[ab]``, ``Aᵀ M A`` plus the
  bias (`output_transform`), each pixel's coefficients ``Aᵀ[u]`` and ``Aᵀ[v]``
  read from constants by its ``u`` and ``v``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType, f32
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from relay_xdsl.conversion.packed_matmul import pack_panels, packed_matmul
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
    windows = [
        emit.reshape(
            emit.slice(
                blocks,
                [0, i // 2, i % 2, j // 2, (j % 2) * channels],
                [n, rows, 1, columns, channels],
            ),
            [n, rows, columns, channels],
        )
        for i in range(TILE)
        for j in range(TILE)
    ]
    transformed = input_transform(emit, windows)
    tiles = n * rows * columns
    _, panels, _, width = packed.type.get_shape()  # type: ignore[attr-defined]
    products = []
    for index, v in enumerate(transformed):
        weight = emit.reshape(
            emit.slice(packed, [index, 0, 0, 0], [1, panels, channels, width]),
            [panels, channels, width],
        )
        product = packed_matmul(emit, emit.reshape(v, [tiles, channels]), weight, filters)
        products.append(emit.reshape(product, [n, rows, columns, filters]))
    out = output_transform(emit, products, bias)
    return emit.reshape(out, [n, 2 * rows, 2 * columns, filters])


def _transformed(values: Sequence[SSAValue], ops: list[Operation]) -> list[SSAValue]:
    """``Bᵀ x`` of the four `values`, its additions appended to `ops`."""
    x0, x1, x2, x3 = values
    made = [
        arith.SubfOp(x0, x2),
        arith.AddfOp(x1, x2),
        arith.SubfOp(x2, x1),
        arith.SubfOp(x1, x3),
    ]
    ops += made
    return [op.results[0] for op in made]


def input_transform(emit: TosaBuilder, windows: Sequence[SSAValue]) -> list[SSAValue]:
    """``Bᵀ d B`` of the 16 `windows` ``d[i][j]`` (in the order ``i * 4 + j``):
    16 tensors ``V[ab]`` of their shape, one ``linalg.generic``."""
    type_ = windows[0].type
    rank = type_.get_num_dims()  # type: ignore[attr-defined]
    body = Block(arg_types=[f32] * (2 * len(windows)))
    d = body.args[: len(windows)]
    ops: list[Operation] = []
    # the rows' transform, then the columns'
    by_rows = [_transformed([d[i * TILE + j] for i in range(TILE)], ops) for j in range(TILE)]
    by_columns = [_transformed([by_rows[j][a] for j in range(TILE)], ops) for a in range(TILE)]
    body.add_ops([*ops, YieldOp(*(v for row in by_columns for v in row))])
    empties = [tensor.EmptyOp([], type_) for _ in windows]
    identity = AffineMapAttr(AffineMap.identity(rank))
    generic = GenericOp(
        list(windows),
        [e.tensor for e in empties],
        Region([body]),
        [identity] * (2 * len(windows)),
        [IteratorTypeAttr.parallel()] * rank,
        [type_] * len(windows),
    )
    for op in (*empties, generic):
        emit.block.add_op(op)
    return list(generic.results)


def output_transform(
    emit: TosaBuilder, products: Sequence[SSAValue], bias: SSAValue | None
) -> SSAValue:
    """``Aᵀ M A`` (plus `bias`) of the 16 `products` ``M[ab]`` ``[N, TH, TW,
    F]``: ``[N, TH, 2, TW, 2, F]``, one ``linalg.generic`` of loops ``(n, ty,
    u, tx, v, f)``."""
    n, rows, columns, filters = products[0].type.get_shape()  # type: ignore[attr-defined]
    result = TensorType(f32, [n, rows, 2, columns, 2, filters])
    b, ty, u, tx, v, f = (AffineExpr.dimension(i) for i in range(6))
    coefficients = [
        emit.const(np.array([row[a] for row in OUTPUT_TRANSFORM], dtype=np.float32), f32)
        for a in range(TILE)
    ]
    inputs = [*products, *coefficients, *coefficients]
    maps: list[tuple[AffineExpr, ...]] = [(b, ty, tx, f)] * len(products)
    maps += [(u,)] * TILE + [(v,)] * TILE
    if bias is not None:
        inputs.append(bias)
        maps.append((f,))
    maps.append((b, ty, u, tx, v, f))
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
            else:
                ops.append(arith.AddfOp(total, product.result))
                total = ops[-1].results[0]
        assert total is not None
        return total

    columns_summed = [
        weighted_sum([m[a * TILE + c] for a in range(TILE)], by_u) for c in range(TILE)
    ]
    out = weighted_sum(columns_summed, by_v)
    if bias is not None:
        ops.append(arith.AddfOp(out, body.args[len(inputs) - 1]))
        out = ops[-1].results[0]
    body.add_ops([*ops, YieldOp(out)])
    empty = tensor.EmptyOp([], result)
    generic = GenericOp(
        inputs,
        [empty.tensor],
        Region([body]),
        [AffineMapAttr(AffineMap(6, 0, m_)) for m_ in maps],
        [IteratorTypeAttr.parallel()] * 6,
        [result],
    )
    emit.block.add_op(empty)
    emit.block.add_op(generic)
    return generic.results[0]
