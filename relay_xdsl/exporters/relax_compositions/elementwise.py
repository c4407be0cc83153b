"""Relax exports of the elementwise operators without a Relax counterpart:
truncating division, approximations, logarithms and casts."""

from __future__ import annotations

from typing import Any

from tvm import topi
from tvm.relax import op as R

from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.exporters.relax_compositions.common import (
    dtype_of,
    is_float,
    result_dtype,
)
from relay_xdsl.exporters.relax_compositions.registry import ExportContext, relax_export


@relax_export("trunc_divide")
def trunc_divide(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """Integers: ``divide``, which truncates; floats: ``trunc(divide)``."""
    quotient = R.divide(*args)
    return R.trunc(ctx.emit(quotient)) if is_float(result_dtype(op)) else quotient


@relax_export("trunc_mod")
def trunc_mod(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``mod``, whose remainder has the dividend's sign (``fmod`` for floats)."""
    return R.mod(*args)


_SAME_FUNCTION = {"fast_exp": R.exp, "fast_erf": R.erf, "fast_tanh": R.tanh}


@relax_export(*_SAME_FUNCTION)
def approximation(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """The exact function: the approximation computes the same one."""
    return _SAME_FUNCTION[op.operator_name](*args)


@relax_export("log2", "log10", te=True)
def logarithm(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``log2``/``log10``."""
    compute = topi.log2 if op.operator_name == "log2" else topi.log10
    return ctx.call_te(compute, *args)


@relax_export("copy", "on_device", "device_copy")
def identity(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """The argument itself: Relax values are immutable, and one device holds them all."""
    return args[0]


@relax_export("cast_like")
def cast_like(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """``astype`` to the second argument's dtype."""
    return R.astype(args[0], dtype_of(op.args[1].type, op))


@relax_export("reinterpret", te=True)
def reinterpret(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """topi's ``reinterpret``."""
    return ctx.call_te(topi.reinterpret, args[0], result_dtype(op))
