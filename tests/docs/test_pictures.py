"""The pictures in docs/pictures/ are current, and each shows every relay.fn as a cluster.

docs/gen_pictures.py (``make pictures``) writes each picture as DOT and as
the SVG Graphviz draws from it, marked with the DOT's hash. The DOT is
regenerated here and must equal the committed one; the committed SVG must be
drawn from it. Freshly rendered, each picture's SVG has one cluster per
``relay.fn`` op of its modules (the seed's fused module, resnet18 fused by
``relay-merge-composite`` and by ``relay-fuse-ops``).
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from relay_xdsl.dialects import relay
from relay_xdsl.viz.dot import render
from relay_xdsl.viz.graph import count_fn_ops, group_name

ROOT = Path(__file__).resolve().parents[2]
PICTURES = ROOT / "docs" / "pictures"
REGENERATE = "regenerate with `make pictures` (docs/gen_pictures.py)"


@functools.cache
def _generator() -> ModuleType:
    path = ROOT / "docs" / "gen_pictures.py"
    spec = importlib.util.spec_from_file_location("gen_pictures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NAMES = list(_generator().PICTURE_MODULES)
NEEDS_TVM = {"resnet18-merge-composite", "resnet18-fuse-ops"}


def _marks(name: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow, pytest.mark.tvm] if name in NEEDS_TVM else []


@pytest.mark.parametrize("name", [pytest.param(n, marks=_marks(n)) for n in NAMES])
def test_picture_is_current_and_shows_every_group(name: str):
    generator = _generator()
    modules = generator.PICTURE_MODULES[name]()
    dot = generator.dot_text(generator.drawings(modules))
    committed_dot = (PICTURES / f"{name}.dot").read_text()
    assert dot == committed_dot, f"docs/pictures/{name}.dot is stale: {REGENERATE}"
    committed_svg = (PICTURES / f"{name}.svg").read_text()
    assert generator.HASH_COMMENT.format(generator.dot_hash(dot)) in committed_svg, (
        f"docs/pictures/{name}.svg was not drawn from {name}.dot: {REGENERATE}"
    )
    # One cluster per relay.fn op, labelled with that op's Composite or Primitive name.
    svg = render(dot)
    labels = re.findall(
        r'<g id="(?:[ab]\.)?fn_\d+" class="cluster">\s*<title>[^<]*</title>\s*'
        r"(?:<[^t][^>]*>\s*)*<text[^>]*>([^<]*)</text>",
        svg,
    )
    expected = [
        group_name(
            op, [o.operator_name for o in op.body.block.ops if isinstance(o, relay.OperatorOp)]
        )[0]
        for _, module in modules
        for op in module.walk()
        if isinstance(op, relay.FnOp)
    ]
    assert len(labels) == sum(count_fn_ops(module) for _, module in modules) > 0
    assert sorted(labels) == sorted(expected)


def test_the_readme_shows_the_pictures():
    readme = (ROOT / "README.md").read_text()
    for name in ("seed-fused-defused", "resnet18-fuse-ops"):
        assert f"docs/pictures/{name}.svg" in readme
