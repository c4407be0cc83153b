"""Every command and Python snippet in README.md and docs/*.md works as written.

Each ``sh`` block runs with bash, stopping at the first command that fails,
and each ``python`` block with the Python running the tests; both must
succeed. They run in a fresh directory that holds what the docs name:

* ``examples/`` and ``tests/`` of the checkout (linked), so that
  ``examples/seed/fused.relay`` is the seed;
* the placeholder files the docs use, bound to real ones (`PLACEHOLDERS`):
  ``model.relay`` is the seed's defused program, ``fused.mlir`` its fused
  one as MLIR, and so on; ``my_patterns.py`` is a pattern table module;
* ``.venv/bin/`` as ``make`` creates it: the environment running the tests.

The commands themselves are never edited, with one exception: ``make``
runs its targets, ``make test`` this very test among them, so a
``make TARGET`` line is run as ``make -n TARGET`` from the checkout, which
checks that the target exists without running it.

A block preceded by ``<!-- not run: REASON -->`` (quoted source of another
project, say) is not run; a block that uses TVM or PyTorch, or IREE, runs where
they are installed (``make test`` installs them, and so does CI).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
BLOCK = re.compile(r"^```(sh|python)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"<!-- not run: [^>]+ -->\s*\Z")
NEEDS_TVM = re.compile(r"\b(import-torch|--against-torch|relax-script|import tvm|tvm_models)\b")
NEEDS_IREE = re.compile(r"--target iree|--backend iree|\biree_(build|runtime)\b")
"""Blocks that compile with IREE, the `iree` extra (``make`` installs it)."""
SEED = ROOT / "examples" / "seed"
PATTERNS = """\
from relay_xdsl.dataflow_pattern import is_op, wildcard

conv = is_op("nn.conv2d")(wildcard(), wildcard())
TABLE = [("my.conv_add_relu", is_op("nn.relu")(is_op("add")(conv, wildcard())))]
"""


def _seed_mlir(name: str) -> str:
    from relay_xdsl.importers.relay_text import parse_relay
    from relay_xdsl.tools.mlir_text import mlir_text

    return mlir_text(parse_relay((SEED / name).read_text(), name))


PLACEHOLDERS = {
    "model.relay": lambda: (SEED / "defused.relay").read_text(),
    "expected.relay": lambda: (SEED / "defused.relay").read_text(),
    "actual.relay": lambda: (SEED / "defused.relay").read_text(),
    "partitioned.relay": lambda: (
        ROOT / "tests/importers/fixtures/collage_partition_single_op_byoc_2.relay"
    ).read_text(),
    "fused.relay": lambda: (SEED / "fused.relay").read_text(),
    "defused.relay": lambda: (SEED / "defused.relay").read_text(),
    "fused.mlir": lambda: _seed_mlir("fused.relay"),
    "model.mlir": lambda: _seed_mlir("defused.relay"),
    "my_patterns.py": lambda: PATTERNS,
}
"""The files the docs name without saying where they come from, and their text."""


def _blocks() -> list[tuple[str, str, str]]:
    found = []
    for path in DOCUMENTS:
        text = path.read_text()
        for match in BLOCK.finditer(text):
            if NOT_RUN.search(text[: match.start()]):
                continue
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{path.name}:{line}", match[1], match[2]))
    return found


BLOCKS = _blocks()


def _param(place: str, language: str, code: str):
    marks = [pytest.mark.tvm, pytest.mark.slow] if NEEDS_TVM.search(code) else []
    return pytest.param(language, code, id=place, marks=marks)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding what the docs name."""
    path = tmp_path_factory.mktemp("docs")
    for name in ("examples", "tests"):
        (path / name).symlink_to(ROOT / name)
    (path / ".venv").symlink_to(BIN.parent)
    for name, text in PLACEHOLDERS.items():
        (path / name).write_text(text())
    return path


def test_the_docs_have_commands_and_snippets():
    places = {place.split(":")[0] for place, _, _ in BLOCKS}
    assert {"README.md", "upstream-xdsl.md"} <= places
    assert {language for _, language, _ in BLOCKS} == {"sh", "python"}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])
    env.pop("RELAY_XDSL_TRACEBACK", None)
    return env


def _dry_run_make(code: str) -> str:
    """``make TARGET`` lines as ``make -n TARGET`` in the checkout (see the module docstring)."""
    return re.sub(r"^make (\w+)", rf"make -C {ROOT} -n \1", code, flags=re.MULTILINE)


@pytest.mark.parametrize(("language", "code"), [_param(*block) for block in BLOCKS])
def test_block_runs(language: str, code: str, workspace: Path, tmp_path: Path):
    if NEEDS_TVM.search(code):
        pytest.importorskip("tvm")
        pytest.importorskip("torchvision")
    if NEEDS_IREE.search(code):
        pytest.importorskip("iree.compiler")
        pytest.importorskip("iree.runtime")
    if language == "sh":
        if re.search(r"^make ", code, re.MULTILINE) and shutil.which("make") is None:
            pytest.skip("make is not installed")
        command = ["bash", "-c", "set -e -o pipefail\n" + _dry_run_make(code)]
    else:
        command = [sys.executable, "-c", code]
    result = subprocess.run(
        command,
        cwd=workspace,
        env=_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,  # TVM's blocks build and run resnet18, on a busy machine too
    )
    assert result.returncode == 0, f"{result.stdout[-5000:]}\n{result.stderr[-5000:]}"


# -- what the README shows of the output -------------------------------------------------


def _readme_block(after: str, language: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(after)
    match = re.compile(rf"^```{language}\n(.*?)^```$", re.MULTILINE | re.DOTALL).search(text, start)
    assert match is not None
    return match[1]


def test_the_imports_as_snippet_is_the_import(workspace: Path):
    """Each line of README's "imports as" MLIR is a line of the seed's import
    (``...`` standing for what the README leaves out)."""
    snippet = _readme_block("imports as", "mlir")
    imported = _seed_mlir("fused.relay")
    for line in snippet.splitlines():
        words = [re.escape(part) for part in re.split(r"\s*\.\.\.\s*", line.strip())]
        pattern = r".*?".join(re.sub(r"(\\ )+", r"\\s+", w) for w in words)
        if pattern:
            assert re.search(pattern, imported), f"not in the import: {line}"


def test_the_fused_relay_snippet_is_the_seeds():
    """Each line of README's fused Relay function is a line of the seed, type
    comments aside (``...`` standing for what the README leaves out)."""
    snippet = _readme_block("A fused Relay function such as the seed's", "")
    seed = re.sub(r" ?/\* .*? \*/", "", (SEED / "fused.relay").read_text())
    for line in snippet.splitlines():
        words = [re.escape(part) for part in re.split(r"\s*\.\.\.\s*", line.strip())]
        pattern = r".*?".join(words)
        if pattern:
            assert re.search(pattern, seed), f"not in the seed: {line}"


def test_the_run_example_prints_what_the_readme_shows(workspace: Path, tmp_path: Path):
    """README's ``relay-xdsl run`` block prints, first, the output shown after it."""
    block = _readme_block("## Running a Relay program", "sh")
    shown = _readme_block("The first run prints", "")
    result = subprocess.run(
        ["bash", "-c", "set -e -o pipefail\n" + block],
        cwd=tmp_path,
        env=_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(shown)
