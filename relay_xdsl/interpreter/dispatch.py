"""Running a Relay operator: one implementation for every registered
operator op, which calls the kernel registered under its name
(:mod:`relay_xdsl.interpreter.registry`; the kernels are imported
the first time an operator needs one). An operator without a kernel, and an unknown operator (``relay.op``), are errors that
name the operator: the interpreter never guesses. The kernel's result is
checked against the call's result type, shape and dtype, before it goes on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, TupleType
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Attribute

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.registry import NoKernel, Operator
from relay_xdsl.interpreter.arrays import describe, tensor_dtype
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.registry import KERNELS, Kernel


def kernel_of(row: Operator) -> Kernel:
    """The kernel of `row`; an error naming the operator if it has none."""
    kernel = KERNELS.get(row.name)
    if kernel is not None:
        return kernel
    if isinstance(row.kernel, NoKernel):
        raise InterpreterError(f"operator '{row.name}' has no kernel: {row.kernel.reason}")
    raise InterpreterError(f"operator '{row.name}' has no kernel yet")


def run_operator(op: RegisteredOperatorOp, args: tuple[Any, ...]) -> Any:
    """The value of one operator call, from its argument values."""
    row = op.OPERATOR
    kernel = kernel_of(row)
    call = Call(row.schema, [a.type for a in op.args], op.attributes, op.result.type)
    try:
        with np.errstate(all="ignore"):  # inf, NaN and wrap-around are results, not errors
            result = kernel(call, *args)
    except InterpreterError as error:
        raise InterpreterError(f"{row.name}: {error}") from None
    except (ArithmeticError, IndexError, TypeError, ValueError) as error:
        raise InterpreterError(f"{row.name}: {type(error).__name__}: {error}") from None
    return conform(result, op.result.type, row.name)


def conform(value: Any, type_: Attribute, what: str) -> Any:
    """`value` as a value of `type_`: arrays in the type's dtype, shapes checked."""
    if isinstance(type_, TupleType):
        fields = type_.types.data
        if not isinstance(value, tuple) or len(value) != len(fields):
            raise InterpreterError(f"{what}: the kernel did not return a {len(fields)}-tuple")
        return tuple(conform(v, t, what) for v, t in zip(value, fields))
    if not isinstance(type_, TensorType):
        return value  # a type not inferred: nothing to check against
    array = np.asarray(value)
    dtype = tensor_dtype(type_)
    if array.dtype != dtype:
        array = array.astype(dtype)
    shape = type_.get_shape()
    if array.ndim != len(shape) or any(
        d != DYNAMIC_INDEX and d != n for d, n in zip(shape, array.shape)
    ):
        raise InterpreterError(
            f"{what}: the kernel gave shape {array.shape}, the type says {describe(type_)}"
        )
    return array


def _run(
    self: InterpreterFunctions, interpreter: Interpreter, op: RegisteredOperatorOp, args: tuple
) -> tuple[Any, ...]:
    return (run_operator(op, args),)


def _run_unknown(
    self: InterpreterFunctions,
    interpreter: Interpreter,
    op: relay.GenericOperatorOp,
    args: tuple,
) -> tuple[Any, ...]:
    raise InterpreterError(f"operator '{op.operator_name}' is unknown: it has no kernel")


def _operator_functions() -> type[InterpreterFunctions]:
    """The implementations of every operator op: `_run`, registered once per op class."""
    namespace: dict[str, Any] = {
        f"run_{cls.__name__}": impl(cls)(_run)
        for cls in (*relay.OPERATOR_OPS, *relay.RELAX_OPERATOR_OPS)
    }
    namespace["run_unknown"] = impl(relay.GenericOperatorOp)(_run_unknown)
    return register_impls(type("OperatorFunctions", (InterpreterFunctions,), namespace))


OperatorFunctions = _operator_functions()
"""The interpreter functions of the operator ops."""
