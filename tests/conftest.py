"""Shared fixtures: `op_fields`; a real headless Chromium for the browser tests; the
``heavy`` mark, which ``make check`` leaves out; and the order of the files,
longest first (tests/durations.json), which keeps both workers of ``make test`` busy.

Builds keep their objects in a cache of the session's own (`object_cache`).
The browser is Debian's ``chromium`` (setup installs it; ``RELAY_XDSL_CHROMIUM``
names another binary), driven by Playwright's Python package without
Playwright's own browser downloads. A missing browser fails the tests that
need it, with what to install: they are never skipped.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator

import pytest
from xdsl.ir import Operation

HEAVY_FOLDERS = (
    "bench",
    "compiler",
    "differential",
    "docs",
    "fuzz",
    "tools/explorer",
    "tvm",
    "viz",
)
"""Test folders (under tests/) whose tests build, compile, browse or run commands end to end."""
HEAVY_FIXTURES = frozenset({"browser", "lowered_cases", "tvm_cases", "in_tvm"})
"""Fixtures that compile with upstream MLIR, build with TVM or start a browser."""
HEAVY_MODULES = ("tvm", "torch", "torchvision")
"""A test module that imports one of these at its top is heavy: importing them alone takes seconds."""
TESTS = os.path.dirname(os.path.abspath(__file__))
DURATIONS_FILE = os.path.join(TESTS, "durations.json")
"""Seconds per test file of a whole run (`make test PYTEST_ARGS=--record-durations`), for the order of the next."""


def _is_heavy(item: pytest.Item) -> bool:
    if item.get_closest_marker("slow") or item.get_closest_marker("tvm"):
        return True
    if HEAVY_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    folder = os.path.relpath(os.path.dirname(str(item.path)), TESTS).replace(os.sep, "/")
    if any(folder == f or folder.startswith(f + "/") for f in HEAVY_FOLDERS):
        return True
    module = getattr(item, "module", None)
    return any(name in vars(module) for name in HEAVY_MODULES) if module else False


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "heavy: compiles, builds with TVM or PyTorch, or browses; `make check` skips it"
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        help=f"write each test file's seconds to {DURATIONS_FILE} for the order of later runs",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    heavy_per_file: dict[str, int] = {}
    for item in items:
        heavy_per_file.setdefault(str(item.path), 0)
        if _is_heavy(item):
            item.add_marker(pytest.mark.heavy)
            heavy_per_file[str(item.path)] += 1
    # The longest files go first (by the recorded seconds, else by their heavy
    # tests), so that when the workers of `make test` (xdist, a file to a worker,
    # in this order) run out of files, what is left is short and no worker waits
    # long for the last one.
    recorded = _recorded_durations()

    def cost(item: pytest.Item) -> tuple[float, int]:
        return (-recorded.get(_relative(item.path), 0.0), -heavy_per_file[str(item.path)])

    items.sort(key=cost)


def _relative(path: os.PathLike[str] | str) -> str:
    return os.path.relpath(path, TESTS).replace(os.sep, "/")


def _recorded_durations() -> dict[str, float]:
    try:
        with open(DURATIONS_FILE) as file:
            return json.load(file)
    except FileNotFoundError:
        return {}


_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = report.nodeid.split("::", 1)[0]
    _durations[path] = _durations.get(path, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    # Under xdist the controller sees every worker's reports; a worker writes nothing.
    if session.config.getoption("--record-durations") and not hasattr(
        session.config, "workerinput"
    ):
        prefix = os.path.relpath(TESTS, str(session.config.rootpath)).replace(os.sep, "/") + "/"
        seconds = {path.removeprefix(prefix): round(total, 1) for path, total in _durations.items()}
        with open(DURATIONS_FILE, "w") as file:
            json.dump(dict(sorted(seconds.items())), file, indent=0)
            file.write("\n")


@pytest.fixture(scope="session", autouse=True)
def object_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Builds (and the commands the tests run) keep their objects in a cache of the
    session's own, never in the user's (relay_xdsl/compiler/cache.py)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RELAY_XDSL_CACHE", str(tmp_path_factory.mktemp("object-cache")))
        yield


def _op_fields(op: Operation) -> tuple[object, ...]:
    return (
        type(op),
        tuple(op.operands),
        sorted(
            use.index for value in set(op.operands) for use in value.uses if use.operation is op
        ),
        [(r.type, r.index, r.owner is op, r.name_hint, r.first_use) for r in op.results],
        list(op.attributes.items()),
        list(op.properties.items()),
        op.location,
        tuple(op.successors),
        op.regions,
        op.parent,
    )


@pytest.fixture
def op_fields() -> Callable[[Operation], tuple[object, ...]]:
    """Everything an op is made of, for comparing ops built field by field
    with what xDSL's constructors make."""
    return _op_fields


CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    # Model Explorer draws with WebGL: SwiftShader renders it without a GPU.
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]


def chromium_path() -> str:
    path = os.environ.get("RELAY_XDSL_CHROMIUM") or shutil.which("chromium")
    if path is None:
        pytest.fail("the browser tests need Chromium: apt-get install chromium (see .ci/run)")
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
