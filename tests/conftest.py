"""Shared fixtures: a real headless Chromium for the browser tests; and the
``heavy`` mark, which ``make check`` leaves out.

Builds keep their objects in a cache of the session's own (`object_cache`).
The browser is Debian's ``chromium`` (setup installs it; ``RELAY_XDSL_CHROMIUM``
names another binary), driven by Playwright's Python package without
Playwright's own browser downloads. A missing browser fails the tests that
need it, with what to install: they are never skipped.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _is_heavy(item):
            item.add_marker(pytest.mark.heavy)


@pytest.fixture(scope="session", autouse=True)
def object_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Builds (and the commands the tests run) keep their objects in a cache of the
    session's own, never in the user's (relay_xdsl/compiler/cache.py)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RELAY_XDSL_CACHE", str(tmp_path_factory.mktemp("object-cache")))
        yield


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
