"""A Relay function lowered to TOSA, with its inputs, weights and outputs.

`lower_module` lowers one function of a relay-dialect module into a new
``builtin.module`` holding one ``func.func`` on tensors (TOSA, plus linalg
where the conversion prefers it) that upstream MLIR compiles. Its
arguments are the Relay function's parameters, then, with
``weights_as_arguments``, one argument per weight: the weights' contents,
already in the layout the function expects, come back as arrays rather
than as text. Tuple results are flattened into the function's results.
Dynamic operators whose shape arguments are constants are made static
first (TVM's ``DynamicToStatic``, on a copy of the module: see
:mod:`relay_xdsl.dialects.relay.dynamic_to_static`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnitAttr
from xdsl.ir import Block, Region

from relay_xdsl.conversion.errors import LoweringError
from relay_xdsl.conversion.lowering import FunctionLowering, flatten
from relay_xdsl.conversion.padded_results import pad_where_made
from relay_xdsl.conversion.tosa import TosaBuilder
from relay_xdsl.conversion.values import Tensor
from relay_xdsl.dialects.relay.dynamic_to_static import with_static_shapes

C_INTERFACE = "llvm.emit_c_interface"


@dataclass
class LoweredProgram:
    """A lowered function and what calling it takes."""

    module: ModuleOp
    """The ``func.func`` on tensors, marked ``llvm.emit_c_interface``, after the
    private functions it calls (one per ``relay.fn``)."""
    function: str
    inputs: list[tuple[str, TensorType]]
    """The Relay function's parameters, by name: the first arguments."""
    weights: list[np.ndarray]
    """The arguments after the inputs, in order and in the function's layout."""
    outputs: list[TensorType]
    """The function's results (a Relay tuple's fields, flattened)."""


def lower_function(
    function: func.FuncOp,
    *,
    weights_as_arguments: bool,
    prefer_linalg: bool,
    in_place_taps: bool = True,
    outlined: list[func.FuncOp] | None = None,
) -> tuple[func.FuncOp, list[func.FuncOp], list[np.ndarray]]:
    """`function`'s lowering, the private functions it calls (its ``relay.fn``
    groups), and the weights its arguments after the inputs take.

    `outlined` holds the groups of the functions lowered before, whose count
    keeps the names of new ones unique in the module; it is extended."""
    already = len(outlined) if outlined is not None else 0
    input_types = []
    for arg in function.body.block.args:
        if not isinstance(arg.type, TensorType):
            raise LoweringError(
                f"@{function.sym_name.data}: parameter of type {arg.type} is not a tensor",
                function,
            )
        input_types.append(arg.type)
    block = Block(arg_types=input_types)
    lowering = FunctionLowering(
        TosaBuilder(block),
        weights_as_arguments=weights_as_arguments,
        prefer_linalg=prefer_linalg,
        in_place_taps=in_place_taps,
        outlined=outlined,
    )
    for param, arg in zip(function.body.block.args, block.args):
        lowering.values[param] = Tensor(param.type, arg)  # type: ignore[arg-type]
    results = [lowering.materialize(t) for t in flatten(lowering.lower_block(function.body.block))]
    block.add_op(func.ReturnOp(*results))
    lowered = func.FuncOp(
        function.sym_name.data,
        ([a.type for a in block.args], [r.type for r in results]),
        Region([block]),
    )
    lowered.attributes[C_INTERFACE] = UnitAttr()
    return lowered, lowering.outlined[already:], lowering.weights


def lower_module(
    module: ModuleOp,
    *,
    function: str = "main",
    weights_as_arguments: bool = True,
    prefer_linalg: bool = True,
    in_place_taps: bool = True,
) -> LoweredProgram:
    """Lower `module`'s function `function` (see the module docstring); without
    `in_place_taps`, every convolution by packed panels copies its taps side by
    side (rules/convolutions.py's ``IN_PLACE_TAPS_PIXELS``)."""
    module = with_static_shapes(module)
    source = next(
        (op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == function),
        None,
    )
    if source is None:
        raise LoweringError(f"the module has no function @{function}")
    lowered, outlined, weights = lower_function(
        source,
        weights_as_arguments=weights_as_arguments,
        prefer_linalg=prefer_linalg,
        in_place_taps=in_place_taps,
    )
    pad_where_made(lowered, outlined)
    inputs = [
        (arg.name_hint or f"arg{i}", arg.type) for i, arg in enumerate(source.body.block.args)
    ]
    outputs = list(lowered.function_type.outputs.data)
    return LoweredProgram(ModuleOp([*outlined, lowered]), function, inputs, weights, outputs)  # type: ignore[arg-type]
