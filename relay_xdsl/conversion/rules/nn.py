"""Batch normalisation, bias and dense products.

``nn.batch_norm`` with known parameters is one multiply and one add by
per-channel constants computed when compiling. Dense products become
``tosa.matmul`` on rank-3 operands, batch dimensions broadcast as numpy's;
a product by a known float32 matrix, where linalg is preferred, reads it
packed into panels when compiling (packed_matmul.py).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import SSAValue

from relay_xdsl.conversion.layout import aligned
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.packed_matmul import pack_panels, packed_matmul
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.bias import with_following_bias
from relay_xdsl.conversion.values import Tensor, permuted_type


@lowering("nn.batch_norm", "relax.nn.batch_norm")
def batch_norm(call: RuleCall) -> tuple[Tensor, Tensor, Tensor]:
    """``(x - mean) / sqrt(var + eps) * gamma + beta`` as ``x * scale + shift``, with
    `scale` and `shift` computed when compiling where the parameters are known,
    else per channel at run time; the mean and variance pass through.
    ``relax.nn.batch_norm`` in inference form is the same; its training form
    normalises by the batch's statistics (`_batch_norm_training`)."""
    if call.name == "relax.nn.batch_norm" and call.call.attr("training"):
        return _batch_norm_training(call)
    x = call.tensor(0)
    axis = int(call.call.attr("axis")) % x.rank
    shape = [1] * x.rank
    shape[axis] = x.shape[axis]
    type_ = TensorType(x.element_type, shape)
    arrays = [a for a in (call.known(i) for i in range(1, 5)) if a is not None]
    if len(arrays) == 4:
        scale_t, shift_t = (
            Tensor(type_, array=a.reshape(shape)) for a in _known_scale_shift(call, *arrays)
        )
    else:
        scale_t, shift_t = (Tensor(type_, v) for v in _scale_shift(call, shape))
    emit, perm = call.emit, x.perm
    physical = permuted_type(x.type, perm)
    scaled = emit.mul(call.value(x, perm), aligned(call.lowering, scale_t, x.rank, perm), physical)
    out = emit.op("add", [scaled, aligned(call.lowering, shift_t, x.rank, perm)], physical)
    return Tensor(x.type, out, perm), call.tensor(3), call.tensor(4)


def _known_scale_shift(call: RuleCall, *arrays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Batch norm's per-channel `scale` and `shift`, computed when compiling from
    its known parameters (gamma, beta, mean, var)."""
    gamma, beta, mean, var = arrays
    scale = 1 / np.sqrt(var + float(call.call.attr("epsilon")))
    if call.call.attr("scale"):
        scale = scale * gamma
    shift = -mean * scale
    if call.call.attr("center"):
        shift = shift + beta
    return scale.astype(gamma.dtype), shift.astype(gamma.dtype)


def _scale_shift(call: RuleCall, shape: list[int]) -> tuple[SSAValue, SSAValue]:
    """Batch norm's per-channel `scale` and `shift` of `shape` (the channel
    axis kept), computed at run time from the parameter vectors."""
    emit = call.emit
    gamma, beta, mean, var = (emit.reshape(call.value(call.tensor(i)), shape) for i in range(1, 5))
    element = call.tensor(1).element_type
    type_ = TensorType(element, shape)
    epsilon = emit.scalar(float(call.call.attr("epsilon")), element, len(shape))
    scale = emit.op("rsqrt", [emit.op("add", [var, epsilon], type_)], type_)
    if call.call.attr("scale"):
        scale = emit.mul(scale, gamma, type_)
    shift = emit.mul(mean, scale, type_)
    if call.call.attr("center"):
        return scale, emit.op("sub", [beta, shift], type_)
    return scale, emit.mul(shift, emit.scalar(-1.0, element, len(shape)), type_)


def _batch_norm_training(call: RuleCall) -> tuple[Tensor, Tensor, Tensor]:
    """Batch normalisation by the batch's mean and biased variance over every axis
    but ``axis``, the moving statistics coming back as
    ``(1 - momentum) * moving + momentum * batch``."""
    emit = call.emit
    x = call.tensor(0)
    axis = int(call.call.attr("axis")) % x.rank
    channels = x.shape[axis]
    shape = [1] * x.rank
    shape[axis] = channels
    element, rank = x.element_type, x.rank
    stats = TensorType(element, shape)
    data = call.value(x)

    def batch_mean(value: SSAValue) -> SSAValue:
        for a in range(rank):
            if a != axis:
                value = emit.reduce("sum", value, a)
        return emit.mul(value, emit.scalar(channels / math.prod(x.shape), element, rank), stats)

    def per_channel(index: int) -> SSAValue:
        return emit.reshape(call.value(index), shape)

    mean = batch_mean(data)
    centred = emit.op("sub", [data, mean], x.type)
    variance = batch_mean(emit.mul(centred, centred, x.type))
    epsilon = emit.scalar(float(call.call.attr("epsilon")), element, rank)
    inverse = emit.op("rsqrt", [emit.op("add", [variance, epsilon], stats)], stats)
    out = emit.mul(centred, inverse, x.type)
    if call.call.attr("scale"):
        out = emit.mul(out, per_channel(1), x.type)
    if call.call.attr("center"):
        out = emit.op("add", [out, per_channel(2)], x.type)
    momentum = float(call.call.attr("momentum"))
    vector = TensorType(element, [channels])

    def updated(index: int, batch: SSAValue) -> Tensor:
        kept = emit.mul(call.value(index), emit.scalar(1 - momentum, element, 1), vector)
        taken = emit.mul(emit.reshape(batch, [channels]), emit.scalar(momentum, element, 1), vector)
        return Tensor(vector, emit.op("add", [kept, taken], vector))

    return Tensor(x.type, out), updated(3, mean), updated(4, variance)


@lowering("nn.bias_add")
def bias_add(call: RuleCall) -> Tensor:
    x, bias = call.tensor(0), call.tensor(1)
    axis = int(call.call.attr("axis")) % x.rank
    shape = [1] * x.rank
    shape[axis] = bias.shape[0]
    type_ = TensorType(bias.element_type, shape)
    if bias.array is not None:
        expanded = Tensor(type_, array=bias.array.reshape(shape))
    else:
        expanded = Tensor(type_, call.emit.reshape(call.value(bias), shape))
    perm = x.perm
    out = call.emit.op(
        "add",
        [call.value(x, perm), aligned(call.lowering, expanded, x.rank, perm)],
        permuted_type(call.result_type, perm),
    )
    return call.result(out, perm)


def matmul3(call: RuleCall, a: SSAValue, b: SSAValue) -> SSAValue:
    """``tosa.matmul`` of (B, M, K) and (B, K, N)."""
    batch, m, _ = a.type.get_shape()  # type: ignore[attr-defined]
    n = b.type.get_shape()[2]  # type: ignore[attr-defined]
    element = call.result_type.get_element_type()
    zero = call.emit.zero_point(element)
    return call.emit.op("matmul", [a, b, zero, zero], TensorType(element, [batch, m, n]))


def _as_matrix(
    call: RuleCall, t: Tensor, transpose: bool, batch_shape: tuple[int, ...]
) -> SSAValue:
    """`t` (..., R, C) as a rank-3 (B, R, C) operand, transposed to (B, C, R) if asked."""
    rank = t.rank
    perm = tuple(range(rank - 2)) + ((rank - 1, rank - 2) if transpose else (rank - 2, rank - 1))
    rows, cols = (t.shape[-1], t.shape[-2]) if transpose else (t.shape[-2], t.shape[-1])
    batch = math.prod(batch_shape)
    shape = (batch, rows, cols)
    if t.array is not None:
        array = np.ascontiguousarray(t.array.transpose(perm)).reshape(shape)
        return call.lowering.materialize(Tensor(TensorType(t.element_type, shape), array=array))
    return call.emit.reshape(call.value(t, perm), shape)


def _batch_broadcast(call: RuleCall, t: Tensor, batch: tuple[int, ...]) -> Tensor:
    """`t` (..., R, C) with its batch dimensions broadcast to `batch` (tiled:
    ``tosa.matmul`` takes equal batches)."""
    shape = (*batch, *t.shape[-2:])
    if t.shape == shape:
        return t
    type_ = TensorType(t.element_type, shape)
    if t.array is not None:
        return Tensor(type_, array=np.broadcast_to(t.array, shape))
    ranked = (1,) * (len(shape) - t.rank) + t.shape
    value = call.emit.reshape(call.value(t), ranked)
    multiples = [n if m == 1 else 1 for n, m in zip(shape, ranked)]
    return Tensor(type_, call.emit.tile(value, multiples))


def _product(call: RuleCall, a: Tensor, b: Tensor, transpose_a: bool, transpose_b: bool) -> Tensor:
    """``a @ b`` (numpy's matmul; a rank-2 `b` is shared by every row of `a`)."""
    if a.rank < 2 or b.rank < 2:
        raise call.error("products of vectors are not supported")
    if b.rank == 2 and not transpose_a:
        # every batch and row of `a` against one matrix: one (1, rows, K) product
        rows = math.prod(a.shape[:-1])
        k = a.shape[-1]
        if _packable(call, a, b):
            assert b.array is not None
            weight = b.array.T if transpose_b else b.array
            return with_following_bias(
                call,
                call.result_type.get_num_dims() - 1,
                lambda bias: _packed(call, a, weight, bias),
            )
        left = call.emit.reshape(call.value(a), (1, rows, k))
        right = _as_matrix(call, b, transpose_b, (1,))
    else:
        try:
            batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        except ValueError:
            raise call.error(
                f"batch shapes {a.shape[:-2]} and {b.shape[:-2]} do not broadcast"
            ) from None
        left = _as_matrix(call, _batch_broadcast(call, a, batch), transpose_a, batch)
        right = _as_matrix(call, _batch_broadcast(call, b, batch), transpose_b, batch)
    product = matmul3(call, left, right)
    return call.result(call.emit.reshape(product, call.result_type.get_shape()))


def _packed(call: RuleCall, a: Tensor, weight: np.ndarray, bias: SSAValue | None) -> Tensor:
    """``a @ weight + bias`` (`bias` per column, or None), `weight` the known
    ``[K, N]`` matrix of a `_packable` product read from packed panels, its
    sums starting from the bias (rules/bias.py)."""
    packed = pack_panels(weight)
    product = packed_matmul(
        call.emit,
        call.emit.reshape(call.value(a), (math.prod(a.shape[:-1]), a.shape[-1])),
        call.lowering.materialize(Tensor(TensorType(f32, packed.shape), array=packed)),
        weight.shape[1],
        bias,
    )
    return call.result(call.emit.reshape(product, call.result_type.get_shape()))


def _packable(call: RuleCall, a: Tensor, b: Tensor) -> bool:
    """Whether ``a @ b`` reads `b` from panels packed when compiling
    (relay_xdsl/conversion/packed_matmul.py): a known float32 matrix, where
    linalg is preferred."""
    return (
        call.prefer_linalg
        and b.array is not None
        and b.rank == 2
        and a.element_type == b.element_type == call.result_type.get_element_type() == f32
    )


@lowering("nn.matmul", "relax.matmul")
def matmul(call: RuleCall) -> Tensor:
    """``relax.matmul`` and ``nn.matmul``: ``a @ b`` (with ``transpose_a``/``transpose_b``)."""
    return _product(
        call,
        call.tensor(0),
        call.tensor(1),
        bool(call.call.attr("transpose_a")),
        bool(call.call.attr("transpose_b")),
    )


@lowering("nn.dense")
def dense(call: RuleCall) -> Tensor:
    """``nn.dense``: ``x @ w.T``."""
    return _product(call, call.tensor(0), call.tensor(1), False, True)


@lowering("nn.batch_matmul")
def batch_matmul(call: RuleCall) -> Tensor:
    """``nn.batch_matmul``: ``x @ y.T`` by default (``transpose_b=True``)."""
    return _product(
        call,
        call.tensor(0),
        call.tensor(1),
        bool(call.call.attr("transpose_a")),
        bool(call.call.attr("transpose_b")),
    )
