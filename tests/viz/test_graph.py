"""The drawing's content: groups match the relay.fn ops one for one."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import IntegerType, Signedness, TensorType, TupleType, f32, i8, i64

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.tools.mlir_text import relay_context
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass
from relay_xdsl.viz.graph import colour, count_fn_ops, extract, type_text

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed"
FIXTURES = ROOT / "tests" / "importers" / "fixtures"


def _seed(name: str):
    path = SEED / f"{name}.relay"
    return parse_relay(path.read_text(), str(path))


def test_seed_fused_has_three_composite_groups_with_their_operators():
    module = _seed("fused")
    graph = extract(module)
    groups = graph.groups()
    assert len(groups) == count_fn_ops(module) == 3
    assert {g.name for g in groups} == {"ccompiler.conv_add_relu"}
    assert {g.kind for g in groups} == {"composite"}
    assert [g.operators for g in groups] == [
        ["nn.conv2d", "add", "nn.relu"],
        ["nn.conv2d", "add", "nn.relu"],
        ["nn.conv2d", "add"],
    ]
    # Every group sits in @main's cluster.
    assert all(g.parent is not None and g.parent.name == "@main" for g in groups)


def test_defused_seed_has_no_groups_and_the_same_operators():
    fused, defused = extract(_seed("fused")), extract(_seed("defused"))
    assert defused.groups() == []

    def operators(graph):
        return sorted(n.label for n in graph.nodes if n.kind == "operator")

    assert operators(fused) == operators(defused)


def test_edges_carry_types_and_cross_into_groups():
    graph = extract(_seed("fused"))
    by_id = {n.id: n for n in graph.nodes}
    data = next(n for n in graph.nodes if n.label == "%data")
    (edge,) = [e for e in graph.edges if e.source is data]
    # The parameter is not a node: the edge runs to the conv2d inside the group.
    assert edge.target.label == "nn.conv2d" and edge.target.cluster is not None
    assert edge.label == "1x3x224x224 f32"
    assert by_id[edge.target.id] is edge.target


def test_constants_are_collapsed_unless_asked_for():
    collapsed = extract(_seed("fused"))
    conv = next(n for n in collapsed.nodes if n.label == "nn.conv2d")
    assert "const 64x3x7x7 f32" in conv.details
    assert "strides=[2, 2]" in conv.details
    assert not [n for n in collapsed.nodes if n.kind == "constant"]
    shown = extract(_seed("fused"), constants=True)
    assert len([n for n in shown.nodes if n.kind == "constant"]) == 6


def test_collapse_draws_each_group_as_one_node():
    graph = extract(_seed("fused"), collapse=True)
    assert graph.groups() == []
    groups = [n for n in graph.nodes if n.kind == "group"]
    assert [n.label for n in groups] == ["ccompiler.conv_add_relu"] * 3
    assert groups[0].details[0] == "nn.conv2d, add, nn.relu"
    assert "const 64x3x7x7 f32" in groups[0].details
    assert not [n for n in graph.nodes if n.label == "nn.conv2d"]


def test_primitive_groups_are_named_by_their_operators():
    module = _seed("defused")
    RelayFuseOpsPass().apply(relay_context(), module)
    graph = extract(module)
    assert len(graph.groups()) == count_fn_ops(module) > 0
    assert {g.kind for g in graph.groups()} == {"primitive"}
    names = {g.name for g in graph.groups()}
    assert "fused_nn_conv2d_add_nn_relu" in names, names


def test_compiler_functions_are_clusters_with_nested_composites_and_linked_calls():
    path = FIXTURES / "collage_partition_single_op_byoc_2.relay"
    graph = extract(parse_relay(path.read_text(), str(path)))
    compiler = next(c for c in graph.clusters if c.kind == "compiler")
    assert compiler.name == "@collage_example_target_hook_nn_relu"
    assert ("Compiler", '"example_target_hook"') in compiler.attributes
    (composite,) = graph.groups()
    assert composite.name == "relu" and composite.parent is compiler
    (call_edge,) = [e for e in graph.edges if e.kind == "call"]
    assert call_edge.source.label == "call @collage_example_target_hook_nn_relu"
    assert call_edge.target.cluster is compiler


def test_tuples_lets_and_unknown_operators():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  let %t = (%x, nn.relu(%x));
  %0 = %t.1;
  my.custom_op(%0, 2f) /* ty=Tensor[(4), float32] */
}
"""
    graph = extract(parse_relay(text, "t.relay"))
    labels = [n.label for n in graph.nodes]
    assert labels == ["%x", "nn.relu", "tuple", ".1", "my.custom_op", "return"]
    tuple_node = graph.nodes[2]
    assert tuple_node.result_type == "(4 f32, 4 f32)"
    custom = graph.nodes[4]
    assert custom.details == ["const 2.0 f32"]  # a scalar constant shows its value


def test_every_relay_fn_is_drawn_even_without_operators():
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = fn (%p: Tensor[(4), float32], Primitive=1) { %p };
  %0(%x)
}
"""
    module = parse_relay(text, "t.relay")
    graph = extract(module)
    (group,) = graph.groups()
    assert [n.label for n in graph.nodes if n.cluster is group] == ["(no operators)"]


def test_type_text_and_colours():
    assert type_text(TensorType(f32, [1, 64, 56, 56])) == "1x64x56x56 f32"
    assert type_text(TensorType(i64, [])) == "i64"
    assert type_text(TensorType(IntegerType(8, Signedness.UNSIGNED), [-1, 3])) == "?x3 u8"
    assert type_text(TupleType([TensorType(i8, [2])])) == "(2 i8)"
    # The same name has the same colour, in every run.
    assert colour("ccompiler.conv_add_relu") == colour("ccompiler.conv_add_relu") == "#e3d7f3"
