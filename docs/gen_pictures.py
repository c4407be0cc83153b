"""Regenerate the pictures in docs/pictures/ (``make pictures``).

* ``seed-fused-defused``: the seed's fused module (examples/seed/fused.relay)
  beside its defused form (defused.relay);
* ``resnet18-merge-composite``: torchvision resnet18, batch norms folded,
  through TVM Relax into the relay dialect and fused by
  ``relay-merge-composite`` with the ``conv2d-add-relu`` table (as
  ``relay-xdsl import-torch resnet18 --fuse conv2d-add-relu`` does);
* ``resnet18-fuse-ops``: the same module grouped by ``relay-fuse-ops``.

Each picture is written as DOT (``NAME.dot``) and drawn by Graphviz
(``NAME.svg``). The DOT is deterministic; the SVG records the SHA-256 of
the DOT it was drawn from, so tests/docs/test_pictures.py checks that both
are current without depending on Graphviz's version.

Usage: ``python docs/gen_pictures.py [NAME ...]`` (default: all).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.support.gc_pause import gc_paused
from relay_xdsl.tools import xdsl_patches
from relay_xdsl.tools.drawing import drawings
from relay_xdsl.tools.mlir_text import relay_context
from relay_xdsl.viz.dot import dot_text, render

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "pictures"
SEED = ROOT / "examples" / "seed"
HASH_COMMENT = "<!-- drawn from DOT with sha256 {} -->"


def _seed(name: str) -> ModuleOp:
    path = SEED / f"{name}.relay"
    return parse_relay(path.read_text(), f"examples/seed/{path.name}")


def resnet18(fusion: str) -> ModuleOp:
    """resnet18 in the relay dialect, fused by ``merge-composite`` or ``fuse-ops``."""
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
    from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass
    from relay_xdsl.tvm import models

    module = import_relax(models.folded_module("resnet18"))
    if fusion == "merge-composite":
        RelayMergeCompositePass(table="conv2d-add-relu").apply(relay_context(), module)
    else:
        RelayFuseOpsPass().apply(relay_context(), module)
    return module


PICTURE_MODULES: dict[str, Callable[[], list[tuple[str, ModuleOp]]]] = {
    "seed-fused-defused": lambda: [
        ("examples/seed/fused.relay", _seed("fused")),
        ("examples/seed/defused.relay", _seed("defused")),
    ],
    "resnet18-merge-composite": lambda: [
        ("resnet18, relay-merge-composite (conv2d-add-relu)", resnet18("merge-composite"))
    ],
    "resnet18-fuse-ops": lambda: [("resnet18, relay-fuse-ops", resnet18("fuse-ops"))],
}
"""Each picture's modules (title, module): one, or two drawn side by side."""


def picture_dot(name: str) -> str:
    """The DOT of picture `name`, from its modules as they are now."""
    with gc_paused():
        return dot_text(drawings(PICTURE_MODULES[name]()))


def dot_hash(dot: str) -> str:
    return hashlib.sha256(dot.encode()).hexdigest()


def svg_of(dot: str) -> str:
    """`dot` drawn by Graphviz, marked with the hash of `dot`."""
    svg = render(dot)
    prolog_end = svg.index("?>") + 2 if svg.startswith("<?xml") else 0
    return svg[:prolog_end] + "\n" + HASH_COMMENT.format(dot_hash(dot)) + svg[prolog_end:]


def main(names: list[str]) -> None:
    xdsl_patches.apply()
    PICTURES.mkdir(exist_ok=True)
    for name in names or PICTURE_MODULES:
        dot = picture_dot(name)
        (PICTURES / f"{name}.dot").write_text(dot)
        (PICTURES / f"{name}.svg").write_text(svg_of(dot))
        print(f"wrote docs/pictures/{name}.dot and .svg")


if __name__ == "__main__":
    main(sys.argv[1:])
