"""bench.compiled: its tables (medians, GFLOP/s, shares of the peak, ratios, failures)
and one run of every compiler on a tiny network."""

from __future__ import annotations

import argparse
import itertools
import threading
import time

import pytest
import torch

from bench.compiled import (
    COMPILERS,
    EAGER,
    IREE,
    ORT,
    OURS,
    SINGLE_THREADED_NOTE,
    TVM,
    Machine,
    Result,
    bench_model,
    compile_has_threads,
    compile_table,
    relative_error,
    report,
    run_table,
    thread_counts,
    thread_counts_argument,
    timed_turn,
    timing_order,
    wait_for_quiet_threads,
)
from bench.compiled_models import Model
from bench.peak import Peak

PEAK = Peak(lanes=16, per_core=100e9, measured={1: 100e9, 2: 150e9})


def _result() -> Result:
    runs = {
        (OURS, 1): [0.030, 0.020, 0.040],
        (IREE, 1): [0.050, 0.048, 0.060],
        (EAGER, 1): [0.040, 0.050, 0.030],
        (ORT, 1): [0.025, 0.025, 0.025],
        (OURS, 2): [0.030, 0.030, 0.030],
        (EAGER, 2): [0.020, 0.020, 0.020],
        (ORT, 2): [0.015, 0.015, 0.015],
    }
    firsts = {key: [2 * seconds for seconds in calls] for key, calls in runs.items()}
    firsts[OURS, 2] = [0.045, 0.045, 0.045]
    return Result(
        "resnet18",
        flops=3_000_000_000,
        compile_seconds={OURS: 9.64, IREE: 2.61, ORT: 1.25},
        run_seconds=runs,
        first_seconds=firsts,
        failures={TVM: "RuntimeError: no schedule"},
    )


def test_compile_table_gives_gflops_and_build_seconds():
    lines = compile_table([_result()]).splitlines()
    assert lines[0] == (
        "| model | GFLOP | relay-xdsl compile (s) | relay-xdsl compile --target iree (s) "
        "| torch.onnx.export + ORT session (s) | TVM relax.build (s) |"
    )
    assert lines[2] == "| resnet18 | 3.00 | 9.6 | 2.6 | 1.2 | fails |"


def test_run_table_gives_medians_rates_shares_and_the_ratios_to_the_fastest_other():
    lines = run_table([_result()], Machine((1, 2), PEAK, ours_threads=True)).splitlines()
    assert lines[0] == (
        "| model | threads | "
        + " | ".join(COMPILERS)
        + " | relay-xdsl / fastest other | first calls: relay-xdsl / fastest other |"
    )
    # 3 GFLOP in 30 ms is 100 GFLOP/s, the whole one-thread peak; in 15 ms, 200 GFLOP/s.
    assert lines[2] == (
        "| resnet18 | 1 | 30.0 ms, 100.0 GFLOP/s (100%) | 50.0 ms, 60.0 GFLOP/s (60%) "
        "| 40.0 ms, 75.0 GFLOP/s (75%) | 25.0 ms, 120.0 GFLOP/s (120%) "
        "| fails: RuntimeError: no schedule | 1.20 (ONNX Runtime) | 1.20 (ONNX Runtime) |"
    )
    assert lines[3] == (
        "| resnet18 | 2 | 30.0 ms, 100.0 GFLOP/s (50%) | fails: not run "
        "| 20.0 ms, 150.0 GFLOP/s (75%) | 15.0 ms, 200.0 GFLOP/s (100%) "
        "| fails: RuntimeError: no schedule | 2.00 (ONNX Runtime) | 1.50 (ONNX Runtime) |"
    )


def test_a_turn_calls_back_to_back_for_its_time_and_keeps_the_first_call_apart(monkeypatch):
    monkeypatch.setattr("bench.compiled.TURN_SECONDS", 0.05)
    calls = []

    def run() -> None:
        calls.append(time.perf_counter())
        time.sleep(0.02 if len(calls) == 1 else 0.005)

    first, later = timed_turn(run)
    assert first >= 0.02
    assert len(later) == len(calls) - 1 >= 5
    assert all(0.005 <= seconds < 0.02 for seconds in later)
    assert first + sum(later[:-1]) < 0.05 <= first + sum(later)
    slow_first, none_later = timed_turn(lambda: time.sleep(0.06))
    assert slow_first >= 0.06 and none_later == []


def test_the_report_says_when_relay_xdsl_runs_on_one_thread():
    machine = Machine((1, 2), PEAK, ours_threads=False)
    text = report([_result()], machine, ("load before", "load after"))
    assert "one thread, best of its runs): 100 GFLOP/s; N threads' peak is N times" in text
    assert "The same kernel measured 150 GFLOP/s on 2 threads at once." in text
    assert "before `load before`; after `load after`" in text
    assert SINGLE_THREADED_NOTE in text
    assert "| resnet18 | 2 | 30.0 ms, 100.0 GFLOP/s (50%) (1 thread) |" in text
    threaded = report([_result()], Machine((1, 2), PEAK, ours_threads=True), ("", ""))
    assert SINGLE_THREADED_NOTE not in threaded
    assert "(1 thread)" not in threaded


def test_relative_error_is_against_the_largest_expected_magnitude():
    expected = torch.tensor([[100.0, -400.0]]).numpy()
    assert relative_error(expected + 2.0, expected) == pytest.approx(2.0 / 400.0)
    with pytest.raises(ValueError, match="shape"):
        relative_error(expected[0], expected)


def test_thread_counts_are_read_from_a_comma_separated_list():
    assert thread_counts_argument("2,1,2") == (1, 2)
    for wrong in ("0", "x", "1,", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="at least 1"):
            thread_counts_argument(wrong)


def test_each_round_times_every_compiler_once_a_thread_count_in_a_shuffled_order():
    keys = [(who, threads) for threads in (1, 2) for who in COMPILERS]
    sequence = timing_order(keys, (1, 2), 10)
    rounds = [sequence[i : i + len(COMPILERS)] for i in range(0, len(sequence), len(COMPILERS))]
    assert len(rounds) == 20
    for index, passed in enumerate(rounds):
        assert sorted(passed) == sorted((who, 1 + index % 2) for who in COMPILERS)
    predecessors = {
        who: {before for (before, _), (after, _) in itertools.pairwise(sequence) if after == who}
        for who in COMPILERS
    }
    assert all(len(before) >= 3 for before in predecessors.values()), predecessors
    assert timing_order(keys, (1, 2), 10) == sequence  # seeded: the same order every run


def test_a_timed_run_waits_for_the_threads_still_spinning():
    spun = threading.Event()

    def spin() -> None:
        end = time.perf_counter() + 0.1
        while time.perf_counter() < end:
            pass
        spun.set()

    spinner = threading.Thread(target=spin)
    spinner.start()
    wait_for_quiet_threads()
    assert spun.is_set()
    spinner.join()


class Tiny(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4 * 6 * 6, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.relu(self.conv(x)).flatten(1))


@pytest.mark.parametrize(
    "threads", [thread_counts(), thread_counts()[-1:]], ids=["one-and-all", "all-only"]
)
def test_every_compiler_builds_agrees_and_is_timed_on_a_tiny_network(tmp_path, threads):
    """Also with ``--threads`` of all the cores alone (no build for one thread)."""
    torch.manual_seed(0)
    model = Model("tiny", Tiny().eval(), torch.randn(1, 3, 6, 6))
    result = bench_model(model, 2, Machine(threads, PEAK, compile_has_threads()), tmp_path)
    assert result.failures == {}
    assert result.flops == 2 * (4 * 6 * 6) * (3 * 3 * 3) + 2 * 5 * (4 * 6 * 6)
    assert set(result.compile_seconds) == {OURS, IREE, ORT, TVM}
    keys = {(who, t) for who in COMPILERS for t in threads}
    assert {key: len(seconds) for key, seconds in result.first_seconds.items()} == dict.fromkeys(
        keys, 2
    )
    # a tiny network runs many times in a turn
    assert set(result.run_seconds) == keys
    assert all(len(seconds) > 2 for seconds in result.run_seconds.values())
    assert max(result.errors.values()) <= 1e-4
