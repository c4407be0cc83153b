"""The TVM-0.19 comparison (bench/tvm019): what runs without TVM 0.19.

TVM 0.19's own outputs on the committed texts are golden files beside them,
so relay-fuse-ops is checked against its FuseOps here; the timing itself
(`python -m bench.tvm019`) needs TVM 0.19 and skips without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from bench.tvm019.compare import HEADING, replace_section
from bench.tvm019.measure_ours import defused, fused
from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay

ROOT = Path(__file__).resolve().parents[2]
TEXTS = ROOT / "bench" / "tvm019" / "texts"
MODELS = sorted(p.stem for p in TEXTS.glob("*.relay") if p.stem.count(".") == 0)


def _groups(module: ModuleOp) -> list[list[str]]:
    """The operators of each ``Primitive`` function, in order."""
    return [
        [op.operator_name for op in fn.body.walk() if isinstance(op, relay.OperatorOp)]
        for fn in module.walk()
        if isinstance(fn, relay.FnOp) and "Primitive" in fn.attributes
    ]


def test_every_model_has_its_text():
    assert MODELS == [
        "bert",
        "convnext_tiny",
        "efficientnet_b0",
        "gpt2",
        "lraspp_mobilenet_v3_large",
        "mnist",
        "mobilenet_v2",
        "mobilenet_v2_16",
        "resnet50",
        "resnet50_16",
        "squeezenet1_1",
    ]


@pytest.mark.parametrize("model", MODELS)
def test_fuse_ops_makes_tvm_019s_groups_and_defuse_undoes_them(model: str):
    text = (TEXTS / f"{model}.relay").read_text()
    module = parse_relay(text, f"{model}.relay")
    ours = fused(module.clone())
    theirs = parse_relay((TEXTS / f"{model}.fused.relay").read_text(), f"{model}.fused.relay")
    assert _groups(ours) == _groups(theirs)
    assert print_relay(defused(ours)) == print_relay(module)


def test_the_section_replaces_its_predecessor_in_place():
    document = "# results\n\n## Steps\n\nrows\n\n## Check failures\n\n- x\n"
    first = replace_section(document, f"{HEADING}\n\nold")
    assert (
        first == f"# results\n\n## Steps\n\nrows\n\n{HEADING}\n\nold\n\n## Check failures\n\n- x\n"
    )
    second = replace_section(first, f"{HEADING}\n\nnew")
    assert second == first.replace("old", "new")
    assert replace_section("# results\n", f"{HEADING}\n\nnew") == f"# results\n\n{HEADING}\n\nnew\n"


def test_it_skips_with_a_message_without_tvm_019(tmp_path: Path):
    output = tmp_path / "results.md"
    done = subprocess.run(
        [sys.executable, "-m", "bench.tvm019", "--output", str(output)],
        cwd=ROOT,
        env={**os.environ, "RELAY_TVM019": str(tmp_path / "missing")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "TVM 0.19 not found" in done.stdout and "skipped" in done.stdout
    assert not output.exists()
