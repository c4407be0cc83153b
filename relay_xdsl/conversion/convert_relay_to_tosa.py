"""convert-relay-to-tosa: every Relay function to TOSA.

Each ``func.func`` of relay ops becomes a ``func.func`` on tensors of TOSA
operations (see :mod:`relay_xdsl.conversion.lowering`): NCHW activations
are held in NHWC from the first convolution on, weights are transposed
when compiling, and every weight stays in the module as ``tosa.const``
(``relay-xdsl compile`` passes them as arguments instead). What TOSA
expresses badly is decomposed into TOSA all the same (a grouped
convolution into one convolution per group); ``convert-relay-to-linalg``
writes it in linalg instead. An operator without a lowering rule is an
error naming it. Hand the result to upstream MLIR in its generic form
(``xdsl-opt --print-op-generic``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from relay_xdsl.conversion.program import lower_function
from relay_xdsl.dialects.relay.dynamic_to_static import dynamic_to_static


def is_relay_function(op: Operation) -> bool:
    """Whether `op` is a ``func.func`` with relay ops in its body."""
    return (
        isinstance(op, func.FuncOp)
        and not op.is_declaration
        and any(inner.name.startswith("relay.") for inner in op.body.walk())
    )


def convert_functions(module: ModuleOp, *, prefer_linalg: bool) -> None:
    """Replace each Relay function of `module` by its lowering, weights inline;
    other functions (a test's ``main`` that prints results) stay as they are.
    Dynamic calls with constant shape arguments are made static first."""
    dynamic_to_static(module)
    outlined: list[func.FuncOp] = []  # shared, so that the groups' names are unique
    lowered = [
        (
            function,
            lower_function(
                function,
                weights_as_arguments=False,
                prefer_linalg=prefer_linalg,
                outlined=outlined,
            ),
        )
        for function in list(module.ops)
        if isinstance(function, func.FuncOp) and is_relay_function(function)
    ]  # all first: a function's calls of others read their Relay bodies
    for function, (entry, outlined, _) in lowered:
        for op in (*outlined, entry):
            module.body.block.insert_op_before(op, function)
        module.body.block.erase_op(function)


@dataclass(frozen=True)
class ConvertRelayToTosaPass(ModulePass):
    """Lower every Relay function to TOSA (see the module docstring)."""

    name = "convert-relay-to-tosa"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_functions(op, prefer_linalg=False)
