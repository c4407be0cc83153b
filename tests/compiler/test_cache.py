"""The object cache: where it is, its keys, and builds that take from it and fill it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler import build as build_module
from relay_xdsl.compiler.build import build, compile_library, generic_text, translate_to_llvm_ir
from relay_xdsl.compiler.cache import CACHE_VARIABLE, ObjectCache, cache_key, default_cache
from relay_xdsl.compiler.frontend import lower
from relay_xdsl.compiler.pipeline import stages
from relay_xdsl.compiler.program import program_from_mlir
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.compiler.schedule import SCHEDULE
from relay_xdsl.importers.relay_text import parse_relay

SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"


def test_the_default_cache_follows_the_environment(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(CACHE_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert default_cache() == ObjectCache(Path("/somewhere/relay-xdsl"))
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache() == ObjectCache(Path.home() / ".cache" / "relay-xdsl")
    monkeypatch.setenv(CACHE_VARIABLE, "~/objects")
    assert default_cache() == ObjectCache(Path.home() / "objects")
    monkeypatch.setenv(CACHE_VARIABLE, "Off")
    assert default_cache() is None


def test_keys_tell_their_parts_apart():
    assert cache_key(["ab", "c"]) != cache_key(["a", "bc"])
    assert cache_key(["ab", "c"]) == cache_key(["ab", "c"])
    assert len(cache_key([])) == 64


def test_an_unwritable_cache_is_no_cache(tmp_path: Path):
    (tmp_path / "file").write_text("not a directory")
    cache = ObjectCache(tmp_path / "file")
    object_file = tmp_path / "unit.o"
    object_file.write_bytes(b"object")
    assert cache.put("ab" * 32, object_file) == object_file
    assert cache.get("ab" * 32) is None


@pytest.fixture
def tool_runs(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times the build runs each tool."""
    runs: Counter[str] = Counter()
    real = build_module.run_tool

    def counted(name: str, *arguments, **options):
        runs[name] += 1
        return real(name, *arguments, **options)

    monkeypatch.setattr(build_module, "run_tool", counted)
    return runs


def _kept(cache: ObjectCache) -> set[Path]:
    return set(cache.directory.glob("objects/*/*.o"))


def test_a_build_fills_the_cache_and_the_next_takes_from_it(
    tmp_path: Path, tosa: SimpleNamespace, tool_runs: Counter[str]
):
    cache = ObjectCache(tmp_path / "cache")
    program = program_from_mlir(tosa.GROUPS, function="model")
    x, w = np.arange(6, dtype=np.float32).reshape(2, 3) - 3, np.ones((2, 3), np.float32)
    build(program, tmp_path / "a.so", cache=cache, jobs=1)
    # two units and memrefCopy's, then the link
    assert tool_runs == {"mlir-opt": 2, "mlir-translate": 2, "clang": 4}
    assert len(_kept(cache)) == 3
    tool_runs.clear()
    build(program, tmp_path / "b.so", cache=cache, jobs=1)
    assert tool_runs == {"clang": 1}  # the link alone
    for library in ("a.so", "b.so"):
        outputs = CompiledModel.load(tmp_path / library)(x, w)
        for output, expected in zip(outputs, tosa.groups(x, w), strict=True):
            np.testing.assert_array_equal(output, expected)


def test_a_changed_group_is_compiled_again(
    tmp_path: Path, tosa: SimpleNamespace, tool_runs: Counter[str]
):
    cache = ObjectCache(tmp_path / "cache")
    build(program_from_mlir(tosa.GROUPS, function="model"), tmp_path / "a.so", cache=cache, jobs=1)
    kept = _kept(cache)
    tool_runs.clear()
    changed = tosa.GROUPS.replace("max_val = 3.0e+38", "max_val = 1.0")  # relu6-like, at 1
    build(program_from_mlir(changed, function="model"), tmp_path / "b.so", cache=cache, jobs=1)
    # the groups' unit, and the model's, which calls the clamp under its new name
    assert tool_runs == {"mlir-opt": 2, "mlir-translate": 2, "clang": 3}
    assert len(_kept(cache) - kept) == 2
    x, w = np.full((2, 3), 2, np.float32), np.ones((2, 3), np.float32)
    total, _ = CompiledModel.load(tmp_path / "b.so")(x, w)
    np.testing.assert_array_equal(total, np.minimum(x + w, 1) + x)


def test_without_the_cache_nothing_is_kept(
    tmp_path: Path, tosa: SimpleNamespace, monkeypatch: pytest.MonkeyPatch, tool_runs: Counter[str]
):
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    program = program_from_mlir(tosa.GROUPS, function="model")
    build(program, tmp_path / "a.so", cache=False, jobs=1)
    build(program, tmp_path / "b.so", cache=False, jobs=1)
    assert tool_runs == {"mlir-opt": 4, "mlir-translate": 4, "clang": 8}
    monkeypatch.setenv(CACHE_VARIABLE, "off")
    build(program, tmp_path / "c.so", jobs=1)
    assert not (tmp_path / "cache").exists()


def test_units_compute_what_the_whole_module_computes(tmp_path: Path):
    """The seed (resnet18's first layers, random weights), built in units from a cold
    cache, from a warm one, and as one module: the same bits."""
    module = parse_relay((SEED / "defused.relay").read_text(), "defused.relay")
    program = lower(module, random_constants=0)
    cache = ObjectCache(tmp_path / "cache")
    build(program, tmp_path / "cold.so", schedule=SCHEDULE, cache=cache, jobs=2)
    build(program, tmp_path / "warm.so", schedule=SCHEDULE, cache=cache, jobs=2)
    whole = tmp_path / "whole.so"
    llvm = build_module.lower_to_llvm_dialect(generic_text(program), stages(SCHEDULE), SCHEDULE)
    compile_library(translate_to_llvm_ir(llvm), whole)
    data = np.random.default_rng(1).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    (cold,) = CompiledModel.load(tmp_path / "cold.so")(data)
    (warm,) = CompiledModel.load(tmp_path / "warm.so")(data)
    (tmp_path / "whole.json").write_text((tmp_path / "cold.json").read_text())
    (tmp_path / "whole.npz").write_bytes((tmp_path / "cold.npz").read_bytes())
    (one_piece,) = CompiledModel.load(whole)(data)
    assert cold.std() > 0.01
    np.testing.assert_array_equal(cold, one_piece)
    np.testing.assert_array_equal(warm, one_piece)


def test_ops_outside_groups_compute_in_groups_of_their_own(tmp_path: Path, tosa: SimpleNamespace):
    """Ops of the model's function outlined into groups (units.py): what numpy and the
    module in one piece compute."""
    program = program_from_mlir(tosa.OUTSIDE_GROUPS, function="model")
    build(program, tmp_path / "units.so", schedule=SCHEDULE, cache=False)
    llvm = build_module.lower_to_llvm_dialect(generic_text(program), stages(SCHEDULE), SCHEDULE)
    compile_library(translate_to_llvm_ir(llvm), tmp_path / "whole.so")
    (tmp_path / "whole.json").write_text((tmp_path / "units.json").read_text())
    x, w = np.arange(6, dtype=np.float32).reshape(2, 3) - 3, np.ones((2, 3), np.float32)
    units = CompiledModel.load(tmp_path / "units.so")(x, w)
    whole = CompiledModel.load(tmp_path / "whole.so")(x, w)
    for output, one_piece, expected in zip(units, whole, tosa.outside_groups(x, w), strict=True):
        np.testing.assert_array_equal(output, expected)
        np.testing.assert_array_equal(output, one_piece)
