"""Timing relay-xdsl's steps: one run of each step, or medians of repeated runs.

`Steps` times steps once each, for reports (``make demo``, the phases of
``xdsl-opt`` in the benchmarks). `measure` times repeated runs of one step
with fresh inputs made outside the timed region, and `Policy` says how many
(``make bench``, the grouping report in tests/tvm).
"""

from __future__ import annotations

import gc
import resource
import statistics
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, TypeVar

from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.support.memo import clear_memos

T = TypeVar("T")


@dataclass
class Steps:
    """Wall-clock seconds per step, in the order the steps first ran."""

    seconds: dict[str, float] = field(default_factory=dict)
    """A step that runs more than once has the sum of its runs."""

    def time(self, step: str, work: Callable[[], T]) -> T:
        """``work()``, its time added to `step`'s."""
        start = time.perf_counter()
        result = work()
        self.seconds[step] = self.seconds.get(step, 0.0) + time.perf_counter() - start
        return result


@dataclass
class Policy:
    """How many times to run a step.

    5 runs when one run is short, 3 otherwise, but no more than fit in
    `budget` seconds (each run counted with its untimed input preparation
    and check), and at least one. So the 100k-op graphs get one or two runs
    of their slowest steps (their rows say ``n=1``/``n=2``), which keeps the
    suite within its time budget.
    """

    max_runs: int = 5
    min_runs: int = 3
    short_run: float = 0.5
    budget: float = 20.0

    @classmethod
    def exactly(cls, runs: int) -> Policy:
        """`runs` runs, however long they take."""
        return cls(max_runs=runs, min_runs=runs, budget=float("inf"))

    def runs_after(self, first: float, overhead: float) -> int:
        runs = self.max_runs if first <= self.short_run else self.min_runs
        per_run = first + overhead
        if per_run * runs <= self.budget:
            return runs
        return max(1, int(self.budget // per_run))


@dataclass
class Timing:
    times: list[float]
    """Wall-clock seconds of each run."""
    cpu_times: list[float] = field(default_factory=list)
    """CPU seconds of this process (or of the children, for subprocesses) in each run.

    On a shared machine wall time includes waiting for a core; CPU time
    does not, so it is the steadier figure for single-threaded work.
    """
    result: Any = field(default=None, repr=False)
    """What the last run returned."""

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu_times)

    @property
    def runs(self) -> int:
        return len(self.times)


def _cpu_seconds(children: bool) -> float:
    if children:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime
    return time.process_time()


def measure(
    work: Callable[[Any], Any],
    policy: Policy,
    fresh: Callable[[], Any] | None = None,
    check: Callable[[Any, Any], None] | None = None,
    *,
    pause_gc: bool = False,
    children: bool = False,
) -> Timing:
    """Time ``work(fresh())``; `check(input, output)` runs once, on the first run, untimed.

    Garbage is collected and relay-xdsl's memo tables are emptied before
    each run, so that no run pays for the previous one's garbage or profits
    from its memos. With `pause_gc`, `work` runs with the cyclic collector
    paused, as relay-xdsl's commands run the steps that build modules (see
    gc_pause.py). The last run's result is kept in :attr:`Timing.result`.
    """
    times: list[float] = []
    cpu_times: list[float] = []
    runs = 1
    result: Any = None
    while len(times) < runs:
        result = None  # free the previous run's output before the next input is made
        prepared = time.perf_counter()
        argument = fresh() if fresh is not None else None
        clear_memos()
        gc.collect()
        with gc_paused() if pause_gc else nullcontext():
            cpu_start = _cpu_seconds(children)
            start = time.perf_counter()
            result = work(argument)
            times.append(time.perf_counter() - start)
            cpu_times.append(_cpu_seconds(children) - cpu_start)
        if len(times) == 1:
            if check is not None:
                check(argument, result)
            runs = policy.runs_after(times[0], start - prepared)
        del argument
    return Timing(times, cpu_times, result)
