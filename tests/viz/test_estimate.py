"""The size of a drawing read from the text: a lower bound of its nodes."""

from __future__ import annotations

from pathlib import Path

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.tools.mlir_text import mlir_text
from relay_xdsl.viz.estimate import estimate
from relay_xdsl.viz.graph import count_fn_ops, extract

SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"


def test_seed_operators_and_groups_in_relay_text_and_mlir():
    for name, groups in (("fused", 3), ("defused", 0), ("original", 0)):
        text = (SEED / f"{name}.relay").read_text()
        module = parse_relay(text, name)
        nodes = extract(module).nodes
        operators = sum(1 for n in nodes if n.kind == "operator")
        structure = sum(1 for n in nodes if n.kind == "structure")  # tuple, tuple_get_item
        assert count_fn_ops(module) == groups
        from_relay, from_mlir = estimate(text, "relay"), estimate(mlir_text(module), "mlir")
        assert from_relay.nodes == operators
        assert from_mlir.nodes == operators + structure
        assert from_relay.groups == from_mlir.groups == groups
        assert from_mlir.nodes <= len(nodes)


def test_comments_metadata_and_attribute_strings_are_not_counted():
    text = """#[version = "0.0.5"]
// nn.relu(%x) in a comment
def @main(%x: Tensor[(4), float32]) {
  %0 = nn.relu(%x) /* ty=Tensor[(4), float32] */;
  %1 = fn (%p: Tensor[(4), float32], Composite="nn.relu(") { tanh(%p) };
  %1(%0)
}
#[metadata]
{"nn.relu(": 1}
"""
    found = estimate(text, "relay")
    assert (found.nodes, found.groups) == (2, 1)


def test_mlir_generic_form_and_constants():
    text = """"builtin.module"() ({
  %0 = "relay.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %1 = "relay.nn.relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  // %2 = relay.add(%1, %1)
}) : () -> ()
"""
    found = estimate(text, "mlir")
    assert (found.nodes, found.groups) == (1, 0)
