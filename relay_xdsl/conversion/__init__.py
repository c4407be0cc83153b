"""Lowering the relay dialect to TOSA (and linalg) for upstream MLIR.

* :mod:`~relay_xdsl.conversion.values`: lowered values, their layouts and known contents;
* :mod:`~relay_xdsl.conversion.tosa`: TOSA operations in MLIR's generic form;
* :mod:`~relay_xdsl.conversion.lowering`: the walk over a function, and rule dispatch;
* :mod:`~relay_xdsl.conversion.rules`: one rule per operator, named by its registry row;
* :mod:`~relay_xdsl.conversion.program`: `lower_module`, a function with its weights as arguments;
* the passes ``convert-relay-to-tosa`` and ``convert-relay-to-linalg``.

The conversion needs numpy (the ``interp`` extra): weights are transposed
and folded when compiling.
"""

from relay_xdsl.conversion.errors import LoweringError
from relay_xdsl.conversion.program import LoweredProgram, lower_module

__all__ = ["LoweredProgram", "LoweringError", "lower_module"]
