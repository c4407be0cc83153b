"""Kernels of the neural-network operators: convolutions and dense layers,
activations, normalization and dropout, and data movement.

Semantics follow TVM v0.19's topi computes and, for the operators that only
exist before ``SimplifyInference`` (the normalizations, dropout), the
arithmetic that pass rewrites them to. Convolutions work in the canonical
layouts ``NC<spatial>`` and ``OI<spatial>`` (``IO<spatial>`` when
transposed) and compute in the result's dtype (``out_dtype``).
"""

from __future__ import annotations

import itertools
from math import prod

import numpy as np
from xdsl.dialects.builtin import TensorType

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.layouts import spatial_axes
from relay_xdsl.interpreter.kernels.common import result_dtype
from relay_xdsl.interpreter.kernels.image import resample
from relay_xdsl.interpreter.kernels.layouts import KernelError, pad_pairs, to_layout, windows
from relay_xdsl.interpreter.registry import kernel

# ---------------------------------------------------------------------------
# Convolutions and dense layers
# ---------------------------------------------------------------------------


def _conv(call: Call, data: np.ndarray, weight: np.ndarray, dims: int) -> np.ndarray:
    """``nn.conv<dims>d`` by im2col: the windows of the padded data, one batched
    matrix product per group."""
    spatial = spatial_axes(dims)
    canon = "NC" + spatial
    data_layout = call.attr("data_layout")
    dtype = result_dtype(call)
    data = to_layout(data, data_layout, canon).astype(dtype, copy=False)
    weight = to_layout(weight, call.attr("kernel_layout"), "OI" + spatial).astype(dtype, copy=False)
    groups = call.integer("groups")
    n, c = data.shape[:2]
    o, cg = weight.shape[:2]
    window = weight.shape[2:]
    if c != cg * groups or o % groups:
        raise KernelError(f"{c} input and {o} output channels do not split into {groups} groups")
    strides, dilation = call.ints("strides"), call.ints("dilation")
    pads = pad_pairs(call.ints("padding"), dims)
    padded = np.pad(data, [(0, 0), (0, 0), *pads])
    out = [
        (size - (k - 1) * d - 1) // s + 1
        for size, k, d, s in zip(padded.shape[2:], window, dilation, strides)
    ]
    view = windows(padded, range(2, 2 + dims), window, strides, dilation, out)
    # (N, C, *out, *window) -> (N, G, *out, Cg, *window) -> (N, G, P, Cg*K)
    view = view.reshape(n, groups, cg, *out, *window)
    order = [0, 1, *range(3, 3 + dims), 2, *range(3 + dims, 3 + 2 * dims)]
    columns = view.transpose(order).reshape(n, groups, prod(out), cg * prod(window))
    matrix = weight.reshape(groups, o // groups, cg * prod(window)).transpose(0, 2, 1)
    result = np.matmul(columns, matrix)  # (N, G, P, O/G)
    result = result.transpose(0, 1, 3, 2).reshape(n, o, *out)
    return to_layout(result, canon, call.attr("out_layout") or data_layout)


@kernel("nn.conv1d")
def conv1d(call: Call, data: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return _conv(call, data, weight, 1)


@kernel("nn.conv2d")
def conv2d(call: Call, data: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return _conv(call, data, weight, 2)


@kernel("nn.conv3d")
def conv3d(call: Call, data: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return _conv(call, data, weight, 3)


def _conv_transpose(call: Call, data: np.ndarray, weight: np.ndarray, dims: int) -> np.ndarray:
    """``nn.conv<dims>d_transpose``: every input position scatters the weight
    window, scaled, into the full output (stride apart, dilated); the padding
    is then cut off, and output_padding extends the end (zeros beyond the full output).

    TVM v0.19's topi asserts dilation 1; other dilations compute what its type
    relation's shape describes (PyTorch's semantics)."""
    spatial = spatial_axes(dims)
    canon = "NC" + spatial
    data_layout = call.attr("data_layout")
    dtype = result_dtype(call)
    data = to_layout(data, data_layout, canon).astype(dtype, copy=False)
    weight = to_layout(weight, call.attr("kernel_layout"), "IO" + spatial).astype(dtype, copy=False)
    groups = call.integer("groups")
    n, c = data.shape[:2]
    size = data.shape[2:]
    cw, og = weight.shape[:2]
    window = weight.shape[2:]
    if c != cw or c % groups:
        raise KernelError(f"{c} input channels do not fit the weight's {cw} in {groups} groups")
    cg = c // groups
    strides, dilation = call.ints("strides"), call.ints("dilation")
    output_padding = call.ints("output_padding")
    pads = pad_pairs(call.ints("padding"), dims)
    # (G, Cg, Og, *K) -> (G, Og*K, Cg) @ (N, G, Cg, P) -> (N, G, Og, *K, *size)
    matrix = weight.reshape(groups, cg, og * prod(window)).transpose(0, 2, 1)
    products = np.matmul(matrix, data.reshape(n, groups, cg, prod(size)))
    products = products.reshape(n, groups, og, *window, *size)
    full = [s * (i - 1) + (k - 1) * d + 1 for s, i, k, d in zip(strides, size, window, dilation)]
    final = [f - b - a + p for f, (b, a), p in zip(full, pads, output_padding)]
    extent = [max(f, b + e) for f, (b, _), e in zip(full, pads, final)]
    result = np.zeros((n, groups, og, *extent), dtype)
    for position in itertools.product(*(range(k) for k in window)):
        target: tuple[slice, ...] = tuple(
            slice(k * d, k * d + s * (i - 1) + 1, s)
            for k, d, s, i in zip(position, dilation, strides, size)
        )
        result[(slice(None),) * 3 + target] += products[(slice(None),) * 3 + position]
    crop = tuple(slice(b, b + e) for (b, _), e in zip(pads, final))
    result = result[(slice(None),) * 3 + crop].reshape(n, groups * og, *final)
    result = to_layout(result, canon, call.attr("out_layout") or data_layout)
    if isinstance(call.result_type, TensorType) and list(call.result_type.get_shape()) != list(
        result.shape
    ):
        # TVM's relation, when it reads the weight, takes one group's output
        # channels for all of them and swaps conv3d_transpose's H and W
        # windows; topi's result then does not have the call's type.
        raise KernelError(
            f"TVM types the call {list(call.result_type.get_shape())} but computes "
            f"{list(result.shape)} (set channels and kernel_size)"
        )
    return result


@kernel("nn.conv1d_transpose")
def conv1d_transpose(call: Call, data: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return _conv_transpose(call, data, weight, 1)


@kernel("nn.conv2d_transpose")
def conv2d_transpose(call: Call, data: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return _conv_transpose(call, data, weight, 2)


@kernel("nn.conv3d_transpose")
def conv3d_transpose(call: Call, data: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return _conv_transpose(call, data, weight, 3)


@kernel("nn.dense")
def dense(call: Call, data: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``Y = X W^T`` over the last axis of X, in the result's dtype."""
    dtype = result_dtype(call)
    return np.matmul(data.astype(dtype, copy=False), weight.astype(dtype, copy=False).T)


@kernel("nn.matmul")
def matmul(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``A B`` with either operand transposed (its last two axes)."""
    dtype = result_dtype(call)
    a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    if call.attr("transpose_a"):
        a = np.swapaxes(a, -1, -2)
    if call.attr("transpose_b"):
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


@kernel("nn.batch_matmul")
def batch_matmul(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Batched ``A B`` of 3D tensors (a batch of 1 broadcasts), either transposed."""
    return matmul(call, a, b)


def _along(vector: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    """A 1D `vector` shaped to broadcast along `axis` of an `ndim`-D array."""
    shape = [1] * ndim
    shape[axis] = -1
    return vector.reshape(shape)


@kernel("nn.bias_add")
def bias_add(call: Call, data: np.ndarray, bias: np.ndarray) -> np.ndarray:
    return data + _along(bias, call.integer("axis"), data.ndim)


# ---------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------


@kernel("nn.relu")
def relu(call: Call, data: np.ndarray) -> np.ndarray:
    return np.maximum(data, np.zeros((), data.dtype))


@kernel("nn.leaky_relu")
def leaky_relu(call: Call, data: np.ndarray) -> np.ndarray:
    alpha = np.asarray(call.attr("alpha"), data.dtype)
    return np.where(data > 0, data, data * alpha)


@kernel("nn.prelu")
def prelu(call: Call, data: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    return np.where(data > 0, data, data * _along(alpha, call.integer("axis"), data.ndim))


@kernel("nn.softmax")
def softmax(call: Call, data: np.ndarray) -> np.ndarray:
    """``exp(x - max) / sum(exp(x - max))`` along `axis`."""
    axis = call.integer("axis")
    shifted = np.exp(data - np.max(data, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


@kernel("nn.fast_softmax")
def fast_softmax(call: Call, data: np.ndarray) -> np.ndarray:
    """Softmax with the exact exp (TVM's fast_exp approximates it)."""
    return softmax(call, data)


@kernel("nn.log_softmax")
def log_softmax(call: Call, data: np.ndarray) -> np.ndarray:
    axis = call.integer("axis")
    shifted = data - np.max(data, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


# ---------------------------------------------------------------------------
# Normalization and dropout
# ---------------------------------------------------------------------------


@kernel("nn.batch_norm")
def batch_norm(
    call: Call,
    data: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    moving_mean: np.ndarray,
    moving_var: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inference batch norm with the moving statistics, as SimplifyInference
    rewrites it: ``x * scale + shift`` with ``scale = gamma / sqrt(var + eps)``
    and ``shift = beta - mean * scale`` (gamma and beta where scale/center);
    the moving mean and variance are returned unchanged, as topi does."""
    axis = call.integer("axis")
    epsilon = np.asarray(call.attr("epsilon"), data.dtype)
    scale = 1 / np.sqrt(moving_var + epsilon)
    if call.attr("scale"):
        scale = scale * gamma
    shift = -moving_mean * scale
    if call.attr("center"):
        shift = shift + beta
    axis %= data.ndim
    out = data * _along(scale, axis, data.ndim) + _along(shift, axis, data.ndim)
    return out.astype(data.dtype, copy=False), moving_mean, moving_var


def _normalize(
    call: Call,
    data: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    reduced: tuple[int, ...],
    axis: int,
) -> np.ndarray:
    """``(x - mean) / sqrt(var + eps)`` over the `reduced` axes, then gamma and
    beta along `axis` where scale and center say."""
    epsilon = np.asarray(call.attr("epsilon"), data.dtype)
    mean = np.mean(data, axis=reduced, keepdims=True)
    variance = np.mean(np.square(data - mean), axis=reduced, keepdims=True)
    out = (data - mean) / np.sqrt(variance + epsilon)
    return _scale_and_shift(call, out.astype(data.dtype, copy=False), gamma, beta, axis)


def _scale_and_shift(
    call: Call, out: np.ndarray, gamma: np.ndarray, beta: np.ndarray, axis: int
) -> np.ndarray:
    if call.attr("scale"):
        out = out * _along(gamma, axis, out.ndim)
    if call.attr("center"):
        out = out + _along(beta, axis, out.ndim)
    return out


@kernel("nn.layer_norm")
def layer_norm(call: Call, data: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """Normalizes over `axis` alone."""
    axis = call.integer("axis") % data.ndim
    return _normalize(call, data, gamma, beta, (axis,), axis)


@kernel("nn.instance_norm")
def instance_norm(call: Call, data: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """Normalizes over every axis but the batch (0) and `axis`."""
    axis = call.integer("axis") % data.ndim
    reduced = tuple(i for i in range(1, data.ndim) if i != axis)
    return _normalize(call, data, gamma, beta, reduced, axis)


@kernel("nn.group_norm")
def group_norm(call: Call, data: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """Splits `axis` into (num_groups, channels/num_groups) and normalizes over
    the channels of a group and every axis after `axis`, as SimplifyInference does."""
    axis = call.integer("axis") % data.ndim
    groups = call.integer("num_groups")
    shape = data.shape
    if groups <= 0 or shape[axis] % groups:
        raise KernelError(f"{shape[axis]} channels do not split into {groups} groups")
    grouped = data.reshape(*shape[:axis], groups, shape[axis] // groups, *shape[axis + 1 :])
    epsilon = np.asarray(call.attr("epsilon"), data.dtype)
    reduced = tuple(range(axis + 1, grouped.ndim))
    mean = np.mean(grouped, axis=reduced, keepdims=True)
    variance = np.mean(np.square(grouped - mean), axis=reduced, keepdims=True)
    out = ((grouped - mean) / np.sqrt(variance + epsilon)).reshape(shape)
    return _scale_and_shift(call, out.astype(data.dtype, copy=False), gamma, beta, axis)


@kernel("nn.lrn")
def lrn(call: Call, data: np.ndarray) -> np.ndarray:
    """``x / (bias + alpha * sum(x^2 over size neighbours) / size) ** beta``,
    the neighbours centred along `axis` (zeros beyond the ends)."""
    size, axis = call.integer("size"), call.integer("axis") % data.ndim
    alpha, beta, bias = (float(call.attr(name)) for name in ("alpha", "beta", "bias"))
    widths = [(0, 0)] * data.ndim
    widths[axis] = (size // 2, size // 2)
    squares = np.pad(np.square(data), widths)
    view = np.lib.stride_tricks.sliding_window_view(squares, size, axis=axis)
    total = view[(slice(None),) * axis + (slice(0, data.shape[axis]),)].sum(axis=-1)
    scale = np.power(bias + alpha * total / size, beta)
    return (data / scale).astype(data.dtype, copy=False)


@kernel("nn.l2_normalize")
def l2_normalize(call: Call, data: np.ndarray) -> np.ndarray:
    """``x / sqrt(max(sum(x^2 over axis), eps))``."""
    axis = tuple(call.ints("axis"))
    total = np.sum(np.square(data), axis=axis, keepdims=True)
    eps = np.asarray(call.attr("eps"), data.dtype)
    return (data / np.sqrt(np.maximum(total, eps))).astype(data.dtype, copy=False)


@kernel("nn.dropout")
def dropout(call: Call, data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The identity at inference, and a mask that keeps everything (ones)."""
    return data, np.ones_like(data)


# ---------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------


@kernel("nn.batch_flatten")
def batch_flatten(call: Call, data: np.ndarray) -> np.ndarray:
    return data.reshape(data.shape[0], -1)


def _pad(
    data: np.ndarray, widths: list[tuple[int, int]], mode: str, value: np.ndarray
) -> np.ndarray:
    """`data` padded by the non-negative widths and cropped by the negative ones."""
    grow = [(max(b, 0), max(a, 0)) for b, a in widths]
    if mode == "constant":
        padded = np.pad(data, grow, mode="constant", constant_values=value)
    elif mode == "edge":
        padded = np.pad(data, grow, mode="edge")
    else:
        padded = np.pad(data, grow, mode="reflect")
    crop = tuple(slice(max(-b, 0), size - max(-a, 0)) for (b, a), size in zip(widths, padded.shape))
    return padded[crop]


@kernel("nn.pad")
def pad(call: Call, data: np.ndarray, pad_value: np.ndarray) -> np.ndarray:
    """Pads each axis by (before, after) of `pad_width`: with `pad_value`
    (constant), the border element (edge) or the mirror image without the
    border (reflect); a negative width crops."""
    widths = [(int(b), int(a)) for b, a in call.attr("pad_width")]
    mode = call.attr("pad_mode")
    if mode not in ("constant", "edge", "reflect"):
        raise KernelError(f"pad_mode {mode!r}")
    return _pad(data, widths, mode, np.asarray(pad_value, data.dtype))


@kernel("nn.mirror_pad")
def mirror_pad(call: Call, data: np.ndarray) -> np.ndarray:
    """Pads by mirroring: SYMMETRIC repeats the border element, REFLECT does not."""
    widths = [(int(b), int(a)) for b, a in call.attr("pad_width")]
    mode = call.attr("mode")
    if mode == "SYMMETRIC":
        return np.pad(data, widths, mode="symmetric")
    if mode == "REFLECT":
        return np.pad(data, widths, mode="reflect")
    raise KernelError(f"mirror_pad mode {mode!r}")


@kernel("nn.upsampling")
def upsampling(call: Call, data: np.ndarray) -> np.ndarray:
    """topi's upsampling: image.resize2d to ``round(size * scale)`` (half to
    even), ``bi``-methods linear/cubic, align_corners or else asymmetric
    coordinates, nearest rounding by the mode (round, floor)."""
    layout = call.attr("layout")
    x = to_layout(data, layout, "NCHW")
    scales = (float(call.attr("scale_h")), float(call.attr("scale_w")))
    sizes = [round(dim * scale) for dim, scale in zip(x.shape[2:], scales)]
    method = call.attr("method")
    method = method.removeprefix("bi")
    mode = "align_corners" if call.attr("align_corners") else "asymmetric"
    out = resample(x, sizes, method, mode).astype(data.dtype)
    return to_layout(out, "NCHW", layout)


@kernel("nn.upsampling3d")
def upsampling3d(call: Call, data: np.ndarray) -> np.ndarray:
    """topi's upsampling3d: image.resize3d to ``round(size * scale)``, ``tri``-methods linear."""
    layout = call.attr("layout")
    x = to_layout(data, layout, "NCDHW")
    scales = [float(call.attr(f"scale_{axis}")) for axis in "dhw"]
    sizes = [round(dim * scale) for dim, scale in zip(x.shape[2:], scales)]
    method = call.attr("method")
    method = method.removeprefix("tri")
    out = resample(x, sizes, method, call.attr("coordinate_transformation_mode"))
    return to_layout(out.astype(data.dtype), "NCDHW", layout)


@kernel("nn.depth_to_space")
def depth_to_space(call: Call, data: np.ndarray) -> np.ndarray:
    """Channel blocks to spatial blocks: DCR reads the channel as (by, bx, c),
    CRD as (c, by, bx)."""
    layout = call.attr("layout")
    block = call.integer("block_size")
    x = to_layout(data, layout, "NCHW")
    n, c, h, w = x.shape
    if call.attr("mode") == "DCR":
        x = x.reshape(n, block, block, c // block**2, h, w).transpose(0, 3, 4, 1, 5, 2)
    elif call.attr("mode") == "CRD":
        x = x.reshape(n, c // block**2, block, block, h, w).transpose(0, 1, 4, 2, 5, 3)
    else:
        raise KernelError(f"depth_to_space mode {call.attr('mode')!r}")
    return to_layout(x.reshape(n, c // block**2, h * block, w * block), "NCHW", layout)


@kernel("nn.space_to_depth")
def space_to_depth(call: Call, data: np.ndarray) -> np.ndarray:
    """Spatial blocks to channels, the channel read as (by, bx, c) whatever
    the mode (TVM's topi ignores it)."""
    layout = call.attr("layout")
    block = call.integer("block_size")
    x = to_layout(data, layout, "NCHW")
    n, c, h, w = x.shape
    x = x.reshape(n, c, h // block, block, w // block, block).transpose(0, 3, 5, 1, 2, 4)
    return to_layout(x.reshape(n, c * block**2, h // block, w // block), "NCHW", layout)
