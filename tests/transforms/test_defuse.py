"""relay-defuse on real TVM output: it inlines every fusion and changes nothing else."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.equivalence import relay_text_diff
from relay_xdsl.transforms.defuse import RelayDefusePass

TESTS = Path(__file__).resolve().parents[1]
SEED = TESTS.parent / "examples" / "seed"
FUSED_TEXTS = [
    p for p in sorted((TESTS / "importers" / "fixtures").glob("*.relay")) if "fn (" in p.read_text()
]


def _operators(module: ModuleOp) -> Counter[str]:
    return Counter(op.operator_name for op in module.walk() if isinstance(op, relay.OperatorOp))


def _constants(module: ModuleOp) -> list:
    return [(op.meta_index, op.value) for op in module.walk() if isinstance(op, relay.ConstantOp)]


def test_seed_defuse_matches_tvm_defuse_ops():
    module = parse_relay((SEED / "fused.relay").read_text(), "fused.relay")
    RelayDefusePass().apply(Context(), module)
    module.verify()
    assert relay_text_diff((SEED / "defused.relay").read_text(), print_relay(module)) == ""


@pytest.mark.parametrize("path", FUSED_TEXTS, ids=lambda p: p.stem)
def test_defuse_inlines_everything_and_keeps_the_rest(path: Path):
    module = parse_relay(path.read_text(), str(path))
    operators, constants = _operators(module), _constants(module)
    assert any(isinstance(op, relay.FnOp) for op in module.walk())
    RelayDefusePass(external=True).apply(Context(), module)
    module.verify()
    assert not any(isinstance(op, relay.FnOp) for op in module.walk())
    assert _operators(module) == operators
    assert _constants(module) == constants


def test_defuse_of_unfused_module_is_identity():
    text = (SEED / "defused.relay").read_text()
    module = parse_relay(text)
    before = str(module)
    RelayDefusePass().apply(Context(), module)
    assert str(module) == before


def test_composite_option_selects_by_name():
    module = parse_relay((SEED / "fused.relay").read_text())
    RelayDefusePass(composite=("some.other",)).apply(Context(), module)
    assert sum(isinstance(op, relay.FnOp) for op in module.walk()) == 3
    RelayDefusePass(composite=("ccompiler.conv_add_relu",)).apply(Context(), module)
    assert sum(isinstance(op, relay.FnOp) for op in module.walk()) == 0


@pytest.mark.parametrize("path", FUSED_TEXTS, ids=lambda p: p.stem)
def test_defuse_leaves_external_functions_alone(path: Path):
    """As TVM's DefuseOps (a function pass) does: ``Compiler`` functions keep their composites."""
    module = parse_relay(path.read_text(), str(path))
    RelayDefusePass().apply(Context(), module)
    module.verify()
    for function in module.ops:
        assert isinstance(function, FuncOp)
        fns = [op for op in function.walk() if isinstance(op, relay.FnOp)]
        before = parse_relay(path.read_text())
        (original,) = [f for f in before.ops if f.sym_name == function.sym_name]
        if "Compiler" in function.attributes:
            assert print_relay(ModuleOp([function.clone()])) == print_relay(
                ModuleOp([original.clone()])
            )
        else:
            assert not fns


def test_inline_globals_removes_partitions():
    path = TESTS / "importers" / "fixtures" / "collage_double_residual_2.relay"
    module = parse_relay(path.read_text())
    operators = _operators(module)
    RelayDefusePass(inline_globals=True).apply(Context(), module)
    module.verify()
    assert [f.sym_name.data for f in module.ops] == ["main"]
    # Each partition was called once, so the operator multiset is unchanged.
    assert _operators(module) == operators


def test_pass_is_reachable_by_name_with_options():
    from xdsl.passes import PassPipeline

    from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE

    passes = {name: factory() for name, factory in RELAY_UNIVERSE.all_passes.items()}
    pipeline = PassPipeline.parse_spec(passes, "relay-defuse{composite=a,b inline-globals=true}")
    (defuse,) = pipeline.passes
    assert defuse == RelayDefusePass(composite=("a", "b"), inline_globals=True)
