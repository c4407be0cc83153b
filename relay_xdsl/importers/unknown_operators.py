"""What the Relay text parser says about an operator it cannot type.

An operator the dialect does not define is kept as ``relay.op "name"``
when the text annotates its type; without an annotation its result type
is unknown. Most often the name is misspelt, so the message says the
operator is unknown and suggests the closest defined names.
"""

from __future__ import annotations

import difflib

from relay_xdsl.dialects import relay


def untyped_operator_message(name: str) -> str:
    """The error for a call of `name` whose result type is unknown."""
    if name in relay.OPERATORS:
        return f"cannot infer the result type of '{name}'; add a /* ty=... */ annotation"
    close = difflib.get_close_matches(name, list(relay.OPERATORS), n=3, cutoff=0.75)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return (
        f"unknown operator '{name}'{hint} (relay-xdsl cannot infer the result type of "
        "an operator it does not define; add a /* ty=... */ annotation to keep it)"
    )
