"""Shared fixtures: a real headless Chromium for the browser tests.

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
