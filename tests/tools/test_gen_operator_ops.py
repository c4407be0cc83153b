"""relay_xdsl/dialects/relay/operator_ops.py is what the rows give.

The op classes are checked-in source generated from the registry rows by
``python -m relay_xdsl.tools.gen_operator_ops``; these tests fail when the
committed module is stale, and show that ``--check`` notices a stale module
and that regeneration works even where the stale module names a row that is
gone (a copy of the package is changed, never this checkout).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from relay_xdsl.tools import gen_operator_ops

ROOT = Path(__file__).resolve().parents[2]
GENERATED = Path("relay_xdsl") / "dialects" / "relay" / "operator_ops.py"


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, "-m", "relay_xdsl.tools.gen_operator_ops", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_committed_module_is_current():
    assert (ROOT / GENERATED).read_text() == gen_operator_ops.render(), (
        "run python -m relay_xdsl.tools.gen_operator_ops"
    )


def test_check_exits_1_on_a_stale_module_and_regeneration_survives_a_removed_row(
    tmp_path: Path,
):
    shutil.copytree(
        ROOT / "relay_xdsl", tmp_path / "relay_xdsl", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert _run(tmp_path, "--check").returncode == 0

    # Remove the row of nn.prelu: the generated module still names it, so the
    # dialect no longer imports, and --check says the module is stale.
    nn = tmp_path / "relay_xdsl" / "dialects" / "relay" / "operators" / "nn.py"
    text = nn.read_text()
    start = text.index('    Operator("nn.prelu",')
    end = text.index("    _softmax(", start)
    nn.write_text(text[:start] + text[end:])
    stale = _run(tmp_path, "--check")
    assert stale.returncode == 1
    assert "operator_ops.py is stale: run python -m relay_xdsl.tools.gen_operator_ops" in (
        stale.stderr
    )

    assert _run(tmp_path).returncode == 0
    assert _run(tmp_path, "--check").returncode == 0
    generated = (tmp_path / GENERATED).read_text()
    assert "class PreluOp(" not in generated
    assert "class ReluOp(" in generated
