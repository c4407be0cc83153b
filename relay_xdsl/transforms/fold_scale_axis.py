"""relay-fold-scale-axis: fold per-channel scales into convolution weights, TVM's ``FoldScaleAxis``.

TVM v0.19's ``FoldScaleAxis`` (``src/relay/transforms/fold_scale_axis.cc``)
is ``BackwardFoldScaleAxis`` then ``ForwardFoldScaleAxis``; this pass runs
the same two, building the same calls. Both only move a scale, so the
program computes the same values; the new weights are expressions of the
old ones (``multiply(%w, expand_dims(...))``), which ``relay-fold-constant``
then folds, as TVM's ``FoldScaleAxis`` ends with ``FoldConstant``.

**Backward.** A ``multiply(x, s)`` whose ``s`` broadcasts along the channel
axes of ``x`` only (``(C, 1, 1)`` against ``NCHW``) is removed when ``x`` is
computed by a chain of consumers of the scale, each used only once:
``nn.conv2d``/``nn.conv3d`` (``groups=1`` or depthwise) and ``nn.dense``,
which take it in their weights (``multiply(%w, expand_dims(s))`` on the
output-channel axis), through ``nn.relu``/``nn.leaky_relu`` (only for a
constant ``s`` known to be non-negative), ``add``/``subtract`` (whose other
operand is multiplied by ``s`` too, unless both sides carry it) and
``nn.bias_add`` (whose bias is multiplied by ``s``). ``s`` is used squeezed
to its channel axes (``squeeze``), as TVM uses it.

**Forward.** A ``multiply(x, s)`` used only by such chains towards a
convolution or dense layer (through ``nn.relu``/``nn.leaky_relu`` for a
non-negative constant ``s``, and ``add``/``subtract`` of a tensor
broadcasting along the channel axes, which is divided by ``s``) is folded
into that layer's weights on the input-channel axis (output-channel for a
depthwise convolution).

As in TVM, convolutions in simple layouts (``NCHW``, ``NHWC``, ``OIHW``,
``HWIO``, ...) take the scale through ``expand_dims``, and those blocked on
both channel axes (``NCHW4c`` with ``OIHW4i4o``) through a ``reshape``
to the weight's blocked axes; other layouts and grouped (not depthwise)
convolutions keep their scales. A chain with a dynamic dimension where a
scale must be reshaped keeps its scale. A function carrying ``Compiler``
or a nonzero ``Extern`` or ``SkipOptimization`` is left alone; every other
function and function literal is folded separately.

Options:

* ``direction=both`` (default) runs backward then forward;
  ``direction=backward`` or ``direction=forward`` runs only one
  (TVM's ``BackwardFoldScaleAxis`` and ``ForwardFoldScaleAxis``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.layouts import LayoutError, convert_layout, parse_layout
from relay_xdsl.support.depth import walk_ops
from relay_xdsl.transforms.building import (
    BuildError,
    ExpressionBuilder,
    expand_bias_to_match_axis,
)
from relay_xdsl.transforms.dataflow import optimizable
from relay_xdsl.transforms.diagnostics import PassOptionError


@dataclass(frozen=True)
class Message:
    """The axes a scale may be folded along, and whether it must be non-negative."""

    axes: tuple[int, ...]
    require_positive: bool = False


def intersect(lhs: Message | None, rhs: Message | None) -> Message | None:
    """TVM's ``Intersect``: no message on either side is no message."""
    if lhs is None or rhs is None:
        return None
    axes = tuple(a for a in lhs.axes if a in rhs.axes)
    return Message(axes, lhs.require_positive or rhs.require_positive)


class _CannotFold(Exception):
    """The scale cannot be moved here: the rewrite is abandoned."""


def _shape(value: SSAValue) -> list[int] | None:
    type_ = value.type
    return list(type_.get_shape()) if isinstance(type_, TensorType) else None


def match_broadcast_to_left_axes(lhs: list[int], rhs: list[int], axes: Sequence[int]) -> bool:
    """TVM's ``MatchBroadcastToLeftAxes`` (as a test): `rhs` broadcasts
    against `lhs` with its own extents exactly on `axes` and 1 elsewhere."""
    if len(lhs) < len(rhs):
        return False
    base = len(lhs) - len(rhs)
    j = 0
    for i, extent in enumerate(lhs):
        if j < len(axes) and i == axes[j]:
            if i < base or extent < 0 or extent != rhs[i - base]:
                return False
            j += 1
        elif i >= base and rhs[i - base] != 1:
            return False
    return True


def squeezed_scale(
    builder: ExpressionBuilder, lhs: list[int], rhs: list[int], axes: Sequence[int], scale: SSAValue
) -> SSAValue | None:
    """`scale` (of shape `rhs`) reduced to the extents of `axes` of `lhs`, as
    ``MatchBroadcastToLeftAxes`` builds it (a scalar is expanded and repeated),
    or None if it does not broadcast so."""
    if not rhs and axes:
        scale = builder.call("expand_dims", scale, axis=0, num_newaxis=len(axes))
        for i in range(len(axes)):
            # TVM repeats every axis by the extent of the first (its loop reads axes[0]).
            scale = builder.call("repeat", scale, repeats=lhs[axes[0]], axis=i)
        return scale
    if not match_broadcast_to_left_axes(lhs, rhs, axes):
        return None
    base = len(lhs) - len(rhs)
    squeeze = [i - base for i in range(base, len(lhs)) if i not in axes]
    if squeeze:
        scale = builder.call("squeeze", scale, axis=squeeze)
    return scale


def reshape_or_expand_to_match_axis(
    builder: ExpressionBuilder, scale: SSAValue, shape: list[int], axes: Sequence[int]
) -> SSAValue:
    """TVM's ``ReshapeOrExpandToMatchAxis``: `scale` shaped to broadcast along
    `axes` of a tensor of `shape`."""
    if len(axes) > 1:
        if any(shape[i] < 0 for i in axes):
            raise _CannotFold
        newshape = [shape[i] if i in axes else 1 for i in range(len(shape))]
        return builder.call("reshape", scale, newshape=newshape)
    return expand_bias_to_match_axis(builder, scale, len(shape), axes)


_PEELED = (relay.ExpandDimsOp, relay.ReshapeOp, relay.TransposeOp, relay.SqueezeOp, relay.RepeatOp)


def all_positive_constant(value: SSAValue) -> bool:
    """TVM's ``IsAllPositiveConstant``: a constant (seen through ``expand_dims``,
    ``reshape``, ``transpose``, ``squeeze`` and ``repeat``) known to hold no
    negative element. An opaque constant is not known to."""
    owner = value.owner
    while isinstance(owner, _PEELED):
        owner = owner.data.owner
    if not isinstance(owner, relay.ConstantOp) or owner.value is None:
        return False
    if not isinstance(owner.value, DenseIntOrFPElementsAttr):
        return False
    return all(v >= 0 for v in owner.value.get_values())


# ---------------------------------------------------------------------------
# Convolution and dense layers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _ConvLayout:
    """Where a convolution keeps its channels: each primal axis, with its
    sub-axis in a blocked layout (``NCHW4c``, ``OIHW4i4o``)."""

    channel: tuple[int, ...]  # C (and c) in the output (backward) or data (forward) layout
    kernel_out: tuple[int, ...]  # O (and o) in the kernel layout
    kernel_in: tuple[int, ...]  # I (and i) in the kernel layout
    kernel_ndim: int
    depthwise: bool

    @property
    def simple(self) -> bool:
        return len(self.channel) == 1


def _axes(layout: list[str], letter: str) -> tuple[int, ...] | None:
    """Where primal axis `letter` and its sub-axis, if any, are in `layout`
    (TVM's ``IndexOf``); None without the primal axis."""
    if letter not in layout:
        return None
    primal = layout.index(letter)
    return (primal, layout.index(letter.lower())) if letter.lower() in layout else (primal,)


_Conv = relay.Conv2DOp | relay.Conv3DOp
"""The convolutions a scale folds into."""


def _conv_layout(op: _Conv, output_side: bool) -> _ConvLayout | None:
    """The convolution's channel axes, if it is a full or depthwise
    convolution whose layouts are simple or blocked on every channel axis
    (TVM's ``ConvForwardPrep`` and ``ConvBackwardPrep``)."""
    data_layout = str(op.relay_attr("data_layout"))
    layout_name = data_layout
    if output_side:
        layout_name = str(op.relay_attr("out_layout") or "") or data_layout
    kernel_name = str(op.relay_attr("kernel_layout"))
    weight = _shape(op.weight)
    if weight is None:
        return None
    try:
        layout = [a for a, _ in parse_layout(layout_name)]
        kernel = [a for a, _ in parse_layout(kernel_name)]
        oihw = "OIDHW" if isinstance(op, relay.Conv3DOp) else "OIHW"
        out_channels, in_channels = convert_layout(weight, kernel_name, oihw)[:2]
    except LayoutError:
        return None
    channel, out, in_ = _axes(layout, "C"), _axes(kernel, "O"), _axes(kernel, "I")
    if channel is None or out is None or in_ is None:
        return None
    groups = int(op.relay_attr("groups"))
    depthwise = out_channels == groups and in_channels == 1
    if groups != 1 and not depthwise:
        return None
    if not len(channel) == len(out) == len(in_):  # simple, or blocked throughout
        return None
    return _ConvLayout(channel, out, in_, len(kernel), depthwise)


def _conv_message(op: _Conv, output_side: bool) -> Message | None:
    layout = _conv_layout(op, output_side)
    return None if layout is None else Message(layout.channel)


def _weight_scale(
    builder: ExpressionBuilder,
    scale: SSAValue,
    weight: SSAValue,
    layout: _ConvLayout,
    axes: tuple[int, ...],
) -> SSAValue:
    """`scale` shaped to multiply the weight along `axes`: ``expand_dims`` for
    a simple layout, a ``reshape`` for a blocked one (TVM's ``ReshapeToMatchAxis``)."""
    if layout.simple:
        return expand_bias_to_match_axis(builder, scale, layout.kernel_ndim, axes)
    shape = _shape(weight)
    if shape is None or any(shape[i] < 0 for i in axes):
        raise _CannotFold
    newshape = [extent if i in axes else 1 for i, extent in enumerate(shape)]
    return builder.call("reshape", scale, newshape=newshape)


def _rebuild(
    builder: ExpressionBuilder, op: relay.OperatorOp, args: Sequence[SSAValue]
) -> SSAValue:
    """`op` called again on `args`, with its attributes."""
    attributes = dict(op.attributes)
    new = type(op)(list(args), op.results[0].type, attributes)
    return builder.insert(new).results[0]


# ---------------------------------------------------------------------------
# Backward
# ---------------------------------------------------------------------------

_AddSub = relay.AddOp | relay.SubtractOp
_Relu = relay.ReluOp | relay.LeakyReluOp


def _add_sub_backward_prep(op: _AddSub, ins: list[Message | None]) -> Message | None:
    lhs, rhs = _shape(op.lhs), _shape(op.rhs)
    if lhs is None or rhs is None:
        return None
    if ins[0] is not None and match_broadcast_to_left_axes(lhs, rhs, ins[0].axes):
        return ins[0]
    if ins[1] is not None and match_broadcast_to_left_axes(rhs, lhs, ins[1].axes):
        return ins[1]
    if ins[0] is not None and ins[1] is not None and ins[0].axes == ins[1].axes and lhs == rhs:
        return ins[0]
    return None


def backward_prep(op: Operation, ins: list[Message | None]) -> Message | None:
    """TVM's ``FScaleAxisBackwardPrep``: the axes along which an operator's
    result may carry a scale that its arguments' messages (`ins`) allow; None
    where it may not, or the operator takes no scale."""
    match op:
        case relay.ReluOp() | relay.LeakyReluOp():
            return None if ins[0] is None else Message(ins[0].axes, True)
        case relay.AddOp() | relay.SubtractOp():
            return _add_sub_backward_prep(op, ins)
        case relay.Conv2DOp() | relay.Conv3DOp():
            return _conv_message(op, output_side=True)
        case relay.BiasAddOp():
            message = ins[0]
            if message is not None and message.axes == (int(op.relay_attr("axis")),):
                return message
            return None
        case relay.DenseOp():
            return Message((1,))
    return None


@dataclass
class _BackwardFolder:
    messages: dict[SSAValue, Message]
    builder: ExpressionBuilder

    def transform(self, value: SSAValue, message: Message, scale: SSAValue) -> SSAValue:
        """`value` computed with `scale` folded in (TVM's ``Transform``)."""
        op = value.owner
        build = self.builder
        if isinstance(op, _Relu):
            return _rebuild(build, op, [self.transform(op.data, message, scale)])
        if isinstance(op, _AddSub):
            lhs, rhs = op.lhs, op.rhs
            lhs_message, rhs_message = self.messages.get(lhs), self.messages.get(rhs)
            if lhs_message is not None and rhs_message is not None:
                args = [self.transform(lhs, message, scale), self.transform(rhs, message, scale)]
            elif lhs_message is not None:
                lhs_shape = _shape(lhs)
                assert lhs_shape is not None
                other = reshape_or_expand_to_match_axis(build, scale, lhs_shape, message.axes)
                args = [self.transform(lhs, message, scale), build.call("multiply", rhs, other)]
            else:
                rhs_shape = _shape(rhs)
                assert rhs_shape is not None
                other = reshape_or_expand_to_match_axis(build, scale, rhs_shape, message.axes)
                args = [build.call("multiply", lhs, other), self.transform(rhs, message, scale)]
            return _rebuild(build, op, args)
        if isinstance(op, relay.BiasAddOp):
            args = [self.transform(op.data, message, scale), build.call("multiply", op.bias, scale)]
            return _rebuild(build, op, args)
        if isinstance(op, _Conv):
            layout = _conv_layout(op, output_side=True)
            assert layout is not None
            wscale = _weight_scale(build, scale, op.weight, layout, layout.kernel_out)
            new_weight = build.call("multiply", op.weight, wscale)
            return _rebuild(build, op, [op.data, new_weight])
        if isinstance(op, relay.DenseOp):
            wscale = expand_bias_to_match_axis(build, scale, 2, [0])
            weight = build.call("multiply", op.weight, wscale)
            return _rebuild(build, op, [op.data, weight])
        raise AssertionError(f"no backward transform for {op}")


def backward_fold_block(block: Block) -> None:
    """TVM's ``BackwardFoldScaleAxis`` on one function body."""
    ops = list(block.ops)
    messages: dict[SSAValue, Message] = {}
    for op in ops:
        if not isinstance(op, relay.OperatorOp) or not op.results[0].has_one_use():
            continue  # only a scale no one else sees moves
        message = backward_prep(op, [messages.get(arg) for arg in op.operands])
        if message is not None:
            messages[op.results[0]] = message
    if not messages:
        return
    for op in ops:
        if isinstance(op, relay.MultiplyOp) and op.parent is not None:
            _fold_multiply_backward(op, messages)


def _fold_multiply_backward(op: relay.MultiplyOp, messages: dict[SSAValue, Message]) -> None:
    lhs, rhs = op.lhs, op.rhs
    lhs_shape, rhs_shape = _shape(lhs), _shape(rhs)
    if lhs_shape is None or rhs_shape is None:
        return
    if (message := messages.get(lhs)) is not None:
        scaled, scale, shapes = lhs, rhs, (lhs_shape, rhs_shape)
    elif (message := messages.get(rhs)) is not None:
        scaled, scale, shapes = rhs, lhs, (rhs_shape, lhs_shape)
    else:
        return
    builder = ExpressionBuilder.before(op)
    try:
        squeezed = squeezed_scale(builder, *shapes, message.axes, scale)
        if squeezed is None or (message.require_positive and not all_positive_constant(squeezed)):
            raise _CannotFold
        folded = _BackwardFolder(messages, builder).transform(scaled, message, squeezed)
    except (_CannotFold, BuildError):
        _erase_all(builder.built)
        return
    op.results[0].replace_all_uses_with(folded)
    _erase_dead([op])


# ---------------------------------------------------------------------------
# Forward
# ---------------------------------------------------------------------------


def _add_sub_forward_prep(op: _AddSub, out: Message | None) -> list[Message | None]:
    lhs, rhs = _shape(op.lhs), _shape(op.rhs)
    if out is not None and lhs is not None and rhs is not None:
        if match_broadcast_to_left_axes(lhs, rhs, out.axes):
            return [out, None]
        if match_broadcast_to_left_axes(rhs, lhs, out.axes):
            return [None, out]
    return [None, None]


def forward_prep(op: Operation, out: Message | None) -> list[Message | None]:
    """TVM's ``FScaleAxisForwardPrep``: the scales an operator's arguments may
    carry, given the message on its result (`out`); none for an operator
    that takes no scale."""
    match op:
        case relay.ReluOp() | relay.LeakyReluOp():
            return [None if out is None else Message(out.axes, True)]
        case relay.AddOp() | relay.SubtractOp():
            return _add_sub_forward_prep(op, out)
        case relay.Conv2DOp() | relay.Conv3DOp():
            return [_conv_message(op, output_side=False), None]
        case relay.DenseOp():
            return [Message((1,)), None]
    return [None] * len(op.operands)


@dataclass(frozen=True)
class _Scaled:
    """TVM's ``ScaledExpr``: `value` times `scale` along `axes`."""

    value: SSAValue
    scale: SSAValue
    axes: tuple[int, ...]


def forward_prepare(ops: Sequence[Operation]) -> dict[SSAValue, Message | None]:
    """TVM's ``ForwardPrep``: the message on each value, consumers first."""
    messages: dict[SSAValue, Message | None] = {}

    def update(value: SSAValue, message: Message | None) -> None:
        messages[value] = intersect(messages[value], message) if value in messages else message

    for op in reversed(ops):
        out = messages.get(op.results[0]) if len(op.results) == 1 else None
        for arg, message in zip(op.operands, forward_prep(op, out)):
            update(arg, message)
    return messages


@dataclass
class _ForwardFolder:
    messages: dict[SSAValue, Message | None]
    scaled: dict[SSAValue, _Scaled] = field(default_factory=dict)
    replaced: list[Operation] = field(default_factory=list)
    built: list[Operation] = field(default_factory=list)

    def rewrite(self, op: Operation) -> None:
        if not isinstance(op, relay.OperatorOp):
            return
        builder = ExpressionBuilder.before(op)
        try:
            self._rewrite(builder, op)
        except (_CannotFold, BuildError):
            _erase_all(builder.built)
            return
        self.built += builder.built

    def _rewrite(self, build: ExpressionBuilder, op: relay.OperatorOp) -> None:
        result = op.results[0]
        if isinstance(op, relay.MultiplyOp):
            message = self.messages.get(result)
            if message is None or any(a in self.scaled for a in op.operands):
                return
            lhs, rhs = op.lhs, op.rhs
            lhs_shape, rhs_shape = _shape(lhs), _shape(rhs)
            if lhs_shape is None or rhs_shape is None:
                return
            for value, scale, shapes in (
                (lhs, rhs, (lhs_shape, rhs_shape)),
                (rhs, lhs, (rhs_shape, lhs_shape)),
            ):
                squeezed = squeezed_scale(build, *shapes, message.axes, scale)
                if squeezed is not None and (
                    not message.require_positive or all_positive_constant(squeezed)
                ):
                    self.scaled[result] = _Scaled(value, squeezed, message.axes)
                    return
            raise _CannotFold
        if isinstance(op, _Relu):
            scaled = self.scaled.get(op.data)
            if scaled is not None:
                new = _rebuild(build, op, [scaled.value])
                self.scaled[result] = _Scaled(new, scaled.scale, scaled.axes)
            return
        if isinstance(op, _AddSub):
            self._rewrite_add_sub(build, op)
            return
        if isinstance(op, relay.Conv2DOp | relay.Conv3DOp | relay.DenseOp):
            data, weight = op.data, op.weight
            scaled = self.scaled.get(data)
            if scaled is None or weight in self.scaled:
                return
            if isinstance(op, relay.DenseOp):
                new_weight = build.call("multiply", weight, scaled.scale)
            else:
                layout = _conv_layout(op, output_side=False)
                if layout is None:
                    raise _CannotFold
                axes = layout.kernel_out if layout.depthwise else layout.kernel_in
                wscale = _weight_scale(build, scaled.scale, weight, layout, axes)
                new_weight = build.call("multiply", weight, wscale)
            result.replace_all_uses_with(_rebuild(build, op, [scaled.value, new_weight]))
            self.replaced.append(op)

    def _rewrite_add_sub(self, build: ExpressionBuilder, op: _AddSub) -> None:
        lhs, rhs = op.lhs, op.rhs
        scaled_lhs, scaled_rhs = self.scaled.get(lhs), self.scaled.get(rhs)
        if (scaled_lhs is None) == (scaled_rhs is None):
            return
        if scaled_lhs is not None:
            shape = _shape(lhs)
            assert shape is not None
            scale = reshape_or_expand_to_match_axis(build, scaled_lhs.scale, shape, scaled_lhs.axes)
            args = [scaled_lhs.value, build.call("divide", rhs, scale)]
            scaled = scaled_lhs
        else:
            assert scaled_rhs is not None
            shape = _shape(rhs)
            assert shape is not None
            scale = reshape_or_expand_to_match_axis(build, scaled_rhs.scale, shape, scaled_rhs.axes)
            args = [build.call("divide", lhs, scale), scaled_rhs.value]
            scaled = scaled_rhs
        new = _rebuild(build, op, args)
        self.scaled[op.results[0]] = _Scaled(new, scaled.scale, scaled.axes)


def forward_fold_block(block: Block) -> None:
    """TVM's ``ForwardFoldScaleAxis`` on one function body."""
    ops = list(block.ops)
    messages = forward_prepare(ops)
    if all(message is None for message in messages.values()):
        return
    folder = _ForwardFolder(messages)
    for op in ops:
        folder.rewrite(op)
    # Scaled values no layer consumed keep computing as before; what served
    # only folded layers goes.
    chains = [value.owner for value in folder.scaled if isinstance(value.owner, Operation)]
    _erase_dead([*reversed(chains), *folder.replaced, *folder.built])


# ---------------------------------------------------------------------------
# Clean-up and the pass
# ---------------------------------------------------------------------------


def _erase_all(ops: Sequence[Operation]) -> None:
    for op in reversed(ops):
        if op.parent is not None:
            Rewriter.erase_op(op)


def _erase_dead(ops: Sequence[Operation]) -> None:
    """Erase each of `ops` nothing uses, then the producers only it used."""
    work = list(ops)
    while work:
        op = work.pop()
        if op.parent is None or any(result.uses for result in op.results):
            continue
        if not isinstance(op, (relay.OperatorOp, relay.ConstantOp)):
            continue
        producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(op)
        work.extend(producers)


def _function_bodies(module: ModuleOp) -> list[Block]:
    """The bodies of the optimisable functions and of their function literals."""
    blocks: list[Block] = []
    for func in module.ops:
        if isinstance(func, FuncOp) and optimizable(func.attributes):
            blocks.append(func.body.block)
            blocks += [op.body.block for op in walk_ops(func) if isinstance(op, relay.FnOp)]
    return blocks


@dataclass(frozen=True)
class RelayFoldScaleAxisPass(ModulePass):
    """Fold per-channel scales into convolution and dense weights, as TVM's FoldScaleAxis."""

    name = "relay-fold-scale-axis"

    direction: str = "both"

    DIRECTIONS: ClassVar[tuple[str, ...]] = ("both", "backward", "forward")

    def __post_init__(self) -> None:
        if self.direction not in self.DIRECTIONS:
            raise PassOptionError(
                self.name, "direction", f"must be one of {', '.join(self.DIRECTIONS)}"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.direction in ("both", "backward"):
            for block in _function_bodies(op):
                backward_fold_block(block)
        if self.direction in ("both", "forward"):
            for block in _function_bodies(op):
                forward_fold_block(block)
