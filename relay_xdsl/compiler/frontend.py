"""A relay-dialect module as a `Program`: through the relay → TOSA conversion.

`lower` calls the conversion's ``lower_module``, after TVM's
``DynamicToStatic`` and, where the function has no groups yet, TVM's
inference simplifications and ``relay-fuse-ops``. With ``random_constants=SEED``, constants known only
as ``meta[relay.Constant][i]`` first get the random values the interpreter
and the Relax exporter draw for the same seed, so that all three run the
same program.

The simplifications (`SIMPLIFICATIONS`) are those TVM's ``relay.build`` runs
before it fuses: batch norms become a multiply and an add
(``relay-simplify-inference``), and the multiply is folded into the weights
of the convolution before it (``relay-fold-scale-axis``), each chain of
constants computed once (``relay-fold-constant``). A batch norm after a
convolution then costs nothing at run time: its scale is in the weights and
its shift is the bias the convolution sums into (conversion/rules/bias.py);
left alone, it was a pass of its own over every activation of a CNN. Only
the order of rounding changes.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.conversion import LoweredProgram, LoweringError, lower_module
from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.dynamic_to_static import with_static_shapes
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.random_values import give_random_values
from relay_xdsl.transforms.fold_constant import RelayFoldConstantPass
from relay_xdsl.transforms.fold_scale_axis import RelayFoldScaleAxisPass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
from relay_xdsl.transforms.simplify_inference import RelaySimplifyInferencePass

SIMPLIFICATIONS = (
    RelaySimplifyInferencePass,
    RelayFoldConstantPass,
    RelayFoldScaleAxisPass,
    RelayFoldConstantPass,
)
"""The passes run before fusing, in order (see the module docstring)."""


def lower(
    module: ModuleOp,
    *,
    function: str = "main",
    weights_as_arguments: bool = True,
    random_constants: int | None = None,
    fuse: bool = True,
    in_place_taps: bool = True,
) -> LoweredProgram:
    """`module` 's @`function` lowered to TOSA (see the module docstring); `module` is changed
    only by `random_constants`.

    With `fuse` (the default), a function without ``relay.fn`` groups is first
    simplified by `SIMPLIFICATIONS` and grouped by ``relay-fuse-ops`` (on a
    copy), as TVM simplifies and fuses before it builds:
    each group becomes a function of its own, which keeps LLVM's optimiser fast.
    Dynamic calls are made static before that, as TVM's ``DynamicToStatic`` runs
    before its ``FuseOps``: inside a group, a constant shape argument would be a
    parameter. `in_place_taps` is ``lower_module`` 's."""
    if random_constants is not None:
        fill_random_constants(module, random_constants)
    module = with_static_shapes(module)
    if fuse and not any(isinstance(op, relay.FnOp) for op in module.walk()):
        module = module.clone()
        try:
            for simplification in SIMPLIFICATIONS:
                simplification().apply(Context(), module)
            RelayFuseOpsPass().apply(Context(), module)
        except PassFailedException as error:
            raise CompileError(str(error)) from None
    try:
        return lower_module(
            module,
            function=function,
            weights_as_arguments=weights_as_arguments,
            in_place_taps=in_place_taps,
        )
    except LoweringError as error:
        raise CompileError(str(error)) from None


def fill_random_constants(module: ModuleOp, seed: int) -> None:
    """Give each ``relay.constant meta[i]`` without a value its random one for `seed`
    (``give_random_values``)."""
    try:
        give_random_values(module, seed)
    except InterpreterError as error:
        raise CompileError(str(error)) from None
