"""linalg operations on tensors, for what TOSA expresses badly.

``convert-relay-to-linalg`` writes these where TOSA needs many operations
for one Relay call. They are xDSL's own ``linalg``, ``tensor`` and
``arith`` operations, printed generically like the rest (xDSL's custom
printer is not what upstream reads), and they sit beside TOSA in the same
function: upstream's ``tosa-to-linalg`` leaves them as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnregisteredOp,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import ConvOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp, GenericOp, IndexOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition

from relay_xdsl.conversion.tosa import TosaBuilder


def zeros(emit: TosaBuilder, type_: TensorType) -> SSAValue:
    """A tensor of `type_` filled with zeros."""
    return filled(emit, type_, 0)


def filled(emit: TosaBuilder, type_: TensorType, number: float) -> SSAValue:
    """A tensor of `type_` filled with `number`: ``tensor.empty`` and ``linalg.fill``."""
    element: Any = type_.get_element_type()
    value = (
        IntegerAttr(int(number), element)
        if isinstance(element, IntegerType)
        else FloatAttr(number, element)
    )
    constant = arith.ConstantOp(value)
    empty = tensor.EmptyOp([], type_)
    fill = FillOp([constant.result], [empty.tensor])
    for op in (constant, empty, fill):
        emit.block.add_op(op)
    return fill.results[0]


def initial_sums(emit: TosaBuilder, bias: SSAValue | None, type_: TensorType) -> SSAValue:
    """A convolution's result of `type_` before any product is summed in: the
    `bias` (shaped as the trailing axes of `type_`) repeated along the leading
    ones (``linalg.broadcast``), or zeros without a bias."""
    if bias is None:
        return zeros(emit, type_)
    missing = type_.get_num_dims() - bias.type.get_num_dims()  # type: ignore[attr-defined]
    empty = tensor.EmptyOp([], type_)
    broadcast = BroadcastOp(bias, empty.tensor, DenseArrayBase.from_list(i64, list(range(missing))))
    emit.block.add_op(empty)
    emit.block.add_op(broadcast)
    return broadcast.results[0]


def zero_padded(emit: TosaBuilder, data: SSAValue, pads: Sequence[int]) -> SSAValue:
    """`data` with zeros around it, by `pads` ((before, after) per axis): a
    ``linalg.generic`` of no inputs over the padded tensor, each element the
    one of `data` it covers (``tensor.extract`` at indices clamped into
    `data`), or zero outside. It writes each element once, where ``tosa.pad``
    fills the padded tensor, then copies `data` into it (mobilenet_v2's 12 MB
    of padding a call, before its depthwise convs); vectorised, a tile of
    channels is one contiguous read and a select."""
    type_ = data.type
    assert isinstance(type_, TensorType)
    if not any(pads):
        return data
    element: Any = type_.get_element_type()
    shape = type_.get_shape()
    rank = len(shape)
    result_type = TensorType(
        element, [n + pads[2 * i] + pads[2 * i + 1] for i, n in enumerate(shape)]
    )
    body = Block(arg_types=[element])
    ops: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    def index(value: int) -> SSAValue:
        return add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    zero, first = add(arith.ConstantOp(FloatAttr(0, element))), index(0)
    indices, inside = [], None
    for axis in range(rank):
        at = add(IndexOp(axis))
        before, size = pads[2 * axis], shape[axis]
        if not before and not pads[2 * axis + 1]:
            indices.append(at)
            continue
        source = add(arith.SubiOp(at, index(before))) if before else at
        within = add(
            arith.AndIOp(
                add(arith.CmpiOp(source, first, "sge")),
                add(arith.CmpiOp(source, index(size), "slt")),
            )
        )
        inside = within if inside is None else add(arith.AndIOp(inside, within))
        clamped = add(arith.MinSIOp(add(arith.MaxSIOp(source, first)), index(size - 1)))
        indices.append(clamped)
    assert inside is not None
    value = add(tensor.ExtractOp(data, indices, element))
    add(arith.SelectOp(inside, value, zero))
    body.add_ops([*ops, YieldOp(ops[-1].results[0])])
    empty = tensor.EmptyOp([], result_type)
    generic = GenericOp(
        [],
        [empty.tensor],
        Region([body]),
        [AffineMapAttr(AffineMap.identity(rank))],
        [IteratorTypeAttr.parallel()] * rank,
        [result_type],
    )
    emit.block.add_op(empty)
    emit.block.add_op(generic)
    return generic.results[0]


def zero_padding(op: Operation) -> tuple[SSAValue, list[int]] | None:
    """The data and the pads ((before, after) per axis) of an op that
    `zero_padded` wrote, or None for any other op."""
    if not isinstance(op, GenericOp) or op.inputs or len(op.outputs) != 1:
        return None
    body = op.body.block
    extracts = [inner for inner in body.ops if isinstance(inner, tensor.ExtractOp)]
    if len(extracts) != 1 or not isinstance(body.last_op, YieldOp):
        return None
    data = extracts[0].tensor
    if data.owner is body or (isinstance(data.owner, Operation) and op.is_ancestor(data.owner)):
        return None
    padded = op.results[0].type
    assert isinstance(padded, TensorType) and isinstance(data.type, TensorType)
    pads = []
    for axis, (size, whole) in enumerate(zip(data.type.get_shape(), padded.get_shape())):
        index = next(
            (i for i in body.ops if isinstance(i, IndexOp) and i.dim.value.data == axis), None
        )
        if index is None:
            return None
        before = 0
        for use in index.result.uses:
            if isinstance(use.operation, arith.SubiOp) and use.index == 0:
                amount = use.operation.rhs.owner
                if not isinstance(amount, arith.ConstantOp) or not isinstance(
                    amount.value, IntegerAttr
                ):
                    return None
                before = amount.value.value.data
        pads += [before, whole - size - before]
    return data, pads


def integer_max_pool2d(
    emit: TosaBuilder,
    data: SSAValue,
    kernel: Sequence[int],
    strides: Sequence[int],
    lowest: int,
    result_type: TensorType,
) -> SSAValue:
    """The windowed maximum of NHWC integer `data` (already padded so that the
    windows give exactly the result's size) as a ``linalg.generic``: TOSA's
    ``max_pool2d`` takes no integers but i8. The loops are ``(n, oh, ow, c, kh,
    kw)``; a ``kh × kw`` operand gives the window loops their bounds."""
    element = result_type.get_element_type()
    window = zeros(emit, TensorType(element, list(kernel)))
    init = filled(emit, result_type, lowest)
    n, oh, ow, c, kh, kw = (AffineExpr.dimension(i) for i in range(6))
    maps = [
        AffineMap(6, 0, (n, oh * strides[0] + kh, ow * strides[1] + kw, c)),
        AffineMap(6, 0, (kh, kw)),
        AffineMap(6, 0, (n, oh, ow, c)),
    ]
    body = Block(arg_types=[element, element, element])
    value, _, accumulated = body.args
    maximum = arith.MaxSIOp(value, accumulated)
    body.add_ops([maximum, YieldOp(maximum.result)])
    parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
    generic = GenericOp(
        [data, window],
        [init],
        Region([body]),
        [AffineMapAttr(m) for m in maps],
        [parallel] * 4 + [reduction] * 2,
        [result_type],
    )
    emit.block.add_op(generic)
    return generic.results[0]


def scalar_op(name: str, operands: Sequence[SSAValue], result_type: Attribute) -> Operation:
    """An upstream operation on scalars that xDSL lacks (``arith.remf``), by name."""
    return UnregisteredOp.with_name(name).create(operands=operands, result_types=[result_type])


Scalar = Callable[[Sequence[SSAValue]], Sequence[Operation]]
"""The body of an elementwise computation: given the operands' elements, the
operations computing the result's, the last one's result being it."""


def elementwise(
    emit: TosaBuilder, operands: Sequence[SSAValue], result_type: TensorType, compute: Scalar
) -> SSAValue:
    """``linalg.generic`` computing `result_type` element by element with
    `compute`; the `operands` have its rank and broadcast where their extent is one."""
    rank = result_type.get_num_dims()
    shape = result_type.get_shape()
    maps = []
    for operand in operands:
        extents = operand.type.get_shape()  # type: ignore[attr-defined]
        maps.append(
            AffineMap(
                rank,
                0,
                tuple(
                    AffineExpr.constant(0) if n == 1 and m != 1 else AffineExpr.dimension(i)
                    for i, (n, m) in enumerate(zip(extents, shape))
                ),
            )
        )
    maps.append(AffineMap.identity(rank))
    element = result_type.get_element_type()
    body = Block(
        arg_types=[o.type.get_element_type() for o in operands] + [element]  # type: ignore[attr-defined]
    )
    ops = list(compute(body.args[: len(operands)]))
    body.add_ops([*ops, YieldOp(ops[-1].results[0])])
    empty = tensor.EmptyOp([], result_type)
    generic = GenericOp(
        list(operands),
        [empty.tensor],
        Region([body]),
        [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr.parallel()] * rank,
        [result_type],
    )
    emit.block.add_op(empty)
    emit.block.add_op(generic)
    return generic.results[0]


def multiply_accumulate(element: Attribute) -> Region:
    """The body ``out + a * b`` of a product summed into its output, the sum
    in upstream's operand order (IREE vectorises the reversed order ~2x slower)."""
    body = Block(arg_types=[element, element, element])
    a, b, acc = body.args
    product: Operation
    total: Operation
    if isinstance(element, IntegerType):
        product = arith.MuliOp(a, b)
        total = arith.AddiOp(acc, product.results[0])
    else:
        product = arith.MulfOp(a, b)
        total = arith.AddfOp(acc, product.results[0])
    body.add_ops([product, total, YieldOp(total.results[0])])
    return Region([body])


def grouped_conv2d(
    emit: TosaBuilder,
    data: SSAValue,
    weight: SSAValue,
    strides: Sequence[int],
    dilation: Sequence[int],
    bias: SSAValue | None,
    result_type: TensorType,
) -> SSAValue:
    """A grouped convolution as one ``linalg.generic`` over all groups.

    `data` is NHWC, already padded so that the windows give exactly the
    result's size; `weight` is ``[G, KH, KW, C/G, O/G]``; the sums start
    from the `bias` (``[O]``, or zeros); the result is
    NHWC (`result_type`). The channels are split into groups by reshapes,
    which move no data: the loops are ``(n, oh, ow, g, kh, kw, c, o)``, the
    output channel innermost, where the weight and the output are contiguous.
    """
    n, h, w, _ = data.type.get_shape()  # type: ignore[attr-defined]
    groups, _, _, per_group_in, per_group_out = weight.type.get_shape()  # type: ignore[attr-defined]
    element = result_type.get_element_type()
    grouped = emit.reshape(data, [n, h, w, groups, per_group_in])
    out_h, out_w = result_type.get_shape()[1:3]
    per_group_bias = emit.reshape(bias, [groups, per_group_out]) if bias is not None else None
    init = initial_sums(
        emit, per_group_bias, TensorType(element, [n, out_h, out_w, groups, per_group_out])
    )
    d = [AffineExpr.dimension(i) for i in range(8)]
    bn, boh, bow, bg, bkh, bkw, bc, bo = d
    maps = [
        AffineMap(
            8,
            0,
            (
                bn,
                boh * strides[0] + bkh * dilation[0],
                bow * strides[1] + bkw * dilation[1],
                bg,
                bc,
            ),
        ),
        AffineMap(8, 0, (bg, bkh, bkw, bc, bo)),
        AffineMap(8, 0, (bn, boh, bow, bg, bo)),
    ]
    parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
    iterators = [parallel] * 4 + [reduction] * 3 + [parallel]
    generic = GenericOp(
        [grouped, weight],
        [init],
        multiply_accumulate(element),
        [AffineMapAttr(m) for m in maps],
        iterators,
        [init.type],
    )
    emit.block.add_op(generic)
    return emit.reshape(generic.results[0], result_type.get_shape())


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(ConvOperation):
    """Upstream's ``linalg.depthwise_conv_2d_nhwc_hwc`` (xDSL has no depthwise
    convolution): loops ``(n, oh, ow, c, kh, kw)``, one ``[KH, KW]`` filter per
    channel."""

    name = "linalg.depthwise_conv_2d_nhwc_hwc"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return multiply_accumulate(outputs[0].type.get_element_type())  # type: ignore[attr-defined]

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = (AffineExpr.dimension(i) for i in range(6))
        stride_h, stride_w = self.strides.get_values()
        dilation_h, dilation_w = self.dilations.get_values()
        return (
            AffineMap(
                6, 0, (n, oh * stride_h + kh * dilation_h, ow * stride_w + kw * dilation_w, c)
            ),
            AffineMap(6, 0, (kh, kw, c)),
            AffineMap(6, 0, (n, oh, ow, c)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr([parallel] * 4 + [reduction] * 2)


def depthwise_conv2d(
    emit: TosaBuilder,
    data: SSAValue,
    weight: SSAValue,
    strides: Sequence[int],
    dilation: Sequence[int],
    bias: SSAValue | None,
    result_type: TensorType,
) -> SSAValue:
    """The depthwise convolution of NHWC `data` (already padded so that the
    windows give exactly the result's size) by a ``[KH, KW, C]`` `weight`,
    its sums starting from the `bias` (``[C]``, or zeros), to NHWC
    `result_type`. Upstream vectorises this form for any stride and dilation;
    TOSA's lowering gives ``[KH, KW, C, 1]`` filters
    (``depthwise_conv_2d_nhwc_hwcm``), which it does not, and a pass of its
    own adding the bias."""
    init = initial_sums(emit, bias, result_type)
    conv = DepthwiseConv2DNhwcHwcOp(
        [data, weight],
        [init],
        [init.type],
        strides=DenseIntElementsAttr.from_list(TensorType(i64, [2]), list(strides)),
        dilations=DenseIntElementsAttr.from_list(TensorType(i64, [2]), list(dilation)),
    )
    emit.block.add_op(conv)
    return conv.results[0]
