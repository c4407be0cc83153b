"""Every command in docs/ works as written.

Each ``sh`` block of a Markdown file in docs/ runs with bash from the root of
the checkout, stopping at the first command that fails, and must succeed.
The docs name the project's virtual environment ``.venv/bin/``, as ``make``
creates it; in a checkout without one (a worktree sharing another
checkout's environment), the environment running the tests stands in.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BIN = Path(sys.executable).parent
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _blocks() -> list[tuple[str, str]]:
    return [
        (f"{path.name}:{text.count(chr(10), 0, match.start()) + 1}", match[1])
        for path in sorted(DOCS.glob("*.md"))
        for text in [path.read_text()]
        for match in SH_BLOCK.finditer(text)
    ]


BLOCKS = _blocks()


def test_the_docs_have_commands():
    assert any(place.startswith("upstream-xdsl.md:") for place, _ in BLOCKS)


@pytest.mark.parametrize("block", [b for _, b in BLOCKS], ids=[p for p, _ in BLOCKS])
def test_command_block_runs(block: str):
    if not (ROOT / ".venv").exists():
        block = block.replace(".venv/bin/", f"{BIN}/")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    result = subprocess.run(
        ["bash", "-c", "set -e -o pipefail\n" + block],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
