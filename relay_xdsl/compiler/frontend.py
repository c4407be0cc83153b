"""A relay-dialect module as a `Program`: through the relay → TOSA conversion.

`lower` calls ``relay_xdsl.conversion.program.lower_module`` (the
conversion's own package); a checkout without it gets a `CompileError`,
not an ImportError. With ``random_constants=SEED``, constants known only
as ``meta[relay.Constant][i]`` first get the random values the interpreter
and the Relax exporter draw for the same seed, so that all three run the
same program.
"""

from __future__ import annotations

import importlib
from typing import cast

from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, ModuleOp, TensorType

from relay_xdsl.compiler.artifact import Program
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.dialects import relay
from relay_xdsl.interpreter.arrays import random_constants as draw_random_constants
from relay_xdsl.interpreter.errors import InterpreterError

CONVERSION = "relay_xdsl.conversion.program"
"""The module that defines ``lower_module`` and ``LoweredProgram``."""


def lower(
    module: ModuleOp,
    *,
    function: str = "main",
    weights_as_arguments: bool = True,
    random_constants: int | None = None,
) -> Program:
    """`module` 's @`function` lowered to TOSA (see the module docstring); `module` is changed
    only by `random_constants`."""
    if random_constants is not None:
        fill_random_constants(module, random_constants)
    try:
        conversion = importlib.import_module(CONVERSION)
    except ImportError as error:
        if error.name is not None and not CONVERSION.startswith(error.name):
            raise
        raise CompileError(
            "the relay → TOSA conversion (relay_xdsl.conversion) is not part of this checkout"
        ) from None
    program = conversion.lower_module(
        module, function=function, weights_as_arguments=weights_as_arguments
    )
    return cast(Program, program)


def fill_random_constants(module: ModuleOp, seed: int) -> None:
    """Give each ``relay.constant meta[i]`` without a value a random one drawn from `seed`."""
    try:
        values = draw_random_constants(module, seed)
    except InterpreterError as error:
        raise CompileError(str(error)) from None
    for op in list(module.walk()):
        if isinstance(op, relay.ConstantOp) and op.value is None and op.meta_index is not None:
            type_ = op.result.type
            assert isinstance(type_, TensorType)
            array = values[op.meta_index.value.data]
            data = array.astype("uint8") if array.dtype == bool else array
            value = DenseIntOrFPElementsAttr(type_, BytesAttr(data.tobytes()))
            op.attributes["value"] = value
            del op.attributes["meta_index"]
