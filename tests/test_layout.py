"""The package's layers: imports run one way, from tools down to support.

A module may import its own folder and any folder below it in `LAYERS`,
never one beside or above it. This keeps the pipeline readable from the
folder names (README, "How the code is organised").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "relay_xdsl"

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"support"}),
    frozenset({"dialects"}),
    frozenset({"relay_text"}),
    frozenset({"interpreter"}),
    frozenset({"importers", "exporters", "transforms", "viz"}),
    frozenset({"conversion"}),
    frozenset({"tvm"}),
    frozenset({"compiler"}),
    frozenset({"tools", "dataflow_pattern"}),
)
"""Bottom first; folders in one layer do not import each other."""


def _layer(folder: str) -> int:
    return next(rank for rank, layer in enumerate(LAYERS) if folder in layer)


def _imported_folders(path: Path) -> set[str]:
    folders = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "relay_xdsl" and len(parts) > 1:
                folders.add(parts[1])
    return folders


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


def test_root_holds_only_the_package_marker():
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py"]


def test_every_folder_has_a_layer():
    folders = {p.relative_to(PACKAGE).parts[0] for p in MODULES}
    assert folders == set().union(*LAYERS)


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_run_one_way(module: Path):
    own = module.relative_to(PACKAGE).parts[0]
    wrong = {
        folder
        for folder in _imported_folders(module)
        if folder != own and _layer(folder) >= _layer(own)
    }
    assert not wrong, f"{module.relative_to(PACKAGE)} imports sideways or upwards: {sorted(wrong)}"
