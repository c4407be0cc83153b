"""The package's layers: imports run one way, from tools down to support.

A module may import its own folder and any folder below it in `LAYERS`,
never one beside or above it. This keeps the pipeline readable from the
folder names (README, "How the code is organised").

A name with a leading underscore belongs to its module: no other module
imports it or reaches it through an imported name. What modules share is
public. xDSL's private names are used in one module only,
support/xdsl_internals.py, which checks the xDSL version they were written for.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
import xdsl

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


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_names_used(path: Path) -> list[str]:
    """The private names of other relay_xdsl modules that `path` uses:
    imported (``from relay_xdsl.x import _y``, ``import relay_xdsl._x``) or
    reached through an imported name (``x._y``, ``x.Y._z``)."""
    tree = ast.parse(path.read_text())
    imported: set[str] = set()
    used = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level or node.module.split(".")[0] != "relay_xdsl":
                continue
            for alias in node.names:
                if _private(alias.name) or any(map(_private, node.module.split("."))):
                    used.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] != "relay_xdsl":
                    continue
                if any(map(_private, parts)):
                    used.append(f"line {node.lineno}: import {alias.name}")
                imported.add(alias.asname or parts[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in imported:
                used.append(f"line {node.lineno}: {ast.unparse(node)}")
    return used


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


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_names_across_modules(module: Path):
    used = _private_names_used(module)
    assert not used, f"{module.relative_to(PACKAGE)} uses private names of other modules: {used}"


def test_private_names_across_modules_are_found(tmp_path: Path):
    module = tmp_path / "m.py"
    module.write_text(
        "from relay_xdsl.a import _b, c\n"
        "import relay_xdsl.d as d\n"
        "from relay_xdsl import _e\n"
        "c._f(d.g._h, self._own, __name__)\n"
    )
    assert _private_names_used(module) == [
        "line 1: from relay_xdsl.a import _b",
        "line 3: from relay_xdsl import _e",
        "line 4: c._f",
        "line 4: d.g._h",
    ]


XDSL_INTERNALS = PACKAGE / "support" / "xdsl_internals.py"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and len(name) > 1


def _defined_names(tree: ast.AST) -> set[str]:
    """The names `tree` defines: functions, classes, variables, attributes and parameters."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


@functools.cache
def _xdsl_private_names() -> frozenset[str]:
    """The private names that the installed xDSL's source defines."""
    names: set[str] = set()
    for path in Path(xdsl.__file__).parent.rglob("*.py"):
        names |= _defined_names(ast.parse(path.read_text(encoding="utf-8")))
    return frozenset(name for name in names if _private(name))


def _xdsl_private_uses(path: Path) -> list[str]:
    """Where `path` uses a private name of xDSL's: imported from xDSL, passed as a
    keyword, or read from an object other than the module's own ``self`` or ``cls``
    (a name the module defines itself is its own there)."""
    tree = ast.parse(path.read_text())
    xdsl_names, own = _xdsl_private_names(), _defined_names(tree)
    uses = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "xdsl":
            names = [alias.name for alias in node.names if _private(alias.name)]
        elif isinstance(node, ast.keyword) and node.arg in xdsl_names:
            names = [node.arg]
        elif isinstance(node, ast.Attribute) and node.attr in xdsl_names:
            on_own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if not (on_own and node.attr in own):
                names = [node.attr]
        uses.extend(f"{path.relative_to(PACKAGE)}:{node.lineno}: {name}" for name in names)
    return uses


def test_xdsl_private_names_are_used_only_in_xdsl_internals():
    uses = [
        use for module in MODULES if module != XDSL_INTERNALS for use in _xdsl_private_uses(module)
    ]
    assert not uses, "xDSL's private names outside support/xdsl_internals.py:\n" + "\n".join(uses)


def test_the_check_sees_xdsl_private_names():
    assert _xdsl_private_uses(XDSL_INTERNALS)
