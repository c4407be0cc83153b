"""Relay variable names as SSA name hints.

Relay names (``%data``, ``%FunctionVar_2_0``) become SSA name hints, so they
show in the MLIR and come back in Relay text. Two spellings change on the
way, reversibly, because MLIR tooling treats them specially:

* xDSL reads a trailing ``_<digits>`` as its own uniquing suffix and drops
  it, so ``FunctionVar_2_0`` is written ``FunctionVar_2.0`` (Relay names
  never contain ``.``);
* MLIR names may not contain ``/``, which Relay names may; it is written
  ``$`` (Relay names never contain ``$``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from xdsl.ir import SSAValue

_RELAY_SUFFIX = re.compile(r"(.*)_(\d+)$")
_HINT_SUFFIX = re.compile(r"(.*)\.(\d+)$")


def set_relay_name(value: SSAValue, name: str) -> None:
    """Give `value` the Relay name `name`."""
    hint = name.replace("/", "$")
    match = _RELAY_SUFFIX.match(hint)
    if match:
        hint = f"{match[1]}.{match[2]}"
    if not SSAValue.is_valid_name(hint):
        hint = "v" + hint
    value.name_hint = hint


def relay_name(value: SSAValue) -> str | None:
    """The Relay name of `value`, if it has one."""
    hint = value.name_hint
    if hint is None:
        return None
    match = _HINT_SUFFIX.match(hint)
    if match:
        hint = f"{match[1]}_{match[2]}"
    return hint.replace("$", "/").replace(".", "_")


@contextmanager
def names_kept(values: Iterable[SSAValue]) -> Iterator[None]:
    """Keep the names of `values` through a rewrite.

    Replacing a block argument by a value gives the value the argument's
    name when it has none; inlining must not rename the caller's values.
    """
    saved = [(value, value.name_hint) for value in values]
    yield
    for value, name in saved:
        value.name_hint = name
