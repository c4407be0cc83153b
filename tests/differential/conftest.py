"""The `differential` fixture: every case run on every backend once per session,
and the operator × backend status printed after the tests that used it."""

from __future__ import annotations

import pytest

from .backends import Results, run_all
from .cases import every_case
from .status import status_table

RESULTS = pytest.StashKey[Results]()


@pytest.fixture(scope="session")
def differential(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Results:
    """The reference outputs and each backend's outcome for every case: the MLIR
    cases compiled in one module, the Relax cases built in one IRModule."""
    results = run_all(every_case(), tmp_path_factory.mktemp("differential"))
    request.config.stash[RESULTS] = results
    return results


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    results = config.stash.get(RESULTS, None)
    if results is not None:
        terminalreporter.write_sep("=", "operators × backends (tests/differential)")
        terminalreporter.write(status_table(results))
