"""Deeply nested programs: an opt-in for deep recursion, and an explicit budget.

Relay text nests (calls in calls, tuples in tuples, function literals in
function literals), and so do the relay dialect's regions. The parser and
the printer recurse over that nesting, and so do xDSL's verifier, printer and
cloner, and the interpreter over a program's recursion. Python's default
recursion limit (1000 frames) stops them at a few dozen to a few hundred
levels.

Library calls (``parse_relay``, ``print_relay``, ``run``) recurse on the
caller's own stack, under the caller's recursion limit, and change nothing
process-wide; where they run out of it they raise `NestingTooDeepError`,
whose message says how to opt in. The opt-in is `run_deep` (public as
``relay_xdsl.run_deep``): it runs a function in a worker thread whose stack
is large enough for `MAX_NESTING` levels. The ``relay-xdsl`` command, the
``xdsl-opt`` plugin's frontends and targets, the explorer and the benchmarks
enter it. Within it, the parser enforces `MAX_NESTING` itself and reports
deeper input as a source error; anything that still exhausts the budget
surfaces as `NestingTooDeepError`, never as a ``RecursionError`` or a crashed
interpreter.

The opt-in is a function, not a context manager: the body of a ``with``
block runs on the caller's thread, whose stack (8 MiB for the main thread)
is fixed when the thread starts. Raising the recursion limit alone would let
recursion through C code (``__repr__``, generators, C extensions) overflow
that stack and crash the process instead of raising ``RecursionError``.

What other threads see. CPython 3.11 has one recursion limit for the whole
interpreter, so while any `run_deep` worker runs, every thread runs under
the raised limit (`DEEP_RECURSION_LIMIT`); it is put back when the last
worker ends. Concurrent calls from several threads share one raise, and a
limit that a host sets meanwhile is kept: `run_deep` puts the old limit back
only if the limit is still the one it set, and it leaves a limit that is
already high enough alone. Two consequences for a threaded host:

* during a deep run, a runaway recursion in another thread is stopped at
  the raised limit rather than at the host's. Plain Python calls take no C
  stack in 3.11, so that is still a ``RecursionError``; recursion through
  C code (``__repr__``, C extensions) on a small thread stack could
  overflow that stack first;
* a thread that went deeper than the host's limit meanwhile gets a
  ``RecursionError`` on its next call once the limit is put back.

Hosts for which this matters can set the limit to `DEEP_RECURSION_LIMIT`
themselves (then `run_deep` never changes it) or keep relay-xdsl to one
thread. The worker's large stack is chosen through ``threading.stack_size``,
also process-wide: it is set and put back under a lock around the worker's
start, so only a thread started by someone else in that instant would also
get a large (virtual, lazily committed) stack.
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

DEEP_RECURSION_LIMIT = MAX_NESTING * FRAMES_PER_LEVEL + 10_000
"""The recursion limit while a `run_deep` worker runs."""

_STACK_SIZE = 1 << 30
"""Bytes of (virtual, lazily committed) stack for the worker thread: 1 GiB
holds `DEEP_RECURSION_LIMIT` frames even when every call goes through C."""

_lock = threading.Lock()
"""Guards the state below, and ``threading.stack_size`` while a worker starts."""
_workers = 0
"""`run_deep` workers running."""
_limit_to_restore: int | None = None
"""The limit to put back when the last worker ends; None if `run_deep` did not change it."""
_local = threading.local()


class NestingTooDeepError(Exception):
    """The input nests deeper than the call has room for.

    Within `run_deep`, deeper than `MAX_NESTING` levels; outside it, deeper
    than the caller's stack and recursion limit allow, and then the message
    says how to opt in to `run_deep`.
    """

    def __init__(self, what: str = "the program"):
        if in_run_deep():
            message = f"{what} is nested too deeply (more than {MAX_NESTING} levels) to process"
        else:
            message = (
                f"{what} nests too deeply for Python's recursion limit "
                f"({sys.getrecursionlimit()}); to allow up to {MAX_NESTING} levels, "
                "make the call through relay_xdsl.run_deep(function, *args)"
            )
        super().__init__(message)


def run_deep(
    function: Callable[..., T], *args: object, what: str = "the program", **kwargs: object
) -> T:
    """``function(*args, **kwargs)`` with room for `MAX_NESTING` levels of
    recursion: the opt-in for deeply nested programs, e.g.
    ``run_deep(parse_relay, text, source_name="model.relay")``.

    `function` runs in a worker thread with a large stack, under a raised
    recursion limit (see the module docstring for what other threads see
    meanwhile), and the calling thread waits for it. Exceptions propagate to
    the caller; a ``RecursionError`` becomes a `NestingTooDeepError` naming
    `what`. Calls nest: inside a worker, `function` runs directly. Safe to
    call from several threads at once.
    """
    if in_run_deep():
        return nesting_checked(function, *args, what=what, **kwargs)
    outcome: list = []

    def work() -> None:
        _local.deep = True
        try:
            outcome.append((True, nesting_checked(function, *args, what=what, **kwargs)))
        except BaseException as error:  # re-raised in the calling thread  # noqa: BLE001
            outcome.append((False, error))

    worker = threading.Thread(target=work, name="relay-xdsl-deep", daemon=True)
    large_stack = _start(worker)
    try:
        worker.join()
    finally:
        if large_stack:
            _worker_ended()
    ok, value = outcome[0]
    if ok:
        return value
    raise value.with_traceback(value.__traceback__)


def in_run_deep() -> bool:
    """Whether this thread is a `run_deep` worker, with room for `MAX_NESTING` levels."""
    return getattr(_local, "deep", False)


def nesting_checked(
    function: Callable[..., T], *args: object, what: str = "the program", **kwargs: object
) -> T:
    """``function(*args, **kwargs)`` on the caller's stack, as library calls
    run: a ``RecursionError`` becomes a `NestingTooDeepError` naming `what`."""
    try:
        return function(*args, **kwargs)
    except RecursionError:
        raise NestingTooDeepError(what) from None


def _start(worker: threading.Thread) -> bool:
    """Start `worker` on a large stack under the deep limit; False if the platform
    refuses the stack size (the worker then runs with the default stack and limit)."""
    global _workers, _limit_to_restore
    with _lock:
        try:
            previous = threading.stack_size(_STACK_SIZE)
        except ValueError:
            worker.start()
            return False
        try:
            if _workers == 0:
                current = sys.getrecursionlimit()
                if current < DEEP_RECURSION_LIMIT:
                    sys.setrecursionlimit(DEEP_RECURSION_LIMIT)
                    _limit_to_restore = current
            _workers += 1
            try:
                worker.start()
            except BaseException:
                _workers -= 1
                _restore_limit()
                raise
        finally:
            threading.stack_size(previous)
    return True


def _worker_ended() -> None:
    global _workers
    with _lock:
        _workers -= 1
        _restore_limit()


def _restore_limit() -> None:
    """With the lock held: once no worker runs, the limit as it was, unless changed since."""
    global _limit_to_restore
    if _workers or _limit_to_restore is None:
        return
    restore, _limit_to_restore = _limit_to_restore, None
    if sys.getrecursionlimit() != DEEP_RECURSION_LIMIT:
        return  # someone set another limit meanwhile: theirs stands
    try:
        sys.setrecursionlimit(restore)
    except RecursionError:
        # This thread is itself deeper than the old limit (it went deep while the
        # limit was raised); lowering would fail it, so the limit stays raised.
        pass


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
        if op.regions:  # most ops have none: skip building an empty list
            children = [
                child for region in op.regions for block in region.blocks for child in block.ops
            ]
            stack.extend(reversed(children))
