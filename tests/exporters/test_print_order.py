"""TVM's print order: any order of the same graph prints one text, TVM's.

So for a text TVM printed, ``defuse(fuse(x))`` prints exactly ``x`` (temps,
parameter names and all), even where a fused group was not contiguous in
``x`` and the pass left the group's ops elsewhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.passes import ModulePass

from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.equivalence import canonical_relay
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass

HERE = Path(__file__).parent
TESTS = HERE.parent
RESIDUAL = HERE / "fixtures" / "residual_blocks.relay"
# Texts TVM printed (the seed's, the collage tests' expected modules) and
# texts in TVM's order; collage_fusion_benefit_1 was written by hand in another.
PRINTED = [
    p
    for p in [
        RESIDUAL,
        *sorted((TESTS / "importers" / "fixtures").glob("*.relay")),
        *sorted((TESTS.parent / "examples" / "seed").glob("*.relay")),
    ]
    if p.stem != "collage_fusion_benefit_1"
]
UNFUSED = [p for p in PRINTED if "fn (" not in p.read_text()]
PASSES: dict[str, ModulePass] = {
    "fuse-ops": RelayFuseOpsPass(),
    "fuse-ops-level0": RelayFuseOpsPass(fuse_opt_level=0),
    "merge-composite": RelayMergeCompositePass(),
}


def _text(path: Path) -> str:
    return "\n".join(line for line in path.read_text().splitlines() if not line.startswith("//"))


@pytest.mark.parametrize("path", PRINTED, ids=lambda p: p.stem)
def test_printed_text_reads_back_and_prints_the_same(path: Path):
    text = _text(path)
    printed = print_relay(parse_relay(text, str(path)))
    assert canonical_relay(printed, renumber=False) == canonical_relay(text, renumber=False)


@pytest.mark.parametrize("pass_", PASSES, ids=str)
@pytest.mark.parametrize("path", UNFUSED, ids=lambda p: p.stem)
def test_defuse_of_fusion_prints_exactly_the_input(path: Path, pass_: str):
    module = parse_relay(_text(path), str(path))
    expected = print_relay(module)
    PASSES[pass_].apply(Context(), module)
    module.verify()
    RelayDefusePass().apply(Context(), module)
    module.verify()
    assert print_relay(module) == expected


@pytest.mark.parametrize("pass_", ["fuse-ops", "merge-composite"])
def test_residual_groups_are_not_contiguous(pass_: str):
    """The fixture tests what it should: after the round trip the block's ops
    are in another order (a group's members were not contiguous), and only
    the print order makes the text the same."""
    module = parse_relay(_text(RESIDUAL))
    before = [op.name for op in module.walk()]
    PASSES[pass_].apply(Context(), module)
    RelayDefusePass().apply(Context(), module)
    after = [op.name for op in module.walk()]
    assert sorted(after) == sorted(before) and after != before
    assert print_relay(module) == print_relay(parse_relay(_text(RESIDUAL)))


def test_one_order_one_text():
    """The same graph with its bindings reordered prints the same text."""
    text = _text(RESIDUAL)
    lines = text.splitlines()
    # Move the shortcut convolution (%5) to the top of the body: same graph.
    body_start = next(i for i, line in enumerate(lines) if line.startswith("def ")) + 1
    shortcut = next(i for i, line in enumerate(lines) if "%5 = " in line)
    moved = (
        lines[:body_start]
        + [lines[shortcut]]
        + [line for i, line in enumerate(lines[body_start:], body_start) if i != shortcut]
    )
    assert print_relay(parse_relay("\n".join(moved))) == print_relay(parse_relay(text))
