"""Transcendental functions: TOSA's where it has them, else ``linalg.generic``
over upstream's ``math`` operations.

``fast_exp``, ``fast_erf`` and ``fast_tanh`` are TVM's approximations of
``exp``, ``erf`` and ``tanh``; the interpreter computes the functions
themselves, and so do TOSA's operators. ``log2`` and ``log10`` scale
``tosa.log``. The trigonometric and hyperbolic functions TOSA lacks are one
``math`` operation per element, which upstream turns into calls of libm;
float16 elements are computed in float32 (libm has no float16 functions)
and rounded back, as numpy computes them; so are TOSA's operators on
float16, whose scaling would otherwise round twice.
"""

from __future__ import annotations

import math as python_math
from collections.abc import Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import Float16Type, IntegerType, f32
from xdsl.ir import Operation, SSAValue

from relay_xdsl.conversion import linalg
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Tensor, permuted_type


def float_operand(call: RuleCall) -> tuple[Tensor, SSAValue]:
    """Argument 0, which must have a float element type, in its layout."""
    x = call.tensor(0)
    if isinstance(x.element_type, IntegerType):
        raise call.error(f"integer operands ({x.element_type}) are not supported")
    return x, call.value(x, x.perm)


def _tosa(call: RuleCall, tosa_name: str, scale: float = 1.0) -> Tensor:
    """``tosa.<tosa_name>`` of the operand, times `scale` unless it is one;
    float16 computed in float32 and rounded once."""
    x, value = float_operand(call)
    emit = call.emit
    value = emit.cast(value, f32)
    type_ = value.type
    result = emit.op(tosa_name, [value], type_)
    if scale != 1.0:
        result = emit.mul(result, emit.scalar(scale, f32, x.rank), type_)
    return call.result(emit.cast(result, x.element_type), x.perm)


def _math(call: RuleCall, operation: type[math.FloatingPointLikeUnaryMathOperation]) -> Tensor:
    """`operation` of each element, float16 computed in float32."""
    x, value = float_operand(call)
    element = x.element_type

    def compute(args: Sequence[SSAValue]) -> list[Operation]:
        (a,) = args
        if not isinstance(element, Float16Type):
            return [operation(a)]
        wide = arith.ExtFOp(a, f32)
        result = operation(wide.result)
        return [wide, result, arith.TruncFOp(result.result, element)]

    type_ = permuted_type(call.result_type, x.perm)
    return call.result(linalg.elementwise(call.emit, [value], type_, compute), x.perm)


@lowering("fast_exp")
def fast_exp(call: RuleCall) -> Tensor:
    return _tosa(call, "exp")


@lowering("fast_erf")
def fast_erf(call: RuleCall) -> Tensor:
    return _tosa(call, "erf")


@lowering("fast_tanh")
def fast_tanh(call: RuleCall) -> Tensor:
    return _tosa(call, "tanh")


@lowering("log2")
def log2(call: RuleCall) -> Tensor:
    """``log(x) / log(2)``."""
    return _tosa(call, "log", 1 / python_math.log(2))


@lowering("log10")
def log10(call: RuleCall) -> Tensor:
    """``log(x) / log(10)``."""
    return _tosa(call, "log", 1 / python_math.log(10))


@lowering("tan")
def tan(call: RuleCall) -> Tensor:
    return _math(call, math.TanOp)


@lowering("cosh")
def cosh(call: RuleCall) -> Tensor:
    return _math(call, math.CoshOp)


@lowering("sinh")
def sinh(call: RuleCall) -> Tensor:
    return _math(call, math.SinhOp)


@lowering("acos")
def acos(call: RuleCall) -> Tensor:
    return _math(call, math.AcosOp)


@lowering("acosh")
def acosh(call: RuleCall) -> Tensor:
    return _math(call, math.AcoshOp)


@lowering("asin")
def asin(call: RuleCall) -> Tensor:
    return _math(call, math.AsinOp)


@lowering("asinh")
def asinh(call: RuleCall) -> Tensor:
    return _math(call, math.AsinhOp)


@lowering("atan")
def atan(call: RuleCall) -> Tensor:
    return _math(call, math.AtanOp)


@lowering("atanh")
def atanh(call: RuleCall) -> Tensor:
    return _math(call, math.AtanhOp)
