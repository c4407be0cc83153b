"""The public Python API is what the README's table lists, and imports as shown."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import relay_xdsl
from relay_xdsl import dataflow_pattern

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
SECTION = README[README.index("## Python API") :].split("\n## ", 1)[0]
TABLE_NAMES = re.findall(r"^\| `relay_xdsl\.(\w+)", SECTION, re.MULTILINE)


def test_the_table_lists_exactly_the_public_functions():
    functions = [name for name in TABLE_NAMES if name != "dataflow_pattern"]
    assert sorted(functions) == relay_xdsl.__all__


def test_each_public_name_is_the_function_of_its_home_module():
    from relay_xdsl.exporters.relay_text import print_relay
    from relay_xdsl.importers.relay_text import parse_relay
    from relay_xdsl.interpreter import run
    from relay_xdsl.support.depth import run_deep

    assert relay_xdsl.parse_relay is parse_relay
    assert relay_xdsl.print_relay is print_relay
    assert relay_xdsl.run is run
    assert relay_xdsl.run_deep is run_deep
    for name in relay_xdsl.__all__:
        assert callable(getattr(relay_xdsl, name))


def test_an_unknown_name_is_an_attribute_error():
    try:
        relay_xdsl.nothing  # noqa: B018
    except AttributeError as error:
        assert "no attribute 'nothing'" in str(error)
    else:
        raise AssertionError("expected AttributeError")


def test_the_pattern_names_the_readme_shows_are_exported():
    row = next(line for line in SECTION.splitlines() if "`relay_xdsl.dataflow_pattern`" in line)
    shown = re.findall(r"`(\w+)`", row.split("|")[2])
    assert shown and set(shown) <= set(dataflow_pattern.__all__)
    for name in dataflow_pattern.__all__:
        assert hasattr(dataflow_pattern, name)


def test_importing_the_package_loads_neither_numpy_nor_tvm():
    code = "import sys, relay_xdsl; print('numpy' in sys.modules, 'tvm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_the_public_functions_change_nothing_process_wide(monkeypatch):
    """No thread, recursion limit, collector pause or allocator tuning: those are
    the opt-ins of the programs that own the process (run_deep, gc_paused,
    keep_freed_buffers)."""
    import ctypes
    import gc
    import threading

    import numpy as np

    from relay_xdsl.interpreter import run  # imported before the process is locked

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a library call changed process-wide state")

    t = "Tensor[(2), float32]"
    text = (
        f'#[version = "0.0.5"]\ndef @main(%x: {t} /* ty={t} */) -> {t} {{\n'
        f"  nn.relu(%x) /* ty={t} */\n}}\n\n"
    )
    for owner, name in [
        (gc, "disable"),
        (gc, "freeze"),
        (sys, "setrecursionlimit"),
        (threading, "stack_size"),
        (threading.Thread, "start"),
        (ctypes, "CDLL"),
    ]:
        monkeypatch.setattr(owner, name, forbidden)
    module = relay_xdsl.parse_relay(text)
    assert relay_xdsl.print_relay(module) == text
    x = np.array([-1.0, 2.0], np.float32)
    np.testing.assert_array_equal(run(module, {"x": x})[0], np.maximum(x, 0))
