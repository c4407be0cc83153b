"""A `Program` read from MLIR text: TOSA written by hand, or printed by another tool.

`program_from_mlir` parses the text with xDSL, keeping ops xDSL does not
know as they are (they go back to upstream in generic form), and takes the
function's arguments as its inputs, then as many trailing ones as there are
`weights`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp, TensorType
from xdsl.dialects.func import Func, FuncOp
from xdsl.dialects.tensor import Tensor
from xdsl.parser import Parser

from relay_xdsl.compiler.errors import CompileError


@dataclass
class MLIRProgram:
    """A `Program` (artifact.py): `module` 's @`function` with its inputs, weights and outputs."""

    module: ModuleOp
    function: str
    inputs: list[tuple[str, TensorType[Any]]]
    weights: list[np.ndarray] = field(default_factory=list)
    outputs: list[TensorType[Any]] = field(default_factory=list)


def mlir_context() -> Context:
    """builtin, func, arith and tensor; any other op is kept unregistered, as written."""
    context = Context(allow_unregistered=True)
    for dialect in (Builtin, Func, Arith, Tensor):
        context.load_dialect(dialect)
    return context


def program_from_mlir(
    text: str, *, function: str = "main", weights: Sequence[np.ndarray] = (), name: str = "<mlir>"
) -> MLIRProgram:
    """The program of @`function` in `text`: its last ``len(weights)`` arguments are `weights`,
    the others its inputs, named ``arg0``, ``arg1``, ..."""
    module = Parser(mlir_context(), text, name).parse_module()
    func = next(
        (op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == function), None
    )
    if func is None:
        raise CompileError(f"{name} has no function @{function}")
    arguments = list(func.function_type.inputs.data)
    if len(weights) > len(arguments):
        raise CompileError(f"@{function} takes {len(arguments)} arguments, {len(weights)} weights")
    types: list[TensorType[Any]] = []
    for type_ in [*arguments, *func.function_type.outputs.data]:
        if not isinstance(type_, TensorType):
            raise CompileError(f"@{function} has a non-tensor argument or result {type_}")
        types.append(type_)
    count = len(arguments) - len(weights)
    return MLIRProgram(
        module,
        function,
        [(f"arg{i}", types[i]) for i in range(count)],
        [np.asarray(w) for w in weights],
        types[len(arguments) :],
    )
