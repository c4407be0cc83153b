"""Relax exports of mapped operators on dtypes TVM 0.27 cannot compile them for:
the same Relax operator on the arguments cast to a dtype it can, and the result
cast back where it has the arguments' dtype."""

from __future__ import annotations

from typing import Any

from tvm.relax import op as R

from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.relax_mapping import RelaxOp
from relay_xdsl.exporters.relax_compositions.common import dtype_of, is_float, result_dtype
from relay_xdsl.exporters.relax_compositions.registry import ExportContext, relax_export

FLOAT16_WITHOUT_INTRINSIC = ("cosh", "sinh", "acos", "acosh", "asin", "asinh", "atan")
"""LLVM code generation has no float16 intrinsic for these; they compute in float32."""


def _argument_dtype(op: RegisteredOperatorOp) -> str:
    return dtype_of(op.args[0].type, op)


def _computing_dtype(op: RegisteredOperatorOp) -> str | None:
    """The dtype `op` computes in on Relax, or None where its own dtype serves."""
    dtype = _argument_dtype(op)
    if op.operator_name in FLOAT16_WITHOUT_INTRINSIC:
        return "float32" if dtype == "float16" else None
    if op.operator_name == "power":  # Relax's power takes floats only
        return None if is_float(dtype) else "float64"
    # equal/not_equal: LLVM code compares bools as floats
    return "int8" if dtype == "bool" else None


WIDENED = (*FLOAT16_WITHOUT_INTRINSIC, "power", "equal", "not_equal")
"""Every operator exported here where its dtype needs it."""


def _needs_widening(op: RegisteredOperatorOp) -> bool:
    return _computing_dtype(op) is not None


@relax_export(*WIDENED, when=_needs_widening)
def widened(ctx: ExportContext, op: RegisteredOperatorOp, args: list[Any]) -> Any:
    """The mapped Relax operator in the computing dtype (float64 for integer
    ``power``, exact up to 2**53), cast back to the result's dtype."""
    dtype = _computing_dtype(op)
    mapping = op.OPERATOR.relax
    assert dtype is not None and isinstance(mapping, RelaxOp)
    relax_op = getattr(R, mapping.relax_name.removeprefix("relax."))
    result = relax_op(*(ctx.emit(R.astype(a, dtype)) for a in args))
    if result_dtype(op) != _argument_dtype(op):  # a comparison's bool
        return result
    return R.astype(ctx.emit(result), result_dtype(op))
