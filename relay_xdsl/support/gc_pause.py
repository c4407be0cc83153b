"""Pausing Python's cyclic garbage collector while a large module is built or rewritten.

CPython runs a full collection whenever the objects that survived earlier
collections have grown by a quarter, and a full collection traverses every
tracked object: the whole module and everything else alive. Building or
rewriting a module of N ops allocates O(N) long-lived objects (ops, uses,
attributes), so each such step triggers a few full collections over an
O(N) heap, and the cost per op grows with the size of the module. On a
100k-op chain, ``relay-merge-composite`` spends 40 % of its time there
(87 µs/op against 53 µs/op with the collector paused, and 51 µs/op at 1k
ops). These steps create hardly any garbage cycles meanwhile; reference
counting frees everything else as usual, and the collector runs again as
soon as the step returns.

The collector is switched on and off for the whole process, so only the
programs that own the process pause it: the ``relay-xdsl`` command, the
``xdsl-opt`` plugin's frontends, targets and passes (tools/), ``make demo``
and the benchmarks. Library functions (importers, exporters, passes) never
touch it; a program that calls them on large modules can do as the drivers
do and wrap the call in `gc_paused`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the duration (re-enabled only if it was on)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def with_gc_paused(function: Callable[P, T]) -> Callable[P, T]:
    """`function`, run with the cyclic garbage collector paused."""

    @wraps(function)
    def paused(*args: P.args, **kwargs: P.kwargs) -> T:
        with gc_paused():
            return function(*args, **kwargs)

    return paused
