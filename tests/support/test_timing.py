"""The timing helpers shared by make demo, make bench and the grouping report."""

from __future__ import annotations

import gc

from relay_xdsl.support.timing import Policy, Steps, measure


def test_steps_keep_their_order_and_add_up_repeated_steps():
    steps = Steps()
    assert steps.time("parse", lambda: 1) == 1
    steps.time("verify", lambda: None)
    steps.time("parse", lambda: None)
    assert list(steps.seconds) == ["parse", "verify"]
    assert all(seconds >= 0 for seconds in steps.seconds.values())


def test_measure_times_fresh_inputs_and_checks_the_first_output():
    made: list[int] = []
    checked: list[tuple[int, int]] = []

    def fresh() -> int:
        made.append(len(made))
        return made[-1]

    timing = measure(
        lambda n: n * 10, Policy.exactly(4), fresh, lambda i, o: checked.append((i, o))
    )
    assert timing.runs == 4 == len(made) == len(timing.cpu_times)
    assert checked == [(0, 0)]
    assert timing.result == 30
    assert timing.median >= 0


def test_measure_pauses_the_collector_only_when_asked():
    assert gc.isenabled()
    seen = [
        measure(lambda _: gc.isenabled(), Policy.exactly(1), pause_gc=pause).result
        for pause in (False, True)
    ]
    assert seen == [True, False]
    assert gc.isenabled()


def test_the_policy_fits_the_budget():
    policy = Policy(budget=10.0)
    assert policy.runs_after(0.1, 0.0) == 5
    assert policy.runs_after(1.0, 0.0) == 3
    assert policy.runs_after(6.0, 0.0) == 1
    assert Policy.exactly(7).runs_after(100.0, 100.0) == 7
