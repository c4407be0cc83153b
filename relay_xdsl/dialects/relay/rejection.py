"""How a type relation rejects a call: :class:`Reject`.

A relation (forward, :mod:`~relay_xdsl.dialects.relay.inference`, or
backward, :mod:`~relay_xdsl.dialects.relay.backward`) raises :class:`Reject`
and nothing else for a call it does not type; any other exception out of a
relation is a bug in it, and propagates as one.
"""

from __future__ import annotations


class Reject(Exception):
    """The relation does not hold for this call (TVM would raise a type error).

    Its message, when it has one, says why in the operator's terms; the
    operator's name is prefixed by whoever reports it. A backward relation
    raises it without a message when it cannot decide yet."""


def require(condition: bool, message: str = "") -> None:
    """Reject the call, saying `message`, unless `condition` holds."""
    if not condition:
        raise Reject(message)
