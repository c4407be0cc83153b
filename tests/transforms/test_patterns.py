"""The pattern language: TVM's dataflow_pattern semantics on relay-dialect SSA values."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import TensorType, f32
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.transforms.patterns import (
    BUILTIN_PATTERN_TABLES,
    AltPattern,
    CallPattern,
    PatternMatcher,
    PatternTableError,
    TupleGetItemPattern,
    builtin_pattern_table,
    has_attr,
    has_dtype,
    has_shape,
    has_type,
    is_constant,
    is_op,
    is_tuple,
    is_tuple_get_item,
    is_var,
    load_pattern_table,
    make_conv_add_relu_pattern,
    pattern_nodes,
    validate_pattern_table,
    wildcard,
)

HEADER = '#[version = "0.0.5"]\n'
TENSOR = "Tensor[(1, 4, 8, 8), float32]"
WEIGHT = "Tensor[(4, 4, 3, 3), float32]"


def _main(
    body: str, params: str = f"%x: {TENSOR}, %w: {WEIGHT}, %b: Tensor[(4, 1, 1), float32]"
) -> FuncOp:
    module = parse_relay(f"{HEADER}def @main({params}) {{\n{body}\n}}\n")
    func = module.ops.first
    assert isinstance(func, FuncOp)
    return func


def _result(func: FuncOp) -> SSAValue:
    return func.body.block.last_op.operands[0]


def _op(func: FuncOp, name: str, index: int = 0) -> relay.OperatorOp:
    ops = [
        op
        for op in func.body.block.ops
        if isinstance(op, relay.OperatorOp) and op.operator_name == name
    ]
    return ops[index]


CONV_ADD_RELU = """
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);
  %1 = add(%0, %b);
  nn.relu(%1)
"""


# ---------------------------------------------------------------------------
# Matching
# ---------------------------------------------------------------------------


def test_call_pattern_matches_operator_and_arguments():
    func = _main(CONV_ADD_RELU)
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    assert is_op("nn.relu")(is_op("add")(conv, wildcard())).match(_result(func))
    assert not is_op("nn.relu")(conv).match(_result(func))
    assert not is_op("nn.relu")(wildcard(), wildcard()).match(_result(func))  # arity
    assert is_op("nn.relu")(None).match(_result(func))  # any arguments
    assert not is_op("sigmoid")(wildcard()).match(_result(func))


def test_wildcard_matches_anything_and_an_operator_is_not_a_value():
    func = _main(CONV_ADD_RELU)
    assert wildcard().match(_result(func))
    assert wildcard().match(func.body.block.args[0])
    assert not is_op("nn.relu").match(_result(func))


def test_is_constant_and_is_var():
    func = _main(
        """
  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 4, 3, 3), float32] */, padding=[1, 1, 1, 1]);
  add(%0, %b)
""",
        params=f"%x: {TENSOR}, %b: Tensor[(4, 1, 1), float32]",
    )
    conv = _op(func, "nn.conv2d")
    assert is_op("nn.conv2d")(wildcard(), is_constant()).match(conv.result)
    assert not is_op("nn.conv2d")(is_constant(), wildcard()).match(conv.result)
    assert is_op("nn.conv2d")(is_var(), wildcard()).match(conv.result)
    assert is_op("nn.conv2d")(is_var("x"), wildcard()).match(conv.result)
    assert not is_op("nn.conv2d")(is_var("y"), wildcard()).match(conv.result)
    assert not is_op("nn.conv2d")(wildcard(), is_var()).match(conv.result)


def test_alternatives_and_optional_are_tried_left_first():
    func = _main(CONV_ADD_RELU)
    pattern = make_conv_add_relu_pattern()
    matcher = PatternMatcher()
    # relu(add(conv)) through the optional relu.
    assert matcher.match(pattern, _result(func))
    matched_ops = {
        value.owner.operator_name
        for value in matcher.memo.values()
        if isinstance(value, SSAValue) and isinstance(value.owner, relay.OperatorOp)
    }
    assert matched_ops == {"nn.conv2d", "add", "nn.relu"}
    # add(conv) and conv alone through the left alternatives.
    assert pattern.match(_op(func, "add").result)
    assert pattern.match(_op(func, "nn.conv2d").result)
    assert not pattern.match(func.body.block.args[0])


def test_optional_is_tvm_spelling():
    base = is_op("nn.conv2d")(wildcard(), wildcard())
    pattern = base.optional(lambda x: is_op("nn.relu")(x))
    assert isinstance(pattern, AltPattern)
    assert pattern.left is base
    assert isinstance(pattern.right, CallPattern) and pattern.right.args == [base]


def test_has_attr_compares_effective_values_with_tvm_defaults():
    func = _main(CONV_ADD_RELU)
    conv = _op(func, "nn.conv2d").result
    call = is_op("nn.conv2d")(wildcard(), wildcard())
    # Stored attribute.
    assert call.has_attr({"padding": [1, 1, 1, 1]}).match(conv)
    assert not call.has_attr({"padding": [0, 0, 0, 0]}).match(conv)
    # Absent attributes compare with TVM's defaults.
    assert call.has_attr({"data_layout": "NCHW", "strides": [1, 1], "groups": 1}).match(conv)
    assert not call.has_attr({"data_layout": "NHWC"}).match(conv)
    assert call.has_attr({"channels": None}).match(conv)
    # A name the operator does not have never matches.
    assert not call.has_attr({"no_such_attr": 1}).match(conv)
    # has_attr(attrs) defaults to a wildcard.
    assert has_attr({"kernel_layout": "OIHW"}).match(conv)
    assert not has_attr({"kernel_layout": "OIHW"}).match(func.body.block.args[0])


def test_has_attr_on_an_operator_compares_its_fusion_pattern():
    func = _main(CONV_ADD_RELU)
    broadcast = is_op("add").has_attr({"TOpPattern": relay.OpPattern.BROADCAST.value})
    assert broadcast(wildcard(), wildcard()).match(_op(func, "add").result)
    elemwise = is_op("add").has_attr({"TOpPattern": relay.OpPattern.ELEMWISE.value})
    assert not elemwise(wildcard(), wildcard()).match(_op(func, "add").result)


def test_has_attr_on_an_unknown_operator_reads_its_stored_attributes():
    func = _main(
        "  my.op(%x, alpha=2) /* ty=Tensor[(1, 4, 8, 8), float32] */", params=f"%x: {TENSOR}"
    )
    value = _result(func)
    assert isinstance(value.owner, relay.GenericOperatorOp)
    assert is_op("my.op")(wildcard()).has_attr({"alpha": 2}).match(value)
    assert not is_op("my.op")(wildcard()).has_attr({"alpha": 3}).match(value)
    assert not is_op("my.op")(wildcard()).has_attr({"beta": 2}).match(value)


def test_repeated_pattern_nodes_must_match_the_same_value():
    func = _main(
        """
  %0 = add(%a, %b);
  %1 = subtract(%a, %b);
  %2 = subtract(%a, %c);
  %3 = multiply(%0, %1);
  multiply(%0, %2)
""",
        params=", ".join(f"%{n}: Tensor[(4), float32]" for n in "abc"),
    )
    x, y = wildcard(), wildcard()
    pattern = (x + y) * (x - y)
    first = _op(func, "multiply", 0).result
    second = _op(func, "multiply", 1).result
    assert pattern.match(first)
    assert not pattern.match(second)


def test_add_and_multiply_commute_but_subtract_does_not():
    func = _main(
        """
  %0 = nn.relu(%a);
  %1 = add(%b, %0);
  subtract(%b, %0)
""",
        params="%a: Tensor[(4), float32], %b: Tensor[(4), float32]",
    )
    relu = is_op("nn.relu")(wildcard())
    assert is_op("add")(relu, is_var("b")).match(_op(func, "add").result)
    assert not is_op("subtract")(relu, is_var("b")).match(_op(func, "subtract").result)


def test_divide_multiply_reassociation_as_tvm():
    func = _main(
        """
  %0 = divide(%b, %c);
  multiply(%a, %0)
""",
        params=", ".join(f"%{n}: Tensor[(4), float32]" for n in "abc"),
    )
    a, b, c = is_var("a"), is_var("b"), is_var("c")
    # (a * b) / c matches a * (b / c).
    assert ((a * b) / c).match(_result(func))
    assert not ((a * c) / b).match(_result(func))


def test_tuple_and_tuple_get_item():
    func = _main(
        """
  %0 = (%a, %b);
  %1 = %0.1;
  nn.relu(%1)
""",
        params="%a: Tensor[(4), float32], %b: Tensor[(4), float32]",
    )
    tup = is_tuple([is_var("a"), is_var("b")])
    assert is_op("nn.relu")(is_tuple_get_item(tup, 1)).match(_result(func))
    assert is_op("nn.relu")(is_tuple_get_item(tup)).match(_result(func))
    assert not is_op("nn.relu")(is_tuple_get_item(tup, 0)).match(_result(func))
    assert not is_op("nn.relu")(is_tuple_get_item(is_tuple([wildcard()]))).match(_result(func))
    assert is_op("nn.relu")(TupleGetItemPattern(is_tuple(None), 1)).match(_result(func))


def test_type_constraints():
    func = _main(CONV_ADD_RELU)
    value = _result(func)
    assert has_dtype("float32").match(value)
    assert not has_dtype("float16").match(value)
    assert has_shape([1, 4, 8, 8]).match(value)
    assert not has_shape([1, 4, 8]).match(value)
    assert has_type(TensorType(f32, [1, 4, 8, 8])).match(value)
    assert has_type("Tensor[(1, 4, 8, 8), float32]").match(value)
    assert not has_type("Tensor[(1, 4, 8, 8), int8]").match(value)
    assert is_op("nn.relu")(wildcard()).has_dtype("float32").match(value)


def test_pattern_nodes_are_in_tvm_post_order():
    pattern = make_conv_add_relu_pattern()
    leaves = [node for node in pattern_nodes(pattern) if not node.children()]
    # TVM's visiting order: the left alternative first, a callee before its arguments.
    names = [repr(node) for node in leaves]
    assert names == ["is_op('add')", "is_op('nn.conv2d')", "*", "*", "*", "is_op('nn.relu')"]
    nodes = pattern_nodes(pattern)
    assert nodes[-1] is pattern
    assert len(nodes) == len({id(n) for n in nodes})


def test_patterns_print_readably():
    assert repr(make_conv_add_relu_pattern()) == (
        "((is_op('add')(is_op('nn.conv2d')(*, *), *) | is_op('nn.conv2d')(*, *)) | "
        "is_op('nn.relu')((is_op('add')(is_op('nn.conv2d')(*, *), *) | is_op('nn.conv2d')(*, *))))"
    )


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


def test_builtin_tables():
    assert set(BUILTIN_PATTERN_TABLES) == {"conv2d-add-relu", "conv2d-bias-relu", "dense-bias-act"}
    (entry,) = builtin_pattern_table("conv2d-add-relu")
    assert entry[0] == "ccompiler.conv_add_relu"
    for name in BUILTIN_PATTERN_TABLES:
        assert validate_pattern_table(builtin_pattern_table(name), name)


def test_unknown_builtin_table_lists_the_valid_ones():
    with pytest.raises(PatternTableError, match="unknown pattern table 'nope'.*conv2d-add-relu"):
        builtin_pattern_table("nope")


@pytest.fixture
def seed_patterns_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    yield
    sys.modules.pop("seed_patterns", None)


def test_load_user_table_from_list_or_function(seed_patterns_on_path):
    table = load_pattern_table("seed_patterns:pattern_table")
    assert [name for name, *_ in table] == ["ccompiler.conv_add_relu"]
    table = load_pattern_table("seed_patterns:make_pattern_table")
    assert [name for name, *_ in table] == ["ccompiler.conv_add_relu"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_colon", "must be 'module:attr'"),
        (":attr", "must be 'module:attr'"),
        ("no_such_module_xyz:table", "cannot import module 'no_such_module_xyz'"),
        ("seed_patterns:missing", "has no attribute 'missing'"),
        ("seed_patterns:compiler_name", "expected a list of \\(name, pattern\\) entries, got str"),
        ("seed_patterns:make_conv_add_relu_pattern", "got the single pattern"),
    ],
)
def test_bad_user_tables_are_reported(seed_patterns_on_path, spec, message):
    with pytest.raises(PatternTableError, match=message):
        load_pattern_table(spec)


def test_table_entries_are_checked():
    pattern = wildcard()
    assert validate_pattern_table([("a", pattern)]) == [("a", pattern)]
    check = lambda op: True
    assert validate_pattern_table([("a", pattern, check)]) == [("a", pattern, check)]
    with pytest.raises(PatternTableError, match="entry 0 has no composite name"):
        validate_pattern_table([("", pattern)])
    with pytest.raises(PatternTableError, match="entry 0 \\('a'\\) has no pattern"):
        validate_pattern_table([("a", "not a pattern")])
    with pytest.raises(PatternTableError, match="check that is not callable"):
        validate_pattern_table([("a", pattern, 3)])
    with pytest.raises(PatternTableError, match="entry 1 must be"):
        validate_pattern_table([("a", pattern), ("b",)])


def test_is_op_needs_a_name():
    with pytest.raises(ValueError, match="operator name"):
        is_op("")


def test_a_callee_with_attributes_matches_a_composite_call():
    func = _main(
        f"""
  %0 = fn (%p: {TENSOR}, Composite="relu_like") -> {TENSOR} {{
    nn.relu(%p)
  }};
  %1 = %0(%x);
  abs(%1)
""",
        params=f"%x: {TENSOR}",
    )
    call = _op(func, "abs").args[0]
    assert isinstance(call.owner, relay.FnOp)
    assert wildcard().has_attr({"Composite": "relu_like"})(wildcard()).match(call)
    assert not wildcard().has_attr({"Composite": "other"})(wildcard()).match(call)
    assert not is_op("nn.relu")(wildcard()).match(call)
    assert not wildcard().has_attr({"Composite": "relu_like"}).match(call)  # no call attrs


def test_a_reused_operator_node_matches_the_same_operator():
    func = _main(
        """
  %0 = add(%a, %b);
  %1 = subtract(%a, %b);
  add(%0, %1)
""",
        params="%a: Tensor[(4), float32], %b: Tensor[(4), float32]",
    )
    op = is_op("add") | is_op("subtract")
    # One callee node used twice must be the same operator both times.
    assert not op(op(wildcard(), wildcard()), op(wildcard(), wildcard())).match(_result(func))
    other = is_op("add") | is_op("subtract")
    assert op(op(wildcard(), wildcard()), other(wildcard(), wildcard())).match(_result(func))


def test_a_wildcard_callee_matches_global_calls():
    module = parse_relay(
        f"""{HEADER}def @f(%a: {TENSOR}) -> {TENSOR} {{
  nn.relu(%a)
}}

def @main(%x: {TENSOR}) -> {TENSOR} {{
  %0 = @f(%x);
  @f(%0)
}}
"""
    )
    main = module.ops.last
    value = _result(main)
    callee = wildcard()
    assert callee(wildcard()).match(value)
    assert callee(callee(wildcard())).match(value)  # the same global both times
    assert not is_op("nn.relu")(wildcard()).match(value)
    assert not wildcard().has_attr({"Composite": "f"})(wildcard()).match(value)
