"""relay-simplify-inference: normalisations as arithmetic, TVM's ``SimplifyInference``.

At inference the normalisation operators are arithmetic on their inputs,
and TVM v0.19's ``SimplifyInference``
(``src/relay/transforms/simplify_inference.cc``) writes them so; this pass
builds the same calls in the same order, so the result prints as TVM
prints its own. With ``x`` the data, ``eps`` its ``epsilon`` as a scalar of
the data's dtype and ``expand(v)`` TVM's ``ExpandBiasToMatchAxis`` (an
``expand_dims`` that puts ``v``'s one dimension on the operator's ``axis``):

* ``nn.batch_norm(x, gamma, beta, mean, var).0`` becomes
  ``add(multiply(x, expand(scale)), expand(shift))`` with
  ``scale = multiply(divide(1f, sqrt(add(var, eps))), gamma)`` (without
  ``gamma`` when ``scale=False``) and
  ``shift = add(multiply(negative(mean), scale), beta)`` (without
  ``beta`` when ``center=False``). Only projection 0 is rewritten: the
  moving mean and variance (projections 1 and 2) keep their batch norm.
* ``nn.layer_norm``, ``nn.instance_norm`` and ``nn.group_norm`` become
  ``divide(subtract(x, m), sqrt(add(variance(x, m), eps)))`` with
  ``m = mean(x)`` over the normalised axes (``keepdims=True``; group norm
  between ``reshape``s to and from ``(N, groups, C / groups, ...)``), then
  ``multiply(..., expand(gamma))`` and ``add(..., expand(beta))`` as
  ``scale`` and ``center`` ask.
* ``nn.l2_normalize(x)`` becomes
  ``divide(x, sqrt(maximum(sum(multiply(x, x)), eps)))`` (``keepdims=True``;
  ``eps`` is ``float32`` whatever the data's dtype, as in TVM).
* ``nn.dropout(x).0`` becomes ``x``.

Like TVM's pass, it rewrites every function and function literal, fused
and composite ones included. An operator whose input types are not known
tensors (or whose rewrite its operators' relations reject) stays as it is.
A normalisation that nothing uses any more is erased.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, f32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.support.depth import walk_ops
from relay_xdsl.transforms.building import (
    BuildError,
    ExpressionBuilder,
    expand_bias_to_match_axis,
    shape,
    tensor_type,
)


def _axis(op: relay.OperatorOp, ndim: int) -> int:
    axis = int(op.relay_attr("axis"))
    return axis + ndim if axis < 0 else axis


def _epsilon(builder: ExpressionBuilder, op: relay.OperatorOp, data: SSAValue) -> SSAValue:
    return builder.scalar(tensor_type(data).get_element_type(), float(op.relay_attr("epsilon")))


def batch_norm(builder: ExpressionBuilder, op: relay.BatchNormOp) -> SSAValue:
    """TVM's ``BatchNormToInferUnpack``."""
    data = op.data
    element = tensor_type(data).get_element_type()
    epsilon = _epsilon(builder, op, data)
    sqrt_var = builder.call("sqrt", builder.call("add", op.moving_var, epsilon))
    scale = builder.call("divide", builder.scalar(element, 1.0), sqrt_var)
    if op.relay_attr("scale"):
        scale = builder.call("multiply", scale, op.gamma)
    shift = builder.call("multiply", builder.call("negative", op.moving_mean), scale)
    if op.relay_attr("center"):
        shift = builder.call("add", shift, op.beta)
    ndim = len(shape(data))
    axis = _axis(op, ndim)
    scale = expand_bias_to_match_axis(builder, scale, ndim, [axis])
    shift = expand_bias_to_match_axis(builder, shift, ndim, [axis])
    return builder.call("add", builder.call("multiply", data, scale), shift)


def _normalise(
    builder: ExpressionBuilder,
    op: relay.OperatorOp,
    data: SSAValue,
    axes: list[int],
) -> SSAValue:
    """``(data - mean) / sqrt(variance + eps)`` over `axes`, as the three
    ``...NormToInferUnpack`` functions build it."""
    epsilon = _epsilon(builder, op, data)
    mean = builder.call("mean", data, axis=axes, keepdims=True, exclude=False)
    var = builder.call("variance", data, mean, axis=axes, keepdims=True, exclude=False)
    denom = builder.call("sqrt", builder.call("add", var, epsilon))
    return builder.call("divide", builder.call("subtract", data, mean), denom)


_Norm = relay.LayerNormOp | relay.InstanceNormOp | relay.GroupNormOp
"""The normalisations with a data, gamma and beta argument."""


def _scale_and_center(
    builder: ExpressionBuilder, op: _Norm, out: SSAValue, ndim: int, axis: int
) -> SSAValue:
    if op.relay_attr("scale"):
        gamma = expand_bias_to_match_axis(builder, op.gamma, ndim, [axis])
        out = builder.call("multiply", out, gamma)
    if op.relay_attr("center"):
        out = builder.call("add", out, expand_bias_to_match_axis(builder, op.beta, ndim, [axis]))
    return out


def layer_norm(builder: ExpressionBuilder, op: relay.LayerNormOp) -> SSAValue:
    """TVM's ``LayerNormToInferUnpack`` (the mean is over ``axis`` as written)."""
    data = op.data
    ndim = len(shape(data))
    out = _normalise(builder, op, data, [int(op.relay_attr("axis"))])
    return _scale_and_center(builder, op, out, ndim, _axis(op, ndim))


def instance_norm(builder: ExpressionBuilder, op: relay.InstanceNormOp) -> SSAValue:
    """TVM's ``InstanceNormToInferUnpack``: over every axis but the batch and ``axis``."""
    data = op.data
    ndim = len(shape(data))
    axis = _axis(op, ndim)
    out = _normalise(builder, op, data, [i for i in range(1, ndim) if i != axis])
    return _scale_and_center(builder, op, out, ndim, axis)


def group_norm(builder: ExpressionBuilder, op: relay.GroupNormOp) -> SSAValue:
    """TVM's ``GroupNormToInferUnpack``: ``axis`` split into ``(num_groups,
    C / num_groups)``, normalised over the second and every later axis."""
    data = op.data
    old_shape = shape(data)
    ndim = len(old_shape)
    axis = _axis(op, ndim)
    groups = int(op.relay_attr("num_groups"))
    if groups <= 0 or old_shape[axis] < 0 or any(d < 0 for d in old_shape):
        raise BuildError("group_norm needs a static shape and a positive num_groups")
    new_shape: list[int] = []
    reduced_axes: list[int] = []
    for i, extent in enumerate(old_shape):
        if i == axis:
            new_shape += [groups, old_shape[axis] // groups]
            reduced_axes.append(i + 1)
            continue
        if i >= axis:
            reduced_axes.append(i + 1)
        new_shape.append(extent)
    grouped = builder.call("reshape", data, newshape=new_shape)
    out = _normalise(builder, op, grouped, reduced_axes)
    out = builder.call("reshape", out, newshape=old_shape)
    return _scale_and_center(builder, op, out, ndim, axis)


def l2_normalize(builder: ExpressionBuilder, op: relay.L2NormalizeOp) -> SSAValue:
    """TVM's ``L2NormToInferUnpack``."""
    data = op.data
    epsilon = builder.scalar(f32, float(op.relay_attr("eps")))
    square = builder.call("multiply", data, data)
    axes = [int(a) for a in op.relay_attr("axis")]
    total = builder.call("sum", square, axis=axes, keepdims=True, exclude=False)
    norm = builder.call("sqrt", builder.call("maximum", total, epsilon))
    return builder.call("divide", data, norm)


def _rewrite(op: Operation) -> tuple[Operation, SSAValue] | None:
    """The normalisation `op` computes and the value that replaces `op`
    (built before it), or None to keep `op`."""
    if isinstance(op, relay.TupleGetItemOp):
        producer = op.operands[0].owner
        if op.index.value.data != 0:
            return None
        if isinstance(producer, relay.DropoutOp):
            return producer, producer.data
        if isinstance(producer, relay.BatchNormOp):
            return producer, _built(op, lambda builder: batch_norm(builder, producer))
        return None
    # The operators rewritten where they are called.
    match op:
        case relay.LayerNormOp():
            return op, _built(op, lambda builder: layer_norm(builder, op))
        case relay.GroupNormOp():
            return op, _built(op, lambda builder: group_norm(builder, op))
        case relay.InstanceNormOp():
            return op, _built(op, lambda builder: instance_norm(builder, op))
        case relay.L2NormalizeOp():
            return op, _built(op, lambda builder: l2_normalize(builder, op))
    return None


def _built(anchor: Operation, build: Callable[[ExpressionBuilder], SSAValue]) -> SSAValue:
    """What `build` builds before `anchor`; on a :class:`BuildError`, nothing."""
    builder = ExpressionBuilder.before(anchor)
    try:
        return build(builder)
    except BuildError:
        for op in reversed(builder.built):
            Rewriter.erase_op(op)
        raise


def simplify_inference(module: ModuleOp) -> int:
    """Rewrite `module`'s normalisations in place; the number rewritten."""
    rewritten = 0
    for op in list(walk_ops(module)):
        if op.parent is None:  # erased with its normalisation
            continue
        try:
            found = _rewrite(op)
        except BuildError:
            found = None
        if found is None:
            continue
        normalisation, value = found
        op.results[0].replace_all_uses_with(value)
        _erase_if_unused(op)
        if normalisation is not op:
            _erase_if_unused(normalisation)
        rewritten += 1
    return rewritten


def _erase_if_unused(op: Operation) -> None:
    if op.parent is not None and not any(result.uses for result in op.results):
        Rewriter.erase_op(op)


@dataclass(frozen=True)
class RelaySimplifyInferencePass(ModulePass):
    """Rewrite normalisation operators into arithmetic, as TVM's SimplifyInference."""

    name = "relay-simplify-inference"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        simplify_inference(op)
