"""Process-wide memo tables, and emptying them.

Where a module repeats the same arguments thousands of times (parameter
names ``p0``, ``p1``, ...; a handful of tensor types; each layer's operator
signature), pure functions of strings and immutable xDSL attributes keep
their results in bounded tables. The tables outlive a single import or pass,
so a second run over the same graph finds them warm. `clear_memos` empties
them all: the benchmarks call it before every timed run, so that each run
is timed cold, as a user's one run would be.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

_CLEARERS: list[Callable[[], None]] = []


def memoised(maxsize: int) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, emptied by `clear_memos`."""

    def wrap(function: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(function)
        _CLEARERS.append(cached.cache_clear)
        # typeshed types the wrapper as its own class taking any hashable
        # arguments, not as `function`; what it calls is `function` itself.
        return cached  # type: ignore[return-value]

    return wrap


def memoised_by_identity(maxsize: int) -> Callable[[F], F]:
    """A memo of a one-argument function keyed by the identity of its argument,
    emptied by `clear_memos` and when it holds `maxsize` entries.

    For functions of immutable xDSL attributes that a module shares (the
    importer makes one object per spelling): looking one up by identity
    costs a dictionary lookup where hashing it by value walks its whole
    structure. Each entry keeps its argument alive, so an identity is not
    reused while the entry stands.
    """

    def wrap(function: F) -> F:
        table: dict[int, tuple[object, object]] = {}
        _CLEARERS.append(table.clear)

        @functools.wraps(function)
        def memo(argument: object) -> object:
            entry = table.get(id(argument))
            if entry is not None and entry[0] is argument:
                return entry[1]
            result = function(argument)
            if len(table) >= maxsize:
                table.clear()
            table[id(argument)] = (argument, result)
            return result

        return memo  # type: ignore[return-value]

    return wrap


def register(clear: Callable[[], None]) -> None:
    """Have `clear_memos` call `clear` (for a table that is not an ``lru_cache``)."""
    _CLEARERS.append(clear)


def clear_memos() -> None:
    """Empty every memo table."""
    for clear in _CLEARERS:
        clear()
