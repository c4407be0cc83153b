"""relay-infer-type: solve and check the module's types, TVM's ``InferType``.

Every ``!relay.incomplete`` type that the program determines is filled in:
from operator relations run forwards and backwards (a convolution weight
from ``channels``, ``kernel_size`` and the data; batch-norm parameters from
the data), through tuples, ``relay.let``, function literals and calls of
global functions, across the whole module (see
:mod:`relay_xdsl.dialects.relay.type_solver`). Types nothing determines stay
``!relay.incomplete``. Known types never change, but they are checked: a
contradiction (an operator whose arguments do not fit its relation, a call
whose result type is not what its arguments give) fails the pass with the
operator's own explanation, at the op's place in the input when its
location records one (``file:line:col: error: ...``), and so does a
``relay.match`` without ``partial`` that misses a case (TVM's match
exhaustion check, :mod:`~relay_xdsl.dialects.relay.match_exhaustion`). An
``unchecked`` ``relay.let`` (a declared type TVM's parser did not check) is
checked here.

The importer runs the same solver when the Relay text leaves types unknown;
the pass is for IR edited or written by hand since.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from relay_xdsl.dialects.relay.adts import MatchOp
from relay_xdsl.dialects.relay.match_exhaustion import missing_cases, not_handled
from relay_xdsl.dialects.relay.type_solver import TypeInferenceError, infer_types
from relay_xdsl.transforms.diagnostics import PassFailedAtError, source_position


@dataclass(frozen=True)
class RelayInferTypePass(ModulePass):
    """Fill in incomplete types and check the known ones."""

    name = "relay-infer-type"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            infer_types(op)
            for match in op.walk():
                if isinstance(match, MatchOp) and (cases := missing_cases(match)):
                    raise TypeInferenceError(not_handled(cases), match)
        except TypeInferenceError as error:
            position = source_position(error.op)
            if position is not None:
                raise PassFailedAtError(f"relay-infer-type: {error.message}", *position) from None
            where = f" ('{error.op.name}' at {error.op.location})" if error.op is not None else ""
            raise PassFailedException(f"relay-infer-type: {error.message}{where}") from None
