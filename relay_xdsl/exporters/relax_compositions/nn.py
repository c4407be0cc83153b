"""Relax exports of the neural-network operators without a Relax counterpart:
dense layers, bias, pooling, normalization and data movement."""

from __future__ import annotations

from typing import Any

from tvm import te, tirx, topi
from tvm.relax import op as R

from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.exporters.relax_compositions.common import (
    call_of,
    constant_value,
    layout_axes,
    pad_pairs,
    rank,
    result_dtype,
    result_shape,
    scalar,
    static_shape,
)
from relay_xdsl.exporters.relax_compositions.registry import (
    ExportContext,
    RelaxExportError,
    relax_export,
)

# ---------------------------------------------------------------------------
# Dense layers
# ---------------------------------------------------------------------------


def _transposed(ctx: ExportContext, value: Any, value_rank: int) -> Any:
    """`value` with its last two axes swapped."""
    axes = [*range(value_rank - 2), value_rank - 1, value_rank - 2]
    return ctx.emit(R.permute_dims(value, axes))


def _matmul(
    ctx: ExportContext,
    op: RegisteredOperatorOp,
    args: list[Any],
    transpose_a: bool,
    transpose_b: bool,
) -> Any:
    """``matmul`` of the two arguments, either transposed first, in the result's dtype."""
    a, b = args
    if transpose_a:
        a = _transposed(ctx, a, rank(op, 0))
    if transpose_b:
        b = _transposed(ctx, b, rank(op, 1))
    return R.matmul(a, b, out_dtype=result_dtype(op))


@relax_export("nn.dense")
def dense(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``matmul(data, permute_dims(weight))``: the weight is (units, K)."""
    return _matmul(ctx, op, args, False, True)


@relax_export("nn.matmul", "nn.batch_matmul")
def matmul(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``matmul`` with the operands marked transposed permuted first."""
    call = call_of(op)
    return _matmul(ctx, op, args, bool(call.attr("transpose_a")), bool(call.attr("transpose_b")))


@relax_export("nn.bias_add")
def bias_add(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``add(data, reshape(bias))``, the bias shaped to broadcast along `axis`."""
    data, bias = args
    data_rank = rank(op)
    axis = call_of(op).integer("axis") % data_rank
    shape = [1] * data_rank
    shape[axis] = static_shape(op.args[1].type, op)[0]
    return R.add(data, ctx.emit(R.reshape(bias, shape)))


# ---------------------------------------------------------------------------
# Activations and pooling
# ---------------------------------------------------------------------------


@relax_export("nn.fast_softmax")
def fast_softmax(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``softmax``: the approximation computes the same function."""
    return R.nn.softmax(args[0], call_of(op).integer("axis"))


def _pool_layouts(op: RegisteredOperatorOp) -> tuple[str, str]:
    call = call_of(op)
    layout = str(call.attr("layout"))
    return layout, str(call.attr("out_layout")) or layout


@relax_export("nn.global_avg_pool2d")
def global_avg_pool2d(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``adaptive_avg_pool2d`` to 1x1."""
    layout, out_layout = _pool_layouts(op)
    return R.nn.adaptive_avg_pool2d(args[0], (1, 1), layout, out_layout)


@relax_export("nn.global_max_pool2d")
def global_max_pool2d(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``max`` over the H and W axes, kept."""
    layout, out_layout = _pool_layouts(op)
    if out_layout != layout:
        raise RelaxExportError(f"'nn.global_max_pool2d' from {layout} to {out_layout}")
    return R.max(args[0], layout_axes(layout, "HW"), keepdims=True)


@relax_export("nn.adaptive_max_pool2d", te=True)
def adaptive_max_pool2d(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``adaptive_pool`` (max) to the result's H and W."""
    layout, out_layout = _pool_layouts(op)
    if out_layout != layout:
        raise RelaxExportError(f"'nn.adaptive_max_pool2d' from {layout} to {out_layout}")
    shape = result_shape(op)
    size = [shape[a] for a in layout_axes(layout, "HW")]
    return ctx.call_te(topi.nn.adaptive_pool, args[0], size, "max", layout)


# ---------------------------------------------------------------------------
# Normalization
# ---------------------------------------------------------------------------


def _norm_fields(op: RegisteredOperatorOp) -> dict[str, Any]:
    call = call_of(op)
    return {
        "epsilon": float(call.attr("epsilon")),
        "center": bool(call.attr("center")),
        "scale": bool(call.attr("scale")),
    }


@relax_export("nn.instance_norm")
def instance_norm(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``instance_norm`` over every axis but the batch and the channel axis."""
    data_rank = rank(op)
    axis = call_of(op).integer("axis") % data_rank
    axes = [a for a in range(1, data_rank) if a != axis]
    return R.nn.instance_norm(*args, channel_axis=axis, axes=axes, **_norm_fields(op))


@relax_export("nn.group_norm")
def group_norm(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``group_norm`` over the axes after the channel axis."""
    call = call_of(op)
    data_rank = rank(op)
    axis = call.integer("axis") % data_rank
    return R.nn.group_norm(
        *args,
        num_groups=call.integer("num_groups"),
        channel_axis=axis,
        axes=list(range(axis + 1, data_rank)),
        **_norm_fields(op),
    )


@relax_export("nn.lrn", te=True)
def lrn(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``lrn``."""
    call = call_of(op)
    return ctx.call_te(
        topi.nn.lrn,
        args[0],
        call.integer("size"),
        call.integer("axis"),
        float(call.attr("alpha")),
        float(call.attr("beta")),
        float(call.attr("bias")),
    )


@relax_export("nn.l2_normalize")
def l2_normalize(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``x / sqrt(max(sum(x * x, axis), eps))``."""
    (data,) = args
    call = call_of(op)
    total = ctx.emit(R.sum(ctx.emit(R.multiply(data, data)), call.ints("axis"), keepdims=True))
    floor = ctx.emit(R.maximum(total, scalar(float(call.attr("eps")), result_dtype(op))))
    return R.divide(data, ctx.emit(R.sqrt(floor)))


# ---------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------


def _edge_pad(data: te.Tensor, before: list[int], after: list[int]) -> te.Tensor:
    """Pads with the nearest edge value of each axis."""
    shape = [int(n) + b + a for n, b, a in zip(data.shape, before, after)]

    def element(*index: Any) -> Any:
        clamped = [
            tirx.max(tirx.min(i - b, int(n) - 1), 0) for i, b, n in zip(index, before, data.shape)
        ]
        return data(*clamped)

    return te.compute(shape, element, name="edge_pad")


@relax_export("nn.pad")
def pad(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``nn.pad`` where the pad value is a constant or the mode reflects; else
    topi's ``pad`` with the value read from its tensor, or an edge-clamping
    compute."""
    call = call_of(op)
    data, pad_value = args
    before, after = pad_pairs(call.attr("pad_width"))
    widths = [w for pair in zip(before, after) for w in pair]
    mode = str(call.attr("pad_mode"))
    value = constant_value(pad_value)
    if mode == "reflect":
        return R.nn.pad(data, widths, "reflect")
    if mode == "edge":
        return ctx.call_te(_edge_pad, data, before, after)
    if value is not None:
        return R.nn.pad(data, widths, "constant", float(value))
    return ctx.call_te(lambda x, v: topi.nn.pad(x, before, after, pad_value=v()), data, pad_value)


@relax_export("nn.mirror_pad", te=True)
def mirror_pad(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``mirror_pad``."""
    call = call_of(op)
    before, after = pad_pairs(call.attr("pad_width"))
    return ctx.call_te(topi.nn.mirror_pad, args[0], before, after, str(call.attr("mode")))


@relax_export("nn.upsampling", te=True)
def upsampling(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``upsampling``."""
    call = call_of(op)
    return ctx.call_te(
        topi.nn.upsampling,
        args[0],
        float(call.attr("scale_h")),
        float(call.attr("scale_w")),
        str(call.attr("layout")),
        str(call.attr("method")),
        bool(call.attr("align_corners")),
    )


@relax_export("nn.upsampling3d", te=True)
def upsampling3d(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``upsampling3d``."""
    call = call_of(op)
    return ctx.call_te(
        topi.nn.upsampling3d,
        args[0],
        float(call.attr("scale_d")),
        float(call.attr("scale_h")),
        float(call.attr("scale_w")),
        str(call.attr("layout")),
        str(call.attr("method")),
        str(call.attr("coordinate_transformation_mode")),
    )


@relax_export("nn.depth_to_space", te=True)
def depth_to_space(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``depth_to_space``."""
    call = call_of(op)
    return ctx.call_te(
        topi.nn.depth_to_space,
        args[0],
        call.integer("block_size"),
        str(call.attr("layout")),
        str(call.attr("mode")),
    )


@relax_export("nn.space_to_depth", te=True)
def space_to_depth(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``space_to_depth`` (which, like Relay's, ignores the mode)."""
    call = call_of(op)
    return ctx.call_te(
        topi.nn.space_to_depth, args[0], call.integer("block_size"), str(call.attr("layout"))
    )
