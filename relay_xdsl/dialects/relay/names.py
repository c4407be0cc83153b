"""Relay variable names as SSA name hints, recorded in locations too.

Names are cosmetic: what is bound to a variable is recorded by
``relay.let`` (bindings.py), never by whether a value has a name.

Relay names (``%data``, ``%FunctionVar_2_0``) become SSA name hints, so they
show in the MLIR and come back in Relay text. Two spellings change on the
way, reversibly, because MLIR tooling treats them specially:

* xDSL reads a trailing ``_<digits>`` as its own uniquing suffix and drops
  it, so ``FunctionVar_2_0`` is written ``FunctionVar_2.0`` (Relay names
  never contain ``.``);
* MLIR names may not contain ``/``, which Relay names may; it is written
  ``$`` (Relay names never contain ``$``).

Upstream MLIR drops SSA names, so each name is also recorded as a ``NameLoc``
location, ``loc("FunctionVar_2.0")`` (wrapping the value's source span, if
any), on the block argument or on the single-result op defining the value.
``mlir-opt --mlir-print-debuginfo`` keeps locations, and with
``--mlir-use-nameloc-as-prefix`` it even spells the SSA names from them, so
the names come back as hints. Without that flag, `relay_name` falls back to
the recorded location: MLIR's ``%argN`` placeholders and unnamed results
defer to it.

The hint is the name; the location is its copy for the trip. Passes that
move a name (a ``relay.fn`` taking over the name of the value its body
returns) may leave the old copy behind: a location name is ignored where the
enclosing ``relay.fn``'s result carries it, and `record_name_locations`
rewrites every copy from the hints before printing for upstream tools.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import LocationAttr, NameLoc, NoneAttr, StringAttr, UnknownLoc
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue

from relay_xdsl.support.depth import walk_ops
from relay_xdsl.support.memo import memoised
from relay_xdsl.support.prebuilt import prebuilt

_RELAY_SUFFIX = re.compile(r"(.*)_(\d+)$")
_HINT_SUFFIX = re.compile(r"(.*)\.(\d+)$")
_MLIR_PLACEHOLDER = re.compile(r"arg\d+")
"""How upstream MLIR names block arguments it has no name for."""


def set_relay_name(value: SSAValue, name: str) -> None:
    """Give `value` the Relay name `name` (as its hint and in its location)."""
    hint = _hint_of(name)
    value.name_hint = hint
    _set_recorded_name(value, hint)


@memoised(maxsize=2**16)
def _hint_of(name: str) -> str:
    """The SSA name hint spelling Relay name `name` (memoised: passes name
    thousands of parameters ``p0``, ``p1``, ...)."""
    hint = name.replace("/", "$")
    match = _RELAY_SUFFIX.match(hint)
    if match:
        hint = f"{match[1]}.{match[2]}"
    if not SSAValue.is_valid_name(hint):
        hint = "v" + hint
    return hint


def relay_name(value: SSAValue) -> str | None:
    """The Relay name of `value`, if it has one."""
    hint = value.name_hint
    if hint is None or (isinstance(value, BlockArgument) and _MLIR_PLACEHOLDER.fullmatch(hint)):
        recorded = recorded_name(value)
        if recorded is not None and not _taken_over(value, recorded):
            hint = recorded
    if hint is None:
        return None
    match = _HINT_SUFFIX.match(hint)
    if match:
        hint = f"{match[1]}_{match[2]}"
    return hint.replace("$", "/").replace(".", "_")


def recorded_name(value: SSAValue) -> str | None:
    """The name hint recorded in the ``NameLoc`` of `value`, if any."""
    location = _location(value)
    if isinstance(location, NameLoc):
        return location.desc.data
    return None


def record_name_locations(module: Operation) -> None:
    """Make every value's ``NameLoc`` match its Relay name, before printing for MLIR.

    Values with a Relay name get ``loc("name"(span))``; values without one
    lose any stale name location, keeping their span.
    """
    for op in walk_ops(module):
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    _sync(arg)
        if len(op.results) == 1:
            _sync(op.results[0])


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


def _sync(value: SSAValue) -> None:
    name = relay_name(value)
    if name is None:
        if recorded_name(value) is not None:
            _set_location(value, _unwrap(_location(value)))
        return
    hint = value.name_hint
    if hint is None or (isinstance(value, BlockArgument) and _MLIR_PLACEHOLDER.fullmatch(hint)):
        hint = recorded_name(value)
    if hint is not None and recorded_name(value) != hint:
        _set_recorded_name(value, hint)


def _set_recorded_name(value: SSAValue, hint: str) -> None:
    if isinstance(value, OpResult) and len(value.owner.results) != 1:
        return
    child = _unwrap(_location(value))
    inner: Attribute = _NONE if isinstance(child, UnknownLoc) else child
    _set_location(value, _name_location(hint, inner))


_NONE = NoneAttr()


@memoised(maxsize=4096)
def _name_location(hint: str, inner: Attribute) -> NameLoc:
    # `inner` is a location or NoneAttr (`_set_recorded_name`), as NameLoc's
    # verifier requires; checking it again would cost more than the rest.
    return prebuilt(NameLoc, StringAttr(hint), inner)


def _taken_over(value: SSAValue, recorded: str) -> bool:
    """Whether the ``relay.fn`` returning `value` carries its recorded name instead."""
    for use in value.uses:
        op = use.operation
        fn = op.parent_op() if op.name == "relay.return" else None
        if (
            fn is not None
            and fn.name == "relay.fn"
            and any(result.name_hint == recorded for result in fn.results)
        ):
            return True
    return False


def _location(value: SSAValue) -> LocationAttr:
    if isinstance(value, BlockArgument):
        return value.location
    if isinstance(value, OpResult):
        return value.owner.location
    return UnknownLoc()


def _set_location(value: SSAValue, location: LocationAttr) -> None:
    if isinstance(value, BlockArgument):
        value.location = location
    elif isinstance(value, OpResult) and len(value.owner.results) == 1:
        value.owner.location = location


def _unwrap(location: LocationAttr) -> LocationAttr:
    """`location` without its ``NameLoc`` wrappers."""
    inner: Attribute = location
    while isinstance(inner, NameLoc):
        inner = inner.location
    # A NameLoc holds a location or, for none, NoneAttr.
    return inner if isinstance(inner, LocationAttr) else UnknownLoc()
