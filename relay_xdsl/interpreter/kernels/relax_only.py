"""Kernels of the Relax-only operators, with Relax's semantics.

* ``relax.matmul`` is numpy's ``matmul`` (1-D operands promoted and the
  promoted axis dropped, batch dimensions broadcast), in ``out_dtype``;
* ``relax.strided_slice`` slices the listed ``axes`` only, bounds
  canonicalised as in Relay's ``strided_slice`` (absent strides are 1);
* ``relax.nn.gelu`` is ``x * Phi(x)`` with the exact normal CDF
  ``0.5 * (1 + erf(x / sqrt(2)))``; ``relax.nn.gelu_tanh`` its tanh
  approximation; ``relax.nn.silu`` is ``x * sigmoid(x)``;
* ``relax.nn.batch_norm`` is Relay's ``nn.batch_norm`` without ``training``;
  with it, topi's training form: the batch statistics normalise, and the
  moving ones are returned updated by ``momentum``;
* ``relax.nn.pad`` is numpy's ``pad`` (``edge`` and ``replicate`` both take
  the nearest edge); ``relax.arange`` numpy's ``arange``;
  ``relax.slice_scatter`` writes `src` into a copy of the data.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.kernels import elementwise, nn
from relay_xdsl.interpreter.kernels.common import axis as normal_axis
from relay_xdsl.interpreter.kernels.common import result_dtype
from relay_xdsl.interpreter.kernels.layouts import KernelError
from relay_xdsl.interpreter.kernels.shape import slice_of
from relay_xdsl.interpreter.registry import kernel


@kernel("relax.matmul")
def matmul(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    dtype = result_dtype(call)
    return np.matmul(a.astype(dtype, copy=False), b.astype(dtype, copy=False))


@kernel("relax.strided_slice")
def strided_slice(call: Call, x: np.ndarray) -> np.ndarray:
    axes = call.ints("axes")
    begin, end = call.ints("begin"), call.ints("end")
    strides = call.optional_ints("strides") or [1] * len(axes)
    index = [slice(None)] * x.ndim
    for axis, start, stop, stride in zip(axes, begin, end, strides):
        axis = normal_axis(axis, x.ndim)
        index[axis] = slice_of(start, stop, stride, x.shape[axis])
    return x[tuple(index)]


@kernel("relax.nn.gelu")
def gelu(call: Call, x: np.ndarray) -> np.ndarray:
    cdf = 0.5 * (1.0 + elementwise.erf(call, x.astype(np.float64) / np.sqrt(2.0)))
    return x * cdf.astype(x.dtype)


@kernel("relax.nn.gelu_tanh")
def gelu_tanh(call: Call, x: np.ndarray) -> np.ndarray:
    inner = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)
    return 0.5 * x * (1.0 + np.tanh(inner))


@kernel("relax.nn.silu")
def silu(call: Call, x: np.ndarray) -> np.ndarray:
    return x * elementwise.sigmoid(call, x)


@kernel("relax.nn.batch_norm")
def batch_norm(
    call: Call,
    data: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    moving_mean: np.ndarray,
    moving_var: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not call.attr("training"):
        return nn.batch_norm(call, data, gamma, beta, moving_mean, moving_var)
    axis = normal_axis(call.integer("axis"), data.ndim)
    reduced = tuple(a for a in range(data.ndim) if a != axis)
    mean = np.mean(data, axis=reduced)
    variance = np.mean(np.square(data - np.expand_dims(mean, reduced)), axis=reduced)
    out, _, _ = nn.batch_norm(call, data, gamma, beta, mean, variance)
    momentum = np.asarray(call.attr("momentum"), data.dtype)
    one = np.asarray(1, data.dtype)
    return (
        out,
        ((one - momentum) * moving_mean + momentum * mean).astype(data.dtype, copy=False),
        ((one - momentum) * moving_var + momentum * variance).astype(data.dtype, copy=False),
    )


_PAD_MODES: dict[str, Literal["constant", "reflect", "edge"]] = {
    "constant": "constant",
    "reflect": "reflect",
    "edge": "edge",
    "replicate": "edge",
}


@kernel("relax.nn.pad")
def pad(call: Call, x: np.ndarray) -> np.ndarray:
    widths = call.ints("pad_width")
    pairs = [(widths[2 * i], widths[2 * i + 1]) for i in range(x.ndim)]
    mode = _PAD_MODES.get(str(call.attr("pad_mode")))
    if mode is None:
        raise KernelError(f"unknown pad mode '{call.attr('pad_mode')}'")
    if mode == "constant":
        return np.pad(x, pairs, constant_values=np.asarray(call.attr("pad_value"), x.dtype))
    return np.pad(x, pairs, mode=mode)


@kernel("relax.arange")
def arange(call: Call) -> np.ndarray:
    return np.arange(call.attr("start"), call.attr("end"), call.attr("step")).astype(
        result_dtype(call)
    )


@kernel("relax.slice_scatter")
def slice_scatter(call: Call, x: np.ndarray, src: np.ndarray) -> np.ndarray:
    axis = normal_axis(call.integer("axis"), x.ndim)
    index = [slice(None)] * x.ndim
    index[axis] = slice(call.attr("start"), call.attr("end"), call.attr("step"))
    out = x.copy()
    out[tuple(index)] = src
    return out
