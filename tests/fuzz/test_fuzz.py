"""Fuzzing relay-xdsl's input paths with hypothesis (oracles: harness.py).

``make test`` runs each target on a small, fixed set of examples (seconds);
``make fuzz`` sets ``RELAY_XDSL_FUZZ_EXAMPLES`` high and
``RELAY_XDSL_FUZZ_RANDOM=1`` to explore new inputs. Every crash found is kept
as a file in tests/fuzz/regressions/ and replayed by
`test_regression_inputs`.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

import harness

EXAMPLES = int(os.environ.get("RELAY_XDSL_FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("RELAY_XDSL_FUZZ_RANDOM"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None if not os.environ.get("RELAY_XDSL_FUZZ_RANDOM") else settings().database,
)

RELAY_CORPUS = harness.relay_corpus()
_MLIR_CORPUS: list[tuple[str, str]] = []


def _mlir_corpus() -> list[tuple[str, str]]:
    if not _MLIR_CORPUS:
        _MLIR_CORPUS.extend(harness.mlir_corpus())
    return _MLIR_CORPUS


PIPELINES = [
    "relay-defuse",
    "relay-defuse{composite=ccompiler.conv_add_relu}",
    "relay-defuse{composite=a,b inline-globals=true}",
    "relay-merge-composite{table=conv2d-add-relu}",
    'relay-merge-composite{patterns="mod:attr" allow-shared-inner=true}',
    "relay-fuse-ops{fuse-opt-level=2}",
    "relay-defuse,relay-fuse-ops,relay-defuse",
]


@FUZZ
@given(st.sampled_from(RELAY_CORPUS), st.randoms(use_true_random=False), st.integers(1, 6))
def test_mutated_relay_text_imports_or_is_a_clean_error(entry, rng, steps):
    _, text = entry
    harness.check_relay_text(harness.mutate(text, rng, steps))


@FUZZ
@given(st.randoms(use_true_random=False))
def test_random_programs_round_trip_and_defuse_without_loss(rng):
    harness.check_random_program(harness.random_program(rng))


@FUZZ
@given(st.randoms(use_true_random=False), st.integers(1, 5))
def test_mutated_metadata_decodes_or_is_a_clean_error(rng, steps):
    section = rng.choice(harness.metadata_corpus(random.Random(rng.random()), 2))
    harness.check_metadata(harness.mutate(section, rng, steps))


@FUZZ
@given(st.randoms(use_true_random=False), st.integers(1, 4))
def test_mutated_mlir_loads_or_is_a_clean_error(rng, steps):
    _, text = rng.choice(_mlir_corpus())
    harness.check_mlir_text(harness.mutate(text, rng, steps))


@FUZZ
@given(st.sampled_from(PIPELINES), st.randoms(use_true_random=False), st.integers(0, 4))
def test_pipeline_diagnostics_agree_with_xdsl(pipeline, rng, steps):
    harness.check_pipeline(harness.mutate(pipeline, rng, steps) if steps else pipeline)


REGRESSIONS = sorted(harness.REGRESSIONS.glob("*"))


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.name)
def test_regression_inputs(path: Path):
    """Inputs that once crashed relay-xdsl; see the comment or name of each."""
    text = path.read_text()
    if path.suffix == ".relay":
        harness.check_relay_text(text, path.name)
    elif path.suffix == ".mlir":
        harness.check_mlir_text(text, path.name)
    elif path.suffix == ".json":
        harness.check_metadata(text)
    elif path.suffix == ".pipeline":
        harness.check_pipeline(text.strip())
    else:
        pytest.fail(f"unknown regression input kind {path.suffix}")
