"""Division and remainder, with TVM's rounding (``include/tvm/topi/broadcast.h``).

Integers divide with ``tosa.intdiv``, which truncates toward zero, in i32
(8- and 16-bit operands widened exactly, the result narrowed back) or i64;
the floor variants correct the truncated quotient where the remainder is
non-zero and its sign differs from the divisor's. A zero divisor gives 0,
as in the interpreter: it is replaced by one before dividing (TOSA leaves
division by zero undefined, and the CPU traps on it); so is -1, the
quotient negated after, as the most negative integer divided by -1
overflows (it wraps, as in the interpreter).

Floats: ``divide`` of float32 multiplies by the reciprocal
(``tosa.reciprocal``); the other divisions divide exactly (``arith.divf`` in a
``linalg.generic``) so that an exact quotient rounds as in TVM; ``mod`` is
``arith.remf`` (C's ``fmod``); ``floor_mod`` and ``trunc_mod`` are
``a - round(a / b) * b`` in TOSA's arithmetic, rounding after each step as
TVM's generated code does.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, TensorType, f32
from xdsl.ir import SSAValue

from relay_xdsl.conversion import linalg
from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.rules.elementwise import broadcast_operands
from relay_xdsl.conversion.rules.rounding import truncated
from relay_xdsl.conversion.values import Tensor, permuted_type

_Integers = Callable[[RuleCall, "_IntegerDivision"], SSAValue]
_Floats = Callable[[RuleCall, SSAValue, SSAValue, TensorType], SSAValue]


class _IntegerDivision:
    """The truncated quotient and remainder of two integer tensors (widened to
    i32 where narrower), a zero divisor read as one (the quotient then made
    zero by `or_zero`), with the tests the other roundings need."""

    def __init__(self, call: RuleCall, a: SSAValue, b: SSAValue, type_: TensorType):
        emit = call.emit
        self.emit = emit
        self.a, self.b = emit.widened(a), emit.widened(b)
        element = self.a.type.get_element_type()  # type: ignore[attr-defined]
        self.type = TensorType(element, type_.get_shape())
        self.boolean = TensorType(IntegerType(1), type_.get_shape())
        self.rank = type_.get_num_dims()
        self.zero, self.one = emit.scalar(0, element, self.rank), emit.scalar(1, element, self.rank)
        divisor_truth = TensorType(IntegerType(1), self.b.type.get_shape())  # type: ignore[attr-defined]
        self.by_zero = emit.op("equal", [self.b, self.zero], divisor_truth)
        # The most negative integer divided by -1 overflows, and the CPU traps:
        # dividing by one and negating gives the wrapped quotient (the same).
        by_minus_one = emit.op(
            "equal", [self.b, emit.scalar(-1, element, self.rank)], divisor_truth
        )
        one_instead = emit.op("logical_or", [self.by_zero, by_minus_one], divisor_truth)
        divisor = emit.select(one_instead, self.one, self.b, self.b.type)
        quotient = emit.op("intdiv", [self.a, divisor], self.type)
        product = emit.mul(quotient, divisor, self.type)
        self.remainder = emit.op("sub", [self.a, product], self.type)
        negated = emit.op("sub", [self.zero, quotient], self.type)
        self.quotient = emit.select(by_minus_one, negated, quotient, self.type)

    def negative(self, x: SSAValue) -> SSAValue:
        shape = x.type.get_shape()  # type: ignore[attr-defined]
        return self.emit.op("greater", [self.zero, x], TensorType(IntegerType(1), shape))

    def rounds_down(self) -> SSAValue:
        """Where the floor differs from the truncation: a non-zero remainder
        whose sign differs from the divisor's."""
        emit = self.emit
        nonzero = emit.op(
            "logical_not",
            [emit.op("equal", [self.remainder, self.zero], self.boolean)],
            self.boolean,
        )
        signs = emit.op(
            "logical_xor", [self.negative(self.remainder), self.negative(self.b)], self.boolean
        )
        return emit.op("logical_and", [nonzero, signs], self.boolean)

    def or_zero(self, x: SSAValue) -> SSAValue:
        """`x`, zero where the divisor is."""
        return self.emit.select(self.by_zero, self.zero, x, self.type)


def _divided(call: RuleCall, integers: _Integers, floats: _Floats) -> Tensor:
    (a, b), perm = broadcast_operands(call)
    type_ = permuted_type(call.result_type, perm)
    if isinstance(type_.get_element_type(), IntegerType):
        division = _IntegerDivision(call, a, b, type_)
        result = call.emit.cast(integers(call, division), type_.get_element_type())
    else:
        result = floats(call, a, b, type_)
    return call.result(result, perm)


def _exact_quotient(call: RuleCall, a: SSAValue, b: SSAValue, type_: TensorType) -> SSAValue:
    """``a / b`` rounded once (``arith.divf``)."""
    return linalg.elementwise(
        call.emit, [a, b], type_, lambda args: [arith.DivfOp(args[0], args[1])]
    )


def _floor_quotient(call: RuleCall, a: SSAValue, b: SSAValue, type_: TensorType) -> SSAValue:
    return call.emit.op("floor", [_exact_quotient(call, a, b, type_)], type_)


def _trunc_quotient(call: RuleCall, a: SSAValue, b: SSAValue, type_: TensorType) -> SSAValue:
    return truncated(call.emit, _exact_quotient(call, a, b, type_))


def _remainder(rounded: _Floats) -> _Floats:
    """``a - rounded(a, b) * b``."""

    def remainder(call: RuleCall, a: SSAValue, b: SSAValue, type_: TensorType) -> SSAValue:
        product = call.emit.mul(rounded(call, a, b, type_), b, type_)
        return call.emit.op("sub", [a, product], type_)

    return remainder


def _truncated_quotient(call: RuleCall, division: _IntegerDivision) -> SSAValue:
    return division.or_zero(division.quotient)


def _floor_quotient_integers(call: RuleCall, division: _IntegerDivision) -> SSAValue:
    emit, type_ = call.emit, division.type
    lower = emit.op("sub", [division.quotient, division.one], type_)
    return division.or_zero(emit.select(division.rounds_down(), lower, division.quotient, type_))


def _truncated_remainder(call: RuleCall, division: _IntegerDivision) -> SSAValue:
    return division.remainder


def _floor_remainder(call: RuleCall, division: _IntegerDivision) -> SSAValue:
    emit, type_ = call.emit, division.type
    shifted = emit.op("add", [division.remainder, division.b], type_)
    return emit.select(division.rounds_down(), shifted, division.remainder, type_)


@lowering("divide")
def divide(call: RuleCall) -> Tensor:
    """float32: ``a * reciprocal(b)`` (the reciprocal of a known divisor computed
    when compiling); float16: ``a / b`` rounded once, where the product would
    round twice; integers: the quotient truncated toward zero."""
    if call.result_type.get_element_type() != f32:
        return _divided(call, _truncated_quotient, _exact_quotient)
    divisor = call.tensor(1)
    if divisor.array is not None:
        reciprocal = Tensor(divisor.type, array=(1 / divisor.array).astype(divisor.array.dtype))
        (a, b), perm = broadcast_operands(call, [call.tensor(0), reciprocal])
    else:
        (a, b), perm = broadcast_operands(call)
        b = call.emit.op("reciprocal", [b], b.type)
    return call.result(call.emit.mul(a, b, permuted_type(call.result_type, perm)), perm)


@lowering("trunc_divide")
def trunc_divide(call: RuleCall) -> Tensor:
    """``trunc(a / b)``."""
    return _divided(call, _truncated_quotient, _trunc_quotient)


@lowering("floor_divide")
def floor_divide(call: RuleCall) -> Tensor:
    """``floor(a / b)``."""
    return _divided(call, _floor_quotient_integers, _floor_quotient)


@lowering("mod")
def mod(call: RuleCall) -> Tensor:
    """The remainder with the dividend's sign (C's ``%`` and ``fmod``)."""
    return _divided(
        call,
        _truncated_remainder,
        lambda call, a, b, type_: linalg.elementwise(
            call.emit,
            [a, b],
            type_,
            lambda args: [linalg.scalar_op("arith.remf", args, args[0].type)],
        ),
    )


@lowering("trunc_mod")
def trunc_mod(call: RuleCall) -> Tensor:
    """Integers: the remainder with the dividend's sign; floats: ``a - trunc(a / b) * b``."""
    return _divided(call, _truncated_remainder, _remainder(_trunc_quotient))


@lowering("floor_mod")
def floor_mod(call: RuleCall) -> Tensor:
    """Integers: the remainder with the divisor's sign; floats: ``a - floor(a / b) * b``."""
    return _divided(call, _floor_remainder, _remainder(_floor_quotient))
