"""Deeply nested programs: recursive code on a large stack, with an explicit budget.

Relay text nests (calls in calls, tuples in tuples, function literals in
function literals), and so do the relay dialect's regions. The parser and
the printer recurse over that nesting, and so do xDSL's verifier, printer and
cloner. Python's default recursion limit (1000 frames) stops them at a few
hundred levels.

`run_deep` runs such code in a worker thread whose stack is large enough for
`MAX_NESTING` levels, with the recursion limit raised to match while it runs.
The parser enforces `MAX_NESTING` itself and reports deeper input as a
source error; anything that still exhausts the budget surfaces as
`NestingTooDeepError`, never as a `RecursionError` or a crashed interpreter.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

from xdsl.ir import Operation

T = TypeVar("T")

MAX_NESTING = 20_000
"""Deepest nesting of expressions, types, attributes or functions that is accepted."""

FRAMES_PER_LEVEL = 12
"""Python frames one nesting level may take, in the parser, printer or xDSL."""

_RECURSION_LIMIT = MAX_NESTING * FRAMES_PER_LEVEL + 10_000
_STACK_SIZE = 1 << 30
"""Bytes of (virtual, lazily committed) stack for the worker thread: 1 GiB
holds `_RECURSION_LIMIT` frames even when every call goes through C."""

_lock = threading.Lock()
_active = 0
_saved_limit = 0
_local = threading.local()


class NestingTooDeepError(Exception):
    """The input nests deeper than relay-xdsl can process."""

    def __init__(self, what: str = "the program"):
        super().__init__(f"{what} is nested too deeply (more than {MAX_NESTING} levels) to process")


def run_deep(function: Callable[..., T], *args: object, what: str = "the program") -> T:
    """``function(*args)`` with room for `MAX_NESTING` levels of recursion.

    Exceptions propagate to the caller; a ``RecursionError`` becomes a
    `NestingTooDeepError`. Calls nest: inside a worker, `function` runs directly.
    """
    if getattr(_local, "deep", False):
        return _call(function, args, what)
    outcome: list = []

    def work() -> None:
        _local.deep = True
        try:
            outcome.append((True, _call(function, args, what)))
        except BaseException as error:  # re-raised in the calling thread  # noqa: BLE001
            outcome.append((False, error))

    previous = threading.stack_size()
    try:
        threading.stack_size(_STACK_SIZE)
        large_stack = True
    except ValueError:  # a platform that refuses: keep its default stack and limit
        large_stack = False
    if large_stack:
        _raise_limit()
    try:
        try:
            worker = threading.Thread(target=work, name="relay-xdsl-deep", daemon=True)
            worker.start()
        finally:
            threading.stack_size(previous)
        worker.join()
    finally:
        if large_stack:
            _restore_limit()
    ok, value = outcome[0]
    if ok:
        return value
    raise value.with_traceback(value.__traceback__)


def _call(function: Callable[..., T], args: tuple, what: str) -> T:
    try:
        return function(*args)
    except RecursionError:
        raise NestingTooDeepError(what) from None


def _raise_limit() -> None:
    global _active, _saved_limit
    with _lock:
        if _active == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, _RECURSION_LIMIT))
        _active += 1


def _restore_limit() -> None:
    # Other threads keep their small stacks, so the high limit lasts only as
    # long as some worker needs it.
    global _active
    with _lock:
        _active -= 1
        if _active == 0:
            sys.setrecursionlimit(_saved_limit)


def walk_ops(root: Operation) -> Iterator[Operation]:
    """The operations under `root` (itself first) in pre-order, like ``root.walk()``.

    xDSL's ``walk`` nests one generator per region level, so each operation
    costs as much as its depth: quadratic in a deep nest. This walk keeps an
    explicit stack and costs the same at any depth.
    """
    stack = [root]
    while stack:
        op = stack.pop()
        yield op
        children = [
            child for region in op.regions for block in region.blocks for child in block.ops
        ]
        stack.extend(reversed(children))
