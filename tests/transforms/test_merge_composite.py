"""relay-merge-composite: TVM's MergeComposite on the seed, fixtures and random graphs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType, f32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import PassFailedException

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import relay_name, set_relay_name
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.equivalence import relay_text_diff
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass, merge_composite
from relay_xdsl.transforms.patterns import (
    builtin_pattern_table,
    is_constant,
    is_op,
    is_tuple,
    is_tuple_get_item,
    wildcard,
)

TESTS = Path(__file__).resolve().parents[1]
SEED = TESTS.parent / "examples" / "seed"
FIXTURES = sorted((TESTS / "importers" / "fixtures").glob("*.relay"))
HEADER = '#[version = "0.0.5"]\n'
T = "Tensor[(4, 4), float32]"


@pytest.fixture(autouse=True)
def _seed_patterns_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    yield
    sys.modules.pop("seed_patterns", None)


def _fns(module: ModuleOp) -> list[relay.FnOp]:
    return [op for op in module.walk() if isinstance(op, relay.FnOp)]


def _defuse(module: ModuleOp, **options) -> ModuleOp:
    RelayDefusePass(**options).apply(Context(), module)
    module.verify()
    return module


def canonical_mlir(module: ModuleOp) -> str:
    """`module` printed with every block in a canonical dataflow order.

    Two modules print the same iff they have the same operations, attributes,
    names and SSA graph, whatever the order of independent operations.
    """
    module = module.clone()
    blocks = [b for op in module.walk() for r in op.regions for b in r.blocks]
    for block in blocks:
        order = _dataflow_order(block)
        for op in order:
            op.detach()
        block.add_ops(order)
    return str(module)


def _dataflow_order(block: Block) -> list[Operation]:
    """Post-order from each unused operation (in block order), then from the terminator."""
    terminator = block.last_op
    starts = [
        op
        for op in block.ops
        if op is not terminator and all(not result.uses for result in op.results)
    ]
    if terminator is not None:
        starts.append(terminator)
    order: list[Operation] = []
    seen: set[Operation] = set()
    for start in starts:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(start.operands))]
        while stack:
            current, operands = stack[-1]
            for operand in operands:
                owner = operand.owner
                if isinstance(owner, Operation) and owner.parent is block and owner not in seen:
                    seen.add(owner)
                    stack.append((owner, iter(owner.operands)))
                    break
            else:
                stack.pop()
                order.append(current)
    return order


# ---------------------------------------------------------------------------
# The seed: THE acceptance case
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pass_",
    [
        RelayMergeCompositePass(),
        RelayMergeCompositePass(table="conv2d-add-relu"),
        RelayMergeCompositePass(patterns="seed_patterns:pattern_table"),
        RelayMergeCompositePass(patterns="seed_patterns:make_pattern_table"),
    ],
    ids=["default", "builtin", "user-table", "user-function"],
)
def test_seed_merge_gives_tvm_fused_text(pass_):
    module = parse_relay((SEED / "defused.relay").read_text(), "defused.relay")
    pass_.apply(Context(), module)
    module.verify()
    fused = (SEED / "fused.relay").read_text()
    assert relay_text_diff(fused, print_relay(module)) == ""
    fns = _fns(module)
    assert [relay_name(f.params[0]) for f in fns] == [
        "FunctionVar_2_0",
        "FunctionVar_1_0",
        "FunctionVar_0_0",
    ]
    assert [list(f.attributes) for f in fns] == [["PartitionedFromPattern", "Composite"]] * 3


def test_seed_defuse_of_merge_is_identity():
    text = (SEED / "defused.relay").read_text()
    module = parse_relay(text)
    original = module.clone()
    merge_composite(module, builtin_pattern_table("conv2d-add-relu"))
    module.verify()
    _defuse(module)
    # Relay text (constants print inline) is identical, character for character.
    assert print_relay(module) == print_relay(original)
    assert canonical_mlir(module) == canonical_mlir(original)
    # The constants between conv2d and add now precede conv2d (a call's
    # arguments come first); from there on the round trip is exact.
    once = str(module)
    merge_composite(module, builtin_pattern_table("conv2d-add-relu"))
    _defuse(module)
    assert str(module) == once


def test_seed_fused_text_is_a_fixpoint():
    """Merging TVM's own output again finds nothing: composite bodies are not searched."""
    module = parse_relay((SEED / "fused.relay").read_text())
    before = str(module)
    merge_composite(module, builtin_pattern_table("conv2d-add-relu"))
    assert str(module) == before


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------

FIXTURE_TABLE = [
    ("add_relu", is_op("nn.relu")(is_op("add")(wildcard(), wildcard()))),
    ("relu", is_op("nn.relu")(wildcard())),
    ("abs", is_op("abs")(wildcard())),
    ("add", is_op("add")(wildcard(), wildcard())),
    ("negative", is_op("negative")(wildcard())),
]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_defuse_of_merge_is_identity_on_fixtures(path: Path):
    module = parse_relay(path.read_text(), str(path))
    expected = _defuse(module.clone())
    merge_composite(module, FIXTURE_TABLE)
    module.verify()
    _defuse(module)
    assert canonical_mlir(module) == canonical_mlir(expected)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_defuse_of_merge_is_identity_on_flattened_fixtures(path: Path):
    flat = _defuse(parse_relay(path.read_text(), str(path)), inline_globals=True)
    module = flat.clone()
    merge_composite(module, FIXTURE_TABLE)
    module.verify()
    has_ops = any(isinstance(op, relay.OperatorOp) for op in flat.walk())
    assert bool(_fns(module)) == has_ops
    _defuse(module)
    assert print_relay(module) == print_relay(flat)
    assert canonical_mlir(module) == canonical_mlir(flat)


# ---------------------------------------------------------------------------
# Random graphs: relay-defuse ∘ relay-merge-composite is the identity
# ---------------------------------------------------------------------------

IMG = TensorType(f32, [1, 4, 6, 6])
VEC = TensorType(f32, [2, 4])
CONV_W = TensorType(f32, [4, 4, 1, 1])
IMG_BIAS = TensorType(f32, [4, 1, 1])
CHANNEL_BIAS = TensorType(f32, [4])
DENSE_W = TensorType(f32, [4, 4])


def _add_sub_mul():
    x, y = wildcard(), wildcard()
    return (x + y) * (x - y)


PROPERTY_TABLES = {
    name: builtin_pattern_table(name)
    for name in ("conv2d-add-relu", "conv2d-bias-relu", "dense-bias-act")
}
PROPERTY_TABLES["everything"] = [
    entry for table in list(PROPERTY_TABLES.values()) for entry in table
]
PROPERTY_TABLES["mixed"] = [
    ("conv_const", is_op("nn.conv2d")(wildcard(), is_constant())),
    ("add_relu", is_op("nn.relu")(is_op("add")(wildcard(), wildcard()))),
    ("tuple_item", is_op("nn.relu")(is_tuple_get_item(is_tuple(None), 0))),
    ("pair", is_tuple([wildcard(), is_op("nn.relu")(wildcard())])),
    ("add_sub_mul", _add_sub_mul()),
    ("dense", is_op("nn.dense")(wildcard(), wildcard())),
]


@st.composite
def relay_dags(draw) -> ModuleOp:
    """A well-typed function of conv2d/add/relu/bias_add/dense/tuple ops on shared values."""
    block = Block(arg_types=[IMG, VEC, CONV_W, IMG_BIAS, DENSE_W, CHANNEL_BIAS])
    for arg, name in zip(block.args, ["x", "v", "w", "b", "dw", "cb"]):
        set_relay_name(arg, name)
    pools: dict[TensorType, list[SSAValue]] = {IMG: [block.args[0]], VEC: [block.args[1]]}
    params = dict(zip([CONV_W, IMG_BIAS, DENSE_W, CHANNEL_BIAS], block.args[2:]))
    meta = iter(range(1000))

    def pick(kind: TensorType) -> SSAValue:
        return draw(st.sampled_from(pools[kind]))

    def weight(kind: TensorType) -> SSAValue:
        if draw(st.booleans()):
            return params[kind]
        constant = relay.ConstantOp(kind, meta_index=next(meta))
        block.add_op(constant)
        return constant.result

    def emit(op: Operation) -> None:
        block.add_op(op)
        result = op.results[0]
        if result.type in pools:
            pools[result.type].append(result)

    for _ in range(draw(st.integers(1, 14))):
        kind = draw(st.sampled_from([IMG, VEC]))
        choice = draw(
            st.sampled_from(
                ["conv", "add", "add_bias", "relu", "bias_add", "dense", "act", "tuple"]
            )
        )
        if choice == "conv" or (choice == "dense" and kind is IMG):
            x = pick(IMG)
            emit(relay.Conv2DOp([x, weight(CONV_W)], IMG))
        elif choice == "dense":
            x = pick(VEC)
            op_class = draw(st.sampled_from([relay.DenseOp, relay.MatmulOp]))
            emit(op_class([x, weight(DENSE_W)], VEC))
        elif choice == "add":
            emit(relay.AddOp([pick(kind), pick(kind)], kind))
        elif choice == "add_bias":
            x = pick(kind)
            bias = weight(IMG_BIAS if kind is IMG else CHANNEL_BIAS)
            args = [x, bias] if draw(st.booleans()) else [bias, x]
            emit(relay.AddOp(args, kind))
        elif choice == "bias_add":
            x = pick(kind)
            emit(relay.BiasAddOp([x, weight(CHANNEL_BIAS)], kind))
        elif choice == "relu":
            emit(relay.ReluOp([pick(kind)], kind))
        elif choice == "act":
            op_class = draw(st.sampled_from([relay.SigmoidOp, relay.TanhOp, relay.ReluOp]))
            emit(op_class([pick(kind)], kind))
        else:
            a, b = pick(kind), pick(draw(st.sampled_from([IMG, VEC])))
            tuple_op = relay.TupleOp([a, b])
            block.add_op(tuple_op)
            index = draw(st.integers(0, 1))
            if draw(st.booleans()):
                emit(relay.TupleGetItemOp(tuple_op.result, index))
    produced = [
        result for op in block.ops if not isinstance(op, relay.ConstantOp) for result in op.results
    ]
    sinks = [value for value in produced if not value.uses] or [block.args[0]]
    keep_dead_code = draw(st.booleans())
    if keep_dead_code or len(sinks) == 1:
        result = sinks[-1]
    else:
        tuple_op = relay.TupleOp(sinks)
        block.add_op(tuple_op)
        result = tuple_op.result
    block.add_op(func.ReturnOp(result))
    function = func.FuncOp("main", (list(block.arg_types), [result.type]), Region(block))
    module = ModuleOp([function])
    module.verify()
    return module


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(relay_dags(), st.sampled_from(sorted(PROPERTY_TABLES)))
def test_defuse_inverts_merge_on_random_graphs(module: ModuleOp, table: str):
    original = canonical_mlir(module)
    merge_composite(module, PROPERTY_TABLES[table])
    module.verify()
    event(f"composites: {min(len(_fns(module)), 3)}")
    _defuse(module)
    assert canonical_mlir(module) == original
    # Matches are contiguous now, so a second round trip is exact.
    once = str(module)
    merge_composite(module, PROPERTY_TABLES[table])
    module.verify()
    _defuse(module)
    assert str(module) == once


# ---------------------------------------------------------------------------
# TVM rules, one at a time
# ---------------------------------------------------------------------------


def _merge_text(body: str, table, params: str = f"%x: {T}, %y: {T}", **options) -> ModuleOp:
    module = parse_relay(f"{HEADER}def @main({params}) {{\n{body}\n}}\n")
    merge_composite(module, table, **options)
    module.verify()
    return module


ADD_RELU = [("add_relu", is_op("nn.relu")(is_op("add")(wildcard(), wildcard())))]
CONV_RELU = [("conv_relu", is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard())))]
IMG_PARAMS = "%x: Tensor[(1, 4, 4, 4), float32], %w: Tensor[(4, 4, 1, 1), float32]"


def test_rejected_matches_still_use_up_a_group_number():
    module = _merge_text(
        """
  %0 = nn.conv2d(%x, %w);
  %1 = nn.relu(%0);
  %2 = nn.conv2d(%1, %w);
  %3 = nn.relu(%2);
  add(%3, %2)
""",
        CONV_RELU,
        IMG_PARAMS,
    )
    # relu(%2) matched first (group 0) but conv %2 is also used by add: rejected.
    (fn,) = _fns(module)
    assert [relay_name(p) for p in fn.params] == ["FunctionVar_1_0", "FunctionVar_1_1"]


def test_inner_values_used_outside_block_the_match():
    body = """
  %0 = nn.conv2d(%x, %w);
  %1 = nn.relu(%0);
  add(%1, %0)
"""
    assert not _fns(_merge_text(body, CONV_RELU, IMG_PARAMS))
    # TVM's overused-partition case stays unmerged even with allow-shared-inner:
    # add is not post-dominated by the match root.
    assert not _fns(_merge_text(body, CONV_RELU, IMG_PARAMS, allow_shared_inner=True))


def test_allow_shared_inner_duplicates_as_tvm():
    body = """
  %0 = nn.conv2d(%x, %w);
  %1 = nn.relu(%0);
  add(%0, %1)
"""
    table = [("conv_add", is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))]
    # conv is used by relu outside, and relu flows back into the match root.
    assert not _fns(_merge_text(body, table, IMG_PARAMS))
    module = _merge_text(body, table, IMG_PARAMS, allow_shared_inner=True)
    (fn,) = _fns(module)
    assert fn.attributes["PartitionedFromPattern"] == StringAttr("nn.conv2d_add_")
    outside = [
        op.operator_name
        for op in module.ops.first.body.block.ops
        if isinstance(op, relay.OperatorOp)
    ]
    assert outside == ["nn.conv2d", "nn.relu"]  # conv is computed twice, as in TVM
    assert fn.args[2].owner.operator_name == "nn.relu"


def test_a_failed_check_keeps_the_match_claimed():
    pattern = builtin_pattern_table("conv2d-add-relu")[0][1]
    not_relu = lambda root: root.operator_name != "nn.relu"
    body = """
  %0 = nn.conv2d(%x, %w);
  %1 = add(%0, %x);
  nn.relu(%1)
"""
    # TVM: the relu-rooted match is refused by the check, but its operations
    # stay claimed, so the smaller add-rooted match is never tried.
    assert not _fns(_merge_text(body, [("c", pattern, not_relu)], IMG_PARAMS))
    assert len(_fns(_merge_text(body, [("c", pattern, lambda root: True)], IMG_PARAMS))) == 1


def test_check_sees_the_unmodified_graph():
    seen: list[str] = []

    def check(root):
        seen.append(root.args[0].owner.name)
        return True

    module = _merge_text(
        """
  %0 = add(%x, %y);
  %1 = nn.relu(%0);
  %2 = add(%1, %y);
  nn.relu(%2)
""",
        [("add_relu", ADD_RELU[0][1], check)],
    )
    assert len(_fns(module)) == 2
    assert seen == ["relay.add", "relay.add"]


def test_is_constant_embeds_and_wildcard_lifts():
    body = """
  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 4, 1, 1), float32] */);
  nn.relu(%0)
"""
    params = "%x: Tensor[(1, 4, 4, 4), float32]"
    lifted = _merge_text(body, CONV_RELU, params)
    (fn,) = _fns(lifted)
    assert len(fn.args) == 2 and isinstance(fn.args[1].owner, relay.ConstantOp)
    embed = [("c", is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), is_constant())))]
    embedded = _merge_text(body, embed, params)
    (fn,) = _fns(embedded)
    assert len(fn.args) == 1
    assert isinstance(fn.body.block.first_op, relay.ConstantOp)
    assert not any(isinstance(op, relay.ConstantOp) for op in embedded.ops.first.body.block.ops)
    assert "meta[relay.Constant][0]" in print_relay(embedded).split("fn (")[1]


def test_a_shared_embedded_constant_is_copied():
    module = ModuleOp([])
    block = Block(arg_types=[IMG])
    constant = relay.ConstantOp(CONV_W, meta_index=0)
    conv = relay.Conv2DOp([block.args[0], constant.result], IMG)
    relu = relay.ReluOp([conv.result], IMG)
    other = relay.Conv2DOp([relu.result, constant.result], IMG)
    block.add_ops([constant, conv, relu, other, func.ReturnOp(other.result)])
    module.body.block.add_op(func.FuncOp("main", ([IMG], [IMG]), Region(block)))
    embed = [("c", is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), is_constant())))]
    merge_composite(module, embed)
    module.verify()
    (fn,) = _fns(module)
    assert isinstance(fn.body.block.first_op, relay.ConstantOp)
    assert constant.parent is block and other.args[1] is constant.result


def test_functions_tvm_skips_are_left_alone():
    text = f"""{HEADER}def @ext(%a: {T}, Compiler="ccompiler") -> {T} {{
  %0 = add(%a, %a);
  nn.relu(%0)
}}

def @main(%x: {T}) -> {T} {{
  %1 = add(%x, %x);
  %2 = nn.relu(%1);
  @ext(%2)
}}
"""
    module = parse_relay(text)
    merge_composite(module, ADD_RELU)
    ext, main = module.ops
    assert not [op for op in ext.walk() if isinstance(op, relay.FnOp)]
    assert len([op for op in main.walk() if isinstance(op, relay.FnOp)]) == 1


def test_nested_functions_are_searched_but_composites_are_not():
    text = f"""{HEADER}def @main(%x: {T}) -> {T} {{
  %0 = fn (%p: {T}, Primitive=1) -> {T} {{
    %1 = add(%p, %p);
    nn.relu(%1)
  }};
  %2 = %0(%x);
  %3 = fn (%q: {T}, PartitionedFromPattern="add_nn.relu_", Composite="old") -> {T} {{
    %4 = add(%q, %q);
    nn.relu(%4)
  }};
  %3(%2)
}}
"""
    module = parse_relay(text)
    merge_composite(module, ADD_RELU)
    module.verify()
    composites = [
        f for f in _fns(module) if f.attributes.get("Composite") == StringAttr("add_relu")
    ]
    (found,) = composites
    assert isinstance(found.parent_op(), relay.FnOp)
    assert "Primitive" in found.parent_op().attributes


def test_dead_code_is_matched_after_the_live_graph():
    module = _merge_text(
        """
  %0 = add(%y, %y);
  %1 = nn.relu(%0);
  %2 = add(%x, %x);
  nn.relu(%2)
""".replace("  %1 = nn.relu(%0);\n", "  %1 = nn.relu(%0);\n  %9 = abs(%1);\n"),
        ADD_RELU,
    )
    numbers = {relay_name(f.params[0]) for f in _fns(module)}
    assert numbers == {"FunctionVar_0_0", "FunctionVar_1_0"}
    live = module.ops.first.body.block.last_op.operands[0].owner
    assert relay_name(live.params[0]) == "FunctionVar_0_0"


def test_the_call_takes_over_the_root_binding():
    module = _merge_text(
        f"""
  %0 = add(%x, %y);
  let %r: {T} = nn.relu(%0);
  abs(%r)
""",
        ADD_RELU,
    )
    (fn,) = _fns(module)
    (use,) = fn.result.uses
    assert isinstance(use.operation, relay.LetOp) and relay_name(use.operation.result) == "r"
    assert fn.body.block.last_op.operands[0].name_hint is None
    _defuse(module)
    relu = next(op for op in module.walk() if isinstance(op, relay.ReluOp))
    (use,) = relu.result.uses
    assert isinstance(use.operation, relay.LetOp) and relay_name(use.operation.result) == "r"


def test_long_chains_are_handled_without_recursion_limits():
    block = Block(arg_types=[VEC])
    value = block.args[0]
    for _ in range(3000):
        add = relay.AddOp([value, value], VEC)
        relu = relay.ReluOp([add.result], VEC)
        block.add_ops([add, relu])
        value = relu.result
    block.add_op(func.ReturnOp(value))
    module = ModuleOp([func.FuncOp("main", ([VEC], [VEC]), Region(block))])
    before = str(module)
    merge_composite(module, ADD_RELU)
    module.verify()
    fns = _fns(module)
    assert len(fns) == 3000
    assert relay_name(fns[0].params[0]) == "FunctionVar_2999_0"
    _defuse(module)
    assert str(module) == before


# ---------------------------------------------------------------------------
# The pass and its options
# ---------------------------------------------------------------------------


def test_pass_is_reachable_by_name_with_options():
    from relay_xdsl.tools.xdsl_opt.universe import RELAY_UNIVERSE

    passes = {name: factory() for name, factory in RELAY_UNIVERSE.all_passes.items()}
    (merge,) = PassPipeline.parse_spec(passes, "relay-merge-composite{table=dense-bias-act}").passes
    assert merge == RelayMergeCompositePass(table="dense-bias-act")
    (merge,) = PassPipeline.parse_spec(
        passes,
        'relay-merge-composite{patterns="seed_patterns:pattern_table" allow-shared-inner=true}',
    ).passes
    assert merge == RelayMergeCompositePass(
        patterns="seed_patterns:pattern_table", allow_shared_inner=True
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"table": "conv2d"},
            "unknown pattern table 'conv2d' \\(valid: conv2d-add-relu, conv2d-bias-relu, dense-bias-act\\)",
        ),
        ({"patterns": "seed_patterns"}, "patterns must be 'module:attr'"),
        ({"patterns": "seed_patterns:nothing"}, "has no attribute 'nothing'"),
        ({"table": "conv2d-add-relu", "patterns": "seed_patterns:pattern_table"}, "not both"),
    ],
)
def test_bad_options_fail_clearly(options, message):
    module = parse_relay((SEED / "defused.relay").read_text())
    with pytest.raises(PassFailedException, match=message):
        RelayMergeCompositePass(**options).apply(Context(), module)


def test_builtin_tables_match_what_they_promise():
    conv = _merge_text(
        """
  %0 = nn.conv2d(%x, %w);
  %1 = nn.bias_add(%0, %b);
  nn.relu(%1)
""",
        builtin_pattern_table("conv2d-bias-relu"),
        IMG_PARAMS + ", %b: Tensor[(4), float32]",
    )
    (fn,) = _fns(conv)
    assert fn.attributes["PartitionedFromPattern"] == StringAttr("nn.conv2d_nn.bias_add_nn.relu_")
    dense = _merge_text(
        """
  %0 = nn.dense(%x, %y, units=None);
  %1 = add(%0, %y);
  sigmoid(%1)
""",
        builtin_pattern_table("dense-bias-act"),
    )
    (fn,) = _fns(dense)
    assert fn.attributes["PartitionedFromPattern"] == StringAttr("nn.dense_add_sigmoid_")
    assert fn.attributes["Composite"] == StringAttr("ccompiler.dense_bias_act")
