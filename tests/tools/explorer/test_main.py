"""relay-xdsl's Model Explorer adapter, and Model Explorer itself in headless Chromium."""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from relay_xdsl.tools.explorer.main import ModelLoadError, RelayAdapter, read_graphs

ROOT = Path(__file__).resolve().parents[3]
FUSED = ROOT / "examples" / "seed" / "fused.relay"
STARTUP_SECONDS = 180


def test_adapter_converts_relay_text_and_mlir(tmp_path):
    assert RelayAdapter.metadata.fileExts == ["relay", "mlir"]
    from_relay = RelayAdapter().convert(str(FUSED), {})
    mlir = tmp_path / "fused.mlir"
    subprocess.run(
        [sys.executable, "-m", "relay_xdsl.tools.cli", "import", str(FUSED), "-o", str(mlir)],
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    from_mlir = RelayAdapter().convert(str(mlir), {})
    (a,), (b,) = from_relay["graphs"], from_mlir["graphs"]
    assert [(n.label, n.namespace) for n in a.nodes] == [(n.label, n.namespace) for n in b.nodes]


def test_a_bad_file_is_reported_by_its_diagnostic(tmp_path):
    bad = tmp_path / "bad.relay"
    bad.write_text('#[version = "0.0.5"]\ndef @main(%x: Tensor[(4), float32]) { nn.relu(%y) }\n')
    with pytest.raises(ModelLoadError, match=r"bad.relay:2:\d+: error: "):
        read_graphs(bad)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _server(command: list[str]) -> Iterator[str]:
    """Run a Model Explorer server; yield the URL it prints, stop it afterwards."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    seen: list[str] = []
    try:
        while True:
            try:
                line = lines.get(timeout=STARTUP_SECONDS)
            except queue.Empty:
                pytest.fail("Model Explorer did not start:\n" + "".join(seen))
            seen.append(line)
            url = re.match(r"(http://\S+)", line)
            if url:
                break
        yield url[1]
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(url)
    page.get_by_text("layer count").wait_for(timeout=120_000)
    return page


def _text(page) -> str:
    """The page's text, whitespace collapsed."""
    return re.sub(r"\s+", " ", page.inner_text("body"))


def _wait_for_text(page, expected: str) -> str:
    """The page's text once it contains `expected` (the side panel updates after a click)."""
    for _ in range(150):
        text = _text(page)
        if expected in text:
            return text
        page.wait_for_timeout(200)
    pytest.fail(f"the page never showed {expected!r}:\n{text}")


def test_view_explorer_shows_the_seed_groups_as_layers_that_expand(browser):
    port = _free_port()
    command = [sys.executable, "-m", "relay_xdsl.tools.cli", "view", str(FUSED), "--explorer"]
    with _server([*command, "--host", "127.0.0.1", "--port", str(port), "--no-browser"]) as url:
        page = _open(browser, url)
        try:
            assert "op node count 12 layer count 3" in _text(page)
            # The search lists matches by layer: each layer holds its operators.
            search = page.get_by_placeholder("Search nodes/layers by regex")
            search.fill("^(nn.conv2d|add|nn.relu)$")
            search.press("Enter")
            results = page.locator(".search-results-container").first
            results.wait_for()
            listed = [t.strip() for t in results.inner_text().splitlines() if t.strip()]
            layers: dict[str, list[str]] = {}
            current = "<root>"
            for item in listed:
                if item.startswith("ccompiler.conv_add_relu_") or item == "<root>":
                    current = item
                elif item in ("nn.conv2d", "add", "nn.relu"):
                    layers.setdefault(current, []).append(item)
            # (The residual add at the top level is listed last, under no heading.)
            assert layers["ccompiler.conv_add_relu_0"] == ["nn.conv2d", "add", "nn.relu"]
            assert layers["ccompiler.conv_add_relu_1"] == ["nn.conv2d", "add", "nn.relu"]
            assert layers["ccompiler.conv_add_relu_2"][:2] == ["nn.conv2d", "add"]
            # Alt+click locates and selects an operator: its layer expands, and the
            # side panel shows the node in its layer with its output's shape.
            for operator in ("nn.conv2d", "add", "nn.relu"):
                page.get_by_text(operator, exact=True).first.click(modifiers=["Alt"])
                text = _wait_for_text(page, f"op name {operator} ")
                assert "namespace ccompiler.conv_add_relu_0" in text
                assert "shape float32[1,64,112,112]" in text
        finally:
            page.close()


def test_model_explorers_own_command_line_loads_the_extension(browser):
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "model_explorer",
        str(FUSED),
        "--extensions=relay_xdsl.tools.explorer",
        "--host=127.0.0.1",
        f"--port={port}",
        "--no_open_in_browser",
    ]
    with _server(command) as url:
        page = _open(browser, url)
        try:
            assert "op node count 12 layer count 3" in _text(page)
        finally:
            page.close()
