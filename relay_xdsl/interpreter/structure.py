"""Running the structural ops: constants, tuples, ``relay.let`` and ``relay.fn``.

* ``relay.constant`` is its dense value, or, for ``meta[relay.Constant][i]``
  kept without a value, the random value drawn for index ``i`` when the run
  asked for random constants (an error otherwise);
* ``relay.tuple`` is a Python tuple, ``relay.tuple_get_item`` its field;
* ``relay.let`` is its operand: a variable is its value;
* ``relay.fn`` runs its body at its position on its operands, and
  ``relay.return`` ends the body with its operand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from relay_xdsl.dialects import relay
from relay_xdsl.interpreter.arrays import dense_array
from relay_xdsl.interpreter.errors import InterpreterError


@register_impls
@dataclass
class StructureFunctions(InterpreterFunctions):
    """The structural ops; `random_constants` are the values of constants
    known only by their ``meta`` index, by index."""

    random_constants: dict[int, np.ndarray] | None = None
    _constants: dict[relay.ConstantOp, np.ndarray] = field(default_factory=dict)

    @impl(relay.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: relay.ConstantOp, args: PythonValues
    ) -> PythonValues:
        array = self._constants.get(op)
        if array is None:
            array = self._constant(op)
            array.flags.writeable = False  # shared by every run of the op
            self._constants[op] = array
        return (array,)

    def _constant(self, op: relay.ConstantOp) -> np.ndarray:
        if isinstance(op.value, DenseIntOrFPElementsAttr):
            return dense_array(op.value)
        if op.meta_index is None:
            raise InterpreterError("dense_resource constants are not supported")
        index = op.meta_index.value.data
        if self.random_constants is None:
            raise InterpreterError(
                f"constant meta[relay.Constant][{index}] has no value (the Relay text had no "
                "#[metadata] section); give --params FILE for its weights or "
                "--random-constants SEED (random_constants=SEED) for random ones"
            )
        return self.random_constants[index]

    @impl(relay.TupleOp)
    def run_tuple(
        self, interpreter: Interpreter, op: relay.TupleOp, args: PythonValues
    ) -> PythonValues:
        return (tuple(args),)

    @impl(relay.TupleGetItemOp)
    def run_tuple_get_item(
        self, interpreter: Interpreter, op: relay.TupleGetItemOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        return (value[op.index.value.data],)

    @impl(relay.LetOp)
    def run_let(
        self, interpreter: Interpreter, op: relay.LetOp, args: PythonValues
    ) -> PythonValues:
        return args

    @impl(relay.FnOp)
    def run_fn(self, interpreter: Interpreter, op: relay.FnOp, args: PythonValues) -> PythonValues:
        return interpreter.run_ssacfg_region(op.body, args, "relay.fn")

    @impl_terminator(relay.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: relay.ReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()
