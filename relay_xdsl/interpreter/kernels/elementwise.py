"""Kernels of the unary elementwise operators, clipping, casts and tensor creation.

TVM v0.19's semantics (``include/tvm/topi/elemwise.h``, the LLVM intrinsic
rules) where they differ from numpy's:

* ``round`` rounds halves away from zero (``llvm.round``), not to even;
* ``sign`` of NaN is 0 (two selects on ``x < 0`` and ``x > 0``);
* ``fast_exp``, ``fast_tanh`` and ``fast_erf`` are TVM's approximations of
  ``exp``, ``tanh`` and ``erf``; these kernels compute the functions
  themselves (TVM's approximations are within a few float32 ulps);
* ``erf`` is computed from a rational approximation of ``erfc``, with an
  absolute error below 1.2e-7 (numpy has no ``erf``);
* ``clip`` casts its bounds to the tensor's dtype first (``tvm::cast``);
* ``cast`` of a float to an integer truncates toward zero; to bool, it is
  ``x != 0``.

Integer arguments of the floating-point functions give floats that the
result type's dtype (the argument's) turns back into integers, as TVM does.
"""

from __future__ import annotations

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.kernels.common import as_array, result_dtype, result_shape
from relay_xdsl.interpreter.registry import kernel


def _float(x: np.ndarray) -> np.ndarray:
    """`x` in a float dtype in which to compute a transcendental function."""
    return x if x.dtype.kind == "f" else x.astype(np.float64)


@kernel("negative")
def negative(call: Call, x: np.ndarray) -> np.ndarray:
    return np.negative(x)


@kernel("exp", "fast_exp")
def exp(call: Call, x: np.ndarray) -> np.ndarray:
    return np.exp(_float(x))


@kernel("log")
def log(call: Call, x: np.ndarray) -> np.ndarray:
    return np.log(_float(x))


@kernel("log2")
def log2(call: Call, x: np.ndarray) -> np.ndarray:
    return np.log2(_float(x))


@kernel("log10")
def log10(call: Call, x: np.ndarray) -> np.ndarray:
    return np.log10(_float(x))


@kernel("sqrt")
def sqrt(call: Call, x: np.ndarray) -> np.ndarray:
    return np.sqrt(_float(x))


@kernel("rsqrt")
def rsqrt(call: Call, x: np.ndarray) -> np.ndarray:
    """``1 / sqrt(x)``."""
    x = _float(x)
    return np.asarray(1, x.dtype) / np.sqrt(x)


@kernel("erf", "fast_erf")
def erf(call: Call, x: np.ndarray) -> np.ndarray:
    """The Gauss error function, from Numerical Recipes' ``erfcc`` (Chebyshev
    fit; fractional error of ``erfc`` below 1.2e-7), computed in float64."""
    z = np.abs(x.astype(np.float64))
    t = 1.0 / (1.0 + 0.5 * z)
    poly = (
        -z * z
        - 1.26551223
        + t
        * (
            1.00002368
            + t
            * (
                0.37409196
                + t
                * (
                    0.09678418
                    + t
                    * (
                        -0.18628806
                        + t
                        * (
                            0.27886807
                            + t
                            * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))
                        )
                    )
                )
            )
        )
    )
    erfc = t * np.exp(poly)
    return np.where(x >= 0, 1.0 - erfc, erfc - 1.0)


@kernel("tanh", "fast_tanh")
def tanh(call: Call, x: np.ndarray) -> np.ndarray:
    return np.tanh(_float(x))


@kernel("sigmoid")
def sigmoid(call: Call, x: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-x))``."""
    x = _float(x)
    one = np.asarray(1, x.dtype)
    return one / (one + np.exp(-x))


@kernel("cos")
def cos(call: Call, x: np.ndarray) -> np.ndarray:
    return np.cos(_float(x))


@kernel("sin")
def sin(call: Call, x: np.ndarray) -> np.ndarray:
    return np.sin(_float(x))


@kernel("tan")
def tan(call: Call, x: np.ndarray) -> np.ndarray:
    return np.tan(_float(x))


@kernel("cosh")
def cosh(call: Call, x: np.ndarray) -> np.ndarray:
    return np.cosh(_float(x))


@kernel("sinh")
def sinh(call: Call, x: np.ndarray) -> np.ndarray:
    return np.sinh(_float(x))


@kernel("acos")
def acos(call: Call, x: np.ndarray) -> np.ndarray:
    return np.arccos(_float(x))


@kernel("acosh")
def acosh(call: Call, x: np.ndarray) -> np.ndarray:
    return np.arccosh(_float(x))


@kernel("asin")
def asin(call: Call, x: np.ndarray) -> np.ndarray:
    return np.arcsin(_float(x))


@kernel("asinh")
def asinh(call: Call, x: np.ndarray) -> np.ndarray:
    return np.arcsinh(_float(x))


@kernel("atan")
def atan(call: Call, x: np.ndarray) -> np.ndarray:
    return np.arctan(_float(x))


@kernel("atanh")
def atanh(call: Call, x: np.ndarray) -> np.ndarray:
    return np.arctanh(_float(x))


@kernel("floor")
def floor(call: Call, x: np.ndarray) -> np.ndarray:
    return x if x.dtype.kind != "f" else np.floor(x)


@kernel("ceil")
def ceil(call: Call, x: np.ndarray) -> np.ndarray:
    return x if x.dtype.kind != "f" else np.ceil(x)


@kernel("trunc")
def trunc(call: Call, x: np.ndarray) -> np.ndarray:
    return x if x.dtype.kind != "f" else np.trunc(x)


@kernel("round")
def round(call: Call, x: np.ndarray) -> np.ndarray:
    """Rounds halves away from zero (``llvm.round``): ``round(2.5)`` is 3, ``round(-0.5)`` -1."""
    if x.dtype.kind != "f":
        return x
    whole = np.trunc(x)
    half = np.abs(x - whole) == 0.5
    return np.where(half, whole + np.sign(x), np.round(x))


@kernel("abs")
def abs(call: Call, x: np.ndarray) -> np.ndarray:
    return x if x.dtype.kind in "ub" else np.abs(x)


@kernel("sign")
def sign(call: Call, x: np.ndarray) -> np.ndarray:
    """-1, 0 or 1; 0 for NaN."""
    dtype = x.dtype
    return np.where(x > 0, np.ones((), dtype), np.where(x < 0, -np.ones((), dtype), 0)).astype(
        dtype
    )


@kernel("copy")
def copy(call: Call, x: np.ndarray) -> np.ndarray:
    return x.copy()


@kernel("logical_not")
def logical_not(call: Call, x: np.ndarray) -> np.ndarray:
    return np.logical_not(x)


@kernel("bitwise_not")
def bitwise_not(call: Call, x: np.ndarray) -> np.ndarray:
    return np.invert(x)


@kernel("isnan")
def isnan(call: Call, x: np.ndarray) -> np.ndarray:
    return np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)


@kernel("isinf")
def isinf(call: Call, x: np.ndarray) -> np.ndarray:
    return np.isinf(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)


@kernel("isfinite")
def isfinite(call: Call, x: np.ndarray) -> np.ndarray:
    return np.isfinite(x) if x.dtype.kind == "f" else np.ones(x.shape, bool)


@kernel("zeros_like")
def zeros_like(call: Call, x: np.ndarray) -> np.ndarray:
    return np.zeros(x.shape, result_dtype(call))


@kernel("ones_like")
def ones_like(call: Call, x: np.ndarray) -> np.ndarray:
    return np.ones(x.shape, result_dtype(call))


@kernel("clip")
def clip(call: Call, x: np.ndarray) -> np.ndarray:
    """``max(min(x, a_max), a_min)``, the bounds cast to x's dtype (clamped to
    its range for an integer dtype)."""
    low, high = float(call.attr("a_min")), float(call.attr("a_max"))
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        low, high = (min(max(v, info.min), info.max) for v in (low, high))
    a_min, a_max = np.asarray(low).astype(x.dtype), np.asarray(high).astype(x.dtype)
    return np.maximum(np.minimum(x, a_max), a_min)


@kernel("cast")
def cast(call: Call, x: np.ndarray) -> np.ndarray:
    """To the ``dtype`` attribute's dtype: floats to integers truncate toward zero."""
    return x.astype(result_dtype(call))


@kernel("cast_like")
def cast_like(call: Call, x: np.ndarray, like: np.ndarray) -> np.ndarray:
    return x.astype(like.dtype)


@kernel("reinterpret")
def reinterpret(call: Call, x: np.ndarray) -> np.ndarray:
    """The same bits read as ``dtype`` (of the same width)."""
    return x.view(result_dtype(call))


@kernel("full")
def full(call: Call, fill_value: np.ndarray) -> np.ndarray:
    """A tensor of ``shape`` filled with the scalar `fill_value`, cast to ``dtype``."""
    dtype = result_dtype(call)
    return np.full(result_shape(call), as_array(fill_value, dtype))


@kernel("full_like")
def full_like(call: Call, x: np.ndarray, fill_value: np.ndarray) -> np.ndarray:
    dtype = result_dtype(call)
    return np.full(x.shape, as_array(fill_value, dtype))


@kernel("zeros")
def zeros(call: Call) -> np.ndarray:
    return np.zeros(result_shape(call), result_dtype(call))


@kernel("ones")
def ones(call: Call) -> np.ndarray:
    return np.ones(result_shape(call), result_dtype(call))


@kernel("where")
def where(call: Call, condition: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``condition != 0 ? x : y``, all three broadcast together."""
    return np.where(condition != 0, x, y)
