"""docs/adding-an-operator.md stays true: its steps add an operator that passes the checks.

In a copy of the repository, the test inserts the page's code blocks where
their markers say (``<!-- insert into PATH after: LINE -->``, ``... as the
first element of: LINE -->``, ``<!-- append to PATH -->``), runs its ``regenerate`` commands, and then its ``check``
commands: the generators' ``--check`` and the completeness tests. Of the
checks it leaves out lit (run by the lit suite) and the Relax export test,
which needs TVM.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adding-an-operator.md"

_BLOCK = re.compile(
    r"<!-- (?P<marker>(?!not run)[^>]*) -->\n(?:<!-- not run: [^>]* -->\n)?"
    r"```(?:python|sh)\n(?P<body>.*?)```\n",
    re.DOTALL,
)
"""A block with its step's marker; ``not run`` keeps tests/docs/test_docs_commands.py off it."""


def _blocks() -> list[tuple[str, str]]:
    """The page's marked code blocks: (marker, code), in order."""
    return [(m.group("marker"), m.group("body")) for m in _BLOCK.finditer(DOC.read_text())]


def _edit(root: Path, marker: str, code: str) -> None:
    """Put `code` into the file `marker` names, as it says."""
    if marker.startswith("append to "):
        path = root / marker.removeprefix("append to ")
        path.write_text(path.read_text().rstrip("\n") + "\n\n\n" + code)
        return
    match = re.fullmatch(r"insert into (\S+) (after|as the first element of): (.*)", marker)
    assert match is not None, f"unknown marker {marker!r}"
    path = root / match.group(1)
    text = path.read_text()
    anchor = match.group(3) + "\n"
    assert text.count(anchor) == 1, f"{path.name} has no single line {anchor!r}"
    if match.group(2) != "after":  # an element of the tuple the line opens
        code = textwrap.indent(code.rstrip("\n"), "    ") + ",\n"
    path.write_text(text.replace(anchor, anchor + code))


def _commands(name: str) -> list[list[str]]:
    """The Python commands of the page's ``run: NAME`` block."""
    bodies = [body for marker, body in _blocks() if marker == f"run: {name}"]
    assert len(bodies) == 1
    lines = [shlex.split(line) for line in bodies[0].splitlines() if line.strip()]
    return [
        [sys.executable, *words[1:]]
        for words in lines
        if words[0] == "python" and not any(w.startswith("tests/exporters/") for w in words)
    ]


def _run(root: Path, command: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        command, cwd=root, env=env, capture_output=True, text=True, check=False, timeout=1200
    )
    assert done.returncode == 0, f"{shlex.join(command[1:])}:\n{done.stdout[-3000:]}{done.stderr}"


def test_the_page_names_every_layer():
    markers = [marker for marker, _ in _blocks()]
    files = {m.split()[2] for m in markers if not m.startswith("run: ")}
    assert files == {
        "relay_xdsl/dialects/relay/operators/elementwise.py",
        "relay_xdsl/interpreter/kernels/elementwise.py",
        "relay_xdsl/conversion/rules/elementwise.py",
        "relay_xdsl/exporters/relax_compositions/elementwise.py",
        "tests/filecheck/dialect/gen_ops_mlir.py",
    }
    assert {"run: regenerate", "run: check"} <= set(markers)


def test_following_the_steps_adds_an_operator_that_passes_the_checks(tmp_path: Path):
    ignore = shutil.ignore_patterns("__pycache__", "relay_corpus", "*.so", "build")
    for folder in ("relay_xdsl", "tests", "docs"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for marker, code in _blocks():
        if not marker.startswith("run: "):
            _edit(tmp_path, marker, code)
    for command in _commands("regenerate"):
        _run(tmp_path, command)

    generated = (tmp_path / "relay_xdsl" / "dialects" / "relay" / "operator_ops.py").read_text()
    assert "class ExampleTwiceOp(RegisteredOperatorOp):" in generated
    assert "### relay.example.twice" in (tmp_path / "docs" / "dialect.md").read_text()
    assert (
        "@relay.example.twice"
        in (tmp_path / "tests" / "filecheck" / "dialect" / "ops.mlir").read_text()
    )

    checks = _commands("check")
    assert any("--check" in command for command in checks)
    for command in checks:
        _run(tmp_path, command)
