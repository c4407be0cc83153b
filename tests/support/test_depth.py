"""run_deep: deep recursion on a worker, and what the rest of the process sees.

Outside run_deep, recursion runs on the caller's stack and running out of it
is a NestingTooDeepError that says how to opt in. The recursion limit and ``threading.stack_size`` are process-wide in
CPython 3.11; run_deep changes them only while a worker runs, shares one
change between concurrent calls, puts them back afterwards and keeps a
limit that someone else set meanwhile.
"""

from __future__ import annotations

import sys
import threading

import pytest

from relay_xdsl.support import depth
from relay_xdsl.support.depth import (
    DEEP_RECURSION_LIMIT,
    MAX_NESTING,
    NestingTooDeepError,
    in_run_deep,
    nesting_checked,
    run_deep,
)


def _recurse(levels: int) -> int:
    return 0 if levels == 0 else 1 + _recurse(levels - 1)


@pytest.fixture(autouse=True)
def limit_as_it_was():
    limit, stack = sys.getrecursionlimit(), threading.stack_size()
    yield
    assert depth._workers == 0
    sys.setrecursionlimit(limit)
    threading.stack_size(stack)


def test_deep_recursion_runs_and_everything_is_put_back():
    limit, stack = sys.getrecursionlimit(), threading.stack_size()
    assert run_deep(_recurse, 50_000) == 50_000
    assert (sys.getrecursionlimit(), threading.stack_size()) == (limit, stack)


def test_exhausting_the_budget_is_a_clean_error():
    with pytest.raises(NestingTooDeepError, match="the test is nested too deeply"):
        run_deep(_recurse, 10 * DEEP_RECURSION_LIMIT, what="the test")


def test_outside_the_opt_in_recursion_stays_on_the_callers_stack_and_says_how_to_opt_in():
    limit, stack = sys.getrecursionlimit(), threading.stack_size()
    assert not in_run_deep()
    assert nesting_checked(_recurse, 100) == 100
    with pytest.raises(NestingTooDeepError) as raised:
        nesting_checked(_recurse, 50_000, what="the test")
    assert str(raised.value) == (
        f"the test nests too deeply for Python's recursion limit ({limit}); to allow up to "
        f"{MAX_NESTING} levels, make the call through relay_xdsl.run_deep(function, *args)"
    )
    assert (sys.getrecursionlimit(), threading.stack_size()) == (limit, stack)


def test_within_the_opt_in_the_error_names_the_budget():
    assert run_deep(in_run_deep)
    with pytest.raises(NestingTooDeepError) as raised:
        run_deep(lambda: nesting_checked(_recurse, 10 * DEEP_RECURSION_LIMIT, what="the test"))
    assert str(raised.value) == (
        f"the test is nested too deeply (more than {MAX_NESTING} levels) to process"
    )


def test_keyword_arguments_pass_through():
    assert run_deep(dict, [("a", 1)], b=2) == {"a": 1, "b": 2}
    assert nesting_checked(dict, b=2) == {"b": 2}


def test_calls_nest_inside_a_worker():
    threads = []

    def outer() -> int:
        threads.append(threading.current_thread())
        return run_deep(lambda: threads.append(threading.current_thread()) or 1)

    assert run_deep(outer) == 1
    assert threads[0] is threads[1] is not threading.current_thread()


def test_concurrent_calls_share_one_raise_and_put_the_limit_back():
    limit, stack = sys.getrecursionlimit(), threading.stack_size()
    start, all_running = threading.Barrier(8), threading.Barrier(8)
    seen: list[tuple[int, int]] = []
    errors: list[BaseException] = []

    def deep(levels: int, together: bool) -> int:
        if together:  # the first round: all eight workers alive at once
            all_running.wait(timeout=60)
        seen.append((sys.getrecursionlimit(), depth._workers))
        return _recurse(levels)

    def host(index: int) -> None:
        try:
            start.wait()
            for round_ in range(3):
                assert run_deep(deep, 20_000 + 1_000 * index + round_, round_ == 0) > 0
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    hosts = [threading.Thread(target=host, args=(i,)) for i in range(8)]
    for thread in hosts:
        thread.start()
    for thread in hosts:
        thread.join()
    assert errors == []
    assert {limit for limit, _ in seen} == {DEEP_RECURSION_LIMIT}
    assert max(workers for _, workers in seen) == 8
    assert (sys.getrecursionlimit(), threading.stack_size()) == (limit, stack)


def test_a_limit_set_meanwhile_is_kept():
    def host_sets_its_own() -> None:
        sys.setrecursionlimit(DEEP_RECURSION_LIMIT + 1)

    run_deep(host_sets_its_own)
    assert sys.getrecursionlimit() == DEEP_RECURSION_LIMIT + 1


def test_a_limit_already_high_enough_is_left_alone():
    sys.setrecursionlimit(DEEP_RECURSION_LIMIT + 5)
    seen = run_deep(sys.getrecursionlimit)
    assert seen == DEEP_RECURSION_LIMIT + 5 == sys.getrecursionlimit()
