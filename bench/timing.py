"""Medians of repeated runs, with fresh inputs made outside the timed region."""

from __future__ import annotations

import gc
import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from relay_xdsl.support.memo import clear_memos


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


def without_gc(make: Callable[[], Any]) -> Callable[[], Any]:
    """`make` with the cyclic garbage collector paused (for untimed input copies)."""

    def made() -> Any:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return make()
        finally:
            if enabled:
                gc.enable()

    return made


def measure(
    work: Callable[[Any], Any],
    policy: Policy,
    fresh: Callable[[], Any] | None = None,
    check: Callable[[Any, Any], None] | None = None,
    *,
    children: bool = False,
) -> Timing:
    """Time ``work(fresh())``; `check(input, output)` runs once, on the first run, untimed.

    Garbage is collected and relay-xdsl's memo tables are emptied before
    each run, so that no run pays for the previous one's garbage or profits
    from its memos. The last run's result is kept in :attr:`Timing.result`.
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
