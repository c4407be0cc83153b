"""The drawing as Model Explorer's graph: layers for relay.fn groups."""

from __future__ import annotations

from pathlib import Path

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.viz.explorer import explorer_graphs

ROOT = Path(__file__).resolve().parents[2]


def _graph(path: Path):
    (graph,) = explorer_graphs(parse_relay(path.read_text(), str(path)), path.name)["graphs"]
    return graph


def test_seed_groups_are_numbered_layers_with_their_operators():
    graph = _graph(ROOT / "examples" / "seed" / "fused.relay")
    assert graph.id == "fused.relay"
    layers = {}
    for node in graph.nodes:
        layers.setdefault(node.namespace, []).append(node.label)
    assert layers == {
        "": ["%data", "nn.max_pool2d", "add", "return"],
        "ccompiler.conv_add_relu_0": ["nn.conv2d", "add", "nn.relu"],
        "ccompiler.conv_add_relu_1": ["nn.conv2d", "add", "nn.relu"],
        "ccompiler.conv_add_relu_2": ["nn.conv2d", "add"],
    }
    attributes = graph.groupNodeAttributes["ccompiler.conv_add_relu_2"]
    assert attributes["operators"] == "nn.conv2d, add"
    assert attributes["PartitionedFromPattern"] == '"nn.conv2d_add_"'
    (config,) = graph.groupNodeConfigs
    assert config.namespaceRegex == r"(^|/)ccompiler\.conv_add_relu_\d+$"


def test_nodes_carry_attributes_types_and_output_shapes():
    graph = _graph(ROOT / "examples" / "seed" / "fused.relay")
    conv = next(n for n in graph.nodes if n.label == "nn.conv2d")
    attrs = {kv.key: kv.value for kv in conv.attrs}
    assert attrs["strides"] == "[2, 2]"
    assert attrs["constant 0"] == "64x3x7x7 f32"
    assert attrs["type"] == "1x64x112x112 f32"
    (output,) = conv.outputsMetadata
    assert [(kv.key, kv.value) for kv in output.attrs] == [
        ("tensor_shape", "float32[1,64,112,112]")
    ]
    (edge,) = conv.incomingEdges
    data = next(n for n in graph.nodes if n.label == "%data")
    assert (edge.sourceNodeId, edge.targetNodeInputId) == (data.id, "0")
    residual = next(n for n in graph.nodes if n.label == "add" and not n.namespace)
    assert [e.targetNodeInputId for e in residual.incomingEdges] == ["0", "1"]


def test_composites_in_compiler_functions_are_nested_layers():
    path = ROOT / "tests" / "importers" / "fixtures" / "collage_partition_single_op_byoc_2.relay"
    graph = _graph(path)
    relu = next(n for n in graph.nodes if n.label == "nn.relu")
    assert relu.namespace == "@collage_example_target_hook_nn_relu/relu_0"
    layer = graph.groupNodeAttributes["@collage_example_target_hook_nn_relu"]
    assert layer["Compiler"] == '"example_target_hook"'
    call = next(n for n in graph.nodes if n.label.startswith("call @"))
    entry = next(n for n in graph.nodes if call.id in [e.sourceNodeId for e in n.incomingEdges])
    assert entry.namespace == "@collage_example_target_hook_nn_relu"
