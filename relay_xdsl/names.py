"""Relay variable names as SSA name hints.

Relay names (``%data``, ``%FunctionVar_2_0``) are kept verbatim as name
hints. xDSL's ``name_hint`` setter strips a trailing ``_<digits>`` (its own
uniquing suffix), which would turn ``FunctionVar_2_0`` into ``FunctionVar_2``;
so the hint is stored directly once the name is known to be a valid MLIR name.
Relay identifiers may contain ``/``, which MLIR names may not; it is stored
as ``$``, which Relay identifiers never contain.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from xdsl.ir import SSAValue


def set_relay_name(value: SSAValue, name: str) -> None:
    """Give `value` the Relay name `name`, exactly."""
    hint = name.replace("/", "$")
    if not SSAValue.is_valid_name(hint):
        hint = "v" + hint
    value._name = hint  # pyright: ignore[reportPrivateUsage]


def relay_name(value: SSAValue) -> str | None:
    """The Relay name of `value`, if it has one."""
    hint = value.name_hint
    return None if hint is None else hint.replace("$", "/")


@contextmanager
def names_kept(values: Iterable[SSAValue]) -> Iterator[None]:
    """Keep the names of `values` through a rewrite.

    Replacing a block argument by a value gives the value the argument's
    name when it has none; inlining must not rename the caller's values.
    """
    saved = [(value, value._name) for value in values]  # pyright: ignore[reportPrivateUsage]
    yield
    for value, name in saved:
        value._name = name  # pyright: ignore[reportPrivateUsage]
