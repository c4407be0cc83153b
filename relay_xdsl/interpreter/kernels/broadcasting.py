"""Kernels of the binary operators that broadcast: arithmetic, comparisons,
logical and bitwise.

Operands broadcast as in numpy (TVM's broadcast rule is the same). Division
and remainder follow TVM v0.19's ``include/tvm/topi/broadcast.h``:

* ``divide``: floats divide; integers truncate toward zero (``div``, C's ``/``);
* ``floor_divide``: integers ``floordiv``; floats ``floor(a / b)``;
* ``trunc_divide``: integers ``truncdiv``; floats ``trunc(a / b)``;
* ``mod``: ``truncmod`` (C's ``%``, the sign of the dividend), floats too;
* ``floor_mod``: integers ``floormod`` (the sign of the divisor); floats
  ``a - floor(a / b) * b``;
* ``trunc_mod``: integers ``truncmod``; floats ``a - trunc(a / b) * b``.

Integer division by zero is undefined in TVM; here it gives 0. Integer
arithmetic wraps around, as in TVM's generated code.
"""

from __future__ import annotations

import numpy as np

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.registry import kernel


def _is_int(a: np.ndarray) -> bool:
    return a.dtype.kind in "iub"


def _truncdiv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer division rounding toward zero, exact for every width."""
    safe = np.where(b == 0, 1, b).astype(b.dtype)
    quotient = np.floor_divide(a, safe)
    rest = a - quotient * safe
    quotient = quotient + ((rest != 0) & ((a < 0) != (safe < 0))).astype(quotient.dtype)
    return np.where(b == 0, 0, quotient).astype(quotient.dtype)


@kernel("add")
def add(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.add(a, b)


@kernel("subtract")
def subtract(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.subtract(a, b)


@kernel("multiply")
def multiply(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.multiply(a, b)


@kernel("divide")
def divide(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Floats: ``a / b``; integers: truncated toward zero."""
    return _truncdiv(a, b) if _is_int(a) else np.true_divide(a, b)


@kernel("floor_divide")
def floor_divide(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integers: ``floordiv``; floats: ``floor(a / b)``."""
    if _is_int(a):
        return np.where(b == 0, 0, np.floor_divide(a, np.where(b == 0, 1, b).astype(b.dtype)))
    return np.floor(np.true_divide(a, b))


@kernel("trunc_divide")
def trunc_divide(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integers: ``truncdiv``; floats: ``trunc(a / b)``."""
    return _truncdiv(a, b) if _is_int(a) else np.trunc(np.true_divide(a, b))


@kernel("power")
def power(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.power(a, b)


@kernel("mod")
def mod(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``truncmod``: the remainder has the dividend's sign (C's ``%``, ``fmod``)."""
    return np.fmod(a, b)


@kernel("floor_mod")
def floor_mod(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integers: ``floormod`` (the divisor's sign); floats: ``a - floor(a / b) * b``."""
    if _is_int(a):
        return np.mod(a, b)
    return a - np.floor(np.true_divide(a, b)) * b


@kernel("trunc_mod")
def trunc_mod(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integers: ``truncmod``; floats: ``a - trunc(a / b) * b``."""
    if _is_int(a):
        return np.fmod(a, b)
    return a - np.trunc(np.true_divide(a, b)) * b


@kernel("maximum")
def maximum(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.maximum(a, b)


@kernel("minimum")
def minimum(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.minimum(a, b)


@kernel("equal")
def equal(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.equal(a, b)


@kernel("not_equal")
def not_equal(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.not_equal(a, b)


@kernel("less")
def less(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.less(a, b)


@kernel("less_equal")
def less_equal(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.less_equal(a, b)


@kernel("greater")
def greater(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.greater(a, b)


@kernel("greater_equal")
def greater_equal(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.greater_equal(a, b)


@kernel("logical_and")
def logical_and(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.logical_and(a, b)


@kernel("logical_or")
def logical_or(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.logical_or(a, b)


@kernel("logical_xor")
def logical_xor(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.logical_xor(a, b)


@kernel("bitwise_and")
def bitwise_and(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_and(a, b)


@kernel("bitwise_or")
def bitwise_or(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_or(a, b)


@kernel("bitwise_xor")
def bitwise_xor(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_xor(a, b)


@kernel("left_shift")
def left_shift(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.left_shift(a, b)


@kernel("right_shift")
def right_shift(call: Call, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Arithmetic for signed integers, logical for unsigned ones."""
    return np.right_shift(a, b)
