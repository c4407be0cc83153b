"""What names and expressions stand for while the Relay text parser reads.

A name (``%x``, ``%0``) is bound in a :class:`Scope` to a :data:`Binding`;
an expression evaluates to an :data:`ExpressionValue`. Most are SSA values;
the others are kept as they were written until their use decides what they
become: a function literal (called in place, a ``relay.fn``; used as a
value, a ``relay.function``), a let-bound function literal, a global
(``@f``) or an operator name (``nn.relu``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.relay_text.lexer import Token


class CaptureError(Exception):
    """A ``relay.fn`` body (isolated) refers to a value from outside it."""


@dataclass(eq=False)
class FnLiteral:
    """A function literal, instantiated as a ``relay.fn`` at each call."""

    start: int  # token index of `fn`
    scope: Scope
    instances: dict[tuple[Attribute, ...], relay.FnOp] = field(default_factory=dict)
    calls: list[relay.FnOp] = field(default_factory=list)
    number: IntegerAttr | None = None  # its relay.literal, once it is called twice


@dataclass(eq=False)
class LetFunction:
    """A function literal bound by ``let``: its ``relay.function`` is built
    where the ``let`` stands, now or (untyped parameters) at its first use."""

    start: int  # token index of `fn`
    scope: Scope
    name: Token
    anchor_block: Block
    anchor_op: Operation | None
    declared: Attribute | None
    value: SSAValue | None = None


@dataclass(frozen=True)
class GlobalRef:
    """``@name``: a call of it is a ``func.call``, its value a ``relay.global``."""

    name: str
    token: Token


class OperatorRef(NamedTuple):
    """An operator name: a call of it is the operator's op, its value a
    ``relay.operator_ref``. (A named tuple: one is made for every call.)"""

    name: str
    token: Token


Binding = SSAValue | FnLiteral | LetFunction | OperatorRef
"""What a name is bound to."""

ExpressionValue = Binding | GlobalRef
"""What an expression denotes: a value, or something only a call may use
as it stands (anything else is made an SSA value where it is used)."""


@dataclass(eq=False)
class Scope:
    """Variable bindings by spelling (``%x``, ``%0``); `isolated` scopes (function
    bodies) see no outer values."""

    parent: Scope | None = None
    isolated: bool = False
    names: dict[str, Binding] = field(default_factory=dict)

    def child(self) -> Scope:
        """A scope inside this one that sees its bindings (a branch, a let, a closure)."""
        return Scope(parent=self)

    def lookup(self, name: str) -> tuple[Binding | None, bool]:
        """The binding of `name` and whether it crosses an isolated boundary."""
        scope: Scope | None = self
        crossed = False
        while scope is not None:
            if name in scope.names:
                return scope.names[name], crossed
            crossed = crossed or scope.isolated
            scope = scope.parent
        return None, False
