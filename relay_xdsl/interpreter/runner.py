"""Running a function of a module: the interpreter, its inputs and its outputs.

The interpreter is xDSL's, with one change: an error raised while an op
runs passes up unchanged. xDSL's adds to it a note holding the whole
module, printed, at each op it passes through, and an op that runs a region
(a call, an ``if``) passes it on, so an error at recursion depth d printed
the module d times: minutes for a deep recursion. The interpreter's own
errors name the operator or the op instead. A run recurses on the
caller's stack; deep recursion needs the caller's opt-in (`run_deep`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Attribute
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import InterpretationError

from relay_xdsl.dialects.relay.names import relay_name
from relay_xdsl.interpreter.arrays import describe, fits
from relay_xdsl.interpreter.dispatch import OperatorFunctions
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.language import LanguageFunctions
from relay_xdsl.interpreter.random_values import random_constants as draw_random_constants
from relay_xdsl.interpreter.structure import StructureFunctions
from relay_xdsl.interpreter.values import flatten
from relay_xdsl.support.depth import NestingTooDeepError, in_run_deep, nesting_checked
from relay_xdsl.support.xdsl_internals import interpreter_without_notes


def make_interpreter(module: ModuleOp, random_constants: int | None = None) -> Interpreter:
    """An xDSL interpreter for `module` with the relay dialect's and func's implementations.

    `random_constants` is the seed of the values of constants that have none
    (``meta[relay.Constant][i]`` without a ``#[metadata]`` section)."""
    # Without xDSL's notes (see the module docstring).
    interpreter = interpreter_without_notes(
        module, lambda op: InterpreterError(f"the interpreter cannot run '{op.name}'")
    )
    values = None if random_constants is None else draw_random_constants(module, random_constants)
    interpreter.register_implementations(StructureFunctions(values))
    interpreter.register_implementations(LanguageFunctions())
    interpreter.register_implementations(OperatorFunctions())
    interpreter.register_implementations(FuncFunctions())
    return interpreter


def function_named(module: ModuleOp, function: str) -> FuncOp:
    """The global function `function` of `module`."""
    op = SymbolTable.lookup_symbol(module, function)
    if not isinstance(op, FuncOp):
        raise InterpreterError(f"the module has no function @{function}")
    return op


def parameters(module: ModuleOp, function: str = "main") -> list[tuple[str, Attribute]]:
    """The names (Relay's, else ``argN``) and types of `function`'s parameters."""
    args = function_named(module, function).body.block.args
    return [(relay_name(arg) or f"arg{arg.index}", arg.type) for arg in args]


def run(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray],
    function: str = "main",
    random_constants: int | None = None,
) -> list[np.ndarray]:
    """Run `function` of `module` on `inputs` (by parameter name).

    The result is a list of arrays: the tensors of a tuple result in order
    (nested tuples flattened), or the one tensor. Each input must have its
    parameter's shape and dtype. Constants without a value need
    `random_constants`, a seed. Anything the interpreter cannot run raises
    `InterpreterError`. The run recurses on the caller's stack: a program
    that recurses deeper than it has room for raises `NestingTooDeepError`,
    which says how to opt in to ``run_deep``; recursion that exhausts even
    that room is an `InterpreterError`.
    """
    func = function_named(module, function)
    params = parameters(module, function)
    args = check_inputs(params, inputs)
    interpreter = make_interpreter(module, random_constants)
    try:
        results = nesting_checked(interpreter.call_op, func, tuple(args), what="the run")
    except NestingTooDeepError:
        if not in_run_deep():
            raise  # the caller has not made room for deep recursion: the error says how
        raise InterpreterError("the program recursed too deeply") from None
    except InterpretationError as error:  # xDSL's own: an external function, say
        raise InterpreterError(str(error)) from None
    return [np.asarray(array) for value in results for array in flatten(value)]


def check_inputs(
    params: list[tuple[str, Attribute]], inputs: Mapping[str, np.ndarray]
) -> list[np.ndarray]:
    """The arguments for `params`, from `inputs`; an error for a missing,
    unknown or ill-shaped input."""
    names = [name for name, _ in params]
    unknown = sorted(set(inputs) - set(names))
    if unknown:
        raise InterpreterError(
            f"unknown input {', '.join(unknown)} (the parameters are: {', '.join(names) or 'none'})"
        )
    args = []
    for name, type_ in params:
        if name not in inputs:
            raise InterpreterError(f"missing input {name}")
        array = np.asarray(inputs[name])
        if isinstance(type_, TensorType) and not fits(array, type_):
            comma = "," if array.ndim == 1 else ""
            raise InterpreterError(
                f"input {name} is ({', '.join(map(str, array.shape))}{comma}) {array.dtype}, "
                f"the parameter is {describe(type_)}"
            )
        args.append(array)
    return args
