"""The values a Relay program computes, as the interpreter holds them.

* a tensor is a ``numpy.ndarray`` (arrays.py);
* a tuple is a Python ``tuple`` of values;
* a function value is a `Closure` (a ``relay.function`` with the values it
  captured), a `GlobalFunction` (``relay.global @f``) or a
  `ConstructorFunction` (``relay.constructor "Cons"``);
* a reference is a `Reference`, a mutable cell shared by whoever holds it;
* a value of an algebraic data type is an `AdtValue`: its constructor's
  name and its fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.ir import SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.interpreter.errors import InterpreterError


@dataclass(frozen=True, eq=False)
class Closure:
    """A ``relay.function`` value: the op, the SSA values from outside its
    body that the body uses (`free`), and their values when the function was
    made (`captured`)."""

    function: relay.FunctionOp
    free: tuple[SSAValue, ...]
    captured: tuple[Any, ...]


@dataclass(frozen=True)
class GlobalFunction:
    """A global function used as a value (``relay.global @f``)."""

    symbol: str


@dataclass(frozen=True)
class ConstructorFunction:
    """A constructor used as a function value (``relay.constructor "Cons"``)."""

    constructor: str


@dataclass(eq=False)
class Reference:
    """A reference cell (``ref(v)``): ``ref_write`` changes what every holder reads."""

    value: Any


@dataclass(frozen=True, eq=False)
class AdtValue:
    """A value built by a constructor: ``Cons(x, xs)``."""

    constructor: str
    fields: tuple[Any, ...]


def flatten(value: Any, what: str = "the result") -> list[Any]:
    """The tensors of `value`, a tensor or a nest of tuples of tensors, in order."""
    if isinstance(value, tuple):
        return [array for field in value for array in flatten(field, what)]
    if isinstance(value, Closure | GlobalFunction | ConstructorFunction):
        kind = "a function"
    elif isinstance(value, Reference):
        kind = "a reference"
    elif isinstance(value, AdtValue):
        kind = f"a value of an algebraic data type ({value.constructor})"
    else:
        return [value]
    raise InterpreterError(f"{what} is {kind}, not tensors")
