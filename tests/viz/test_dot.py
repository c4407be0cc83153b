"""DOT text and Graphviz rendering: every relay.fn is one cluster of the SVG."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import StringAttr

from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.viz import dot as dot_module
from relay_xdsl.viz.dot import RenderError, dot_text, render
from relay_xdsl.viz.graph import count_fn_ops, extract

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed"


def _seed(name: str):
    path = SEED / f"{name}.relay"
    return parse_relay(path.read_text(), str(path))


def svg_clusters(svg: str) -> dict[str, str]:
    """Cluster id → label of each cluster in Graphviz's SVG."""
    clusters = {}
    for match in re.finditer(r'<g id="([^"]+)" class="cluster">(.*?)</g>', svg, re.DOTALL):
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", match[2])
        clusters[match[1]] = texts[0] if texts else ""
    return clusters


def test_seed_svg_has_one_cluster_per_relay_fn():
    module = _seed("fused")
    svg = render(dot_text([("fused", extract(module))]))
    clusters = svg_clusters(svg)
    groups = {k: v for k, v in clusters.items() if k.startswith("fn_")}
    assert len(groups) == count_fn_ops(module) == 3
    assert set(groups.values()) == {"ccompiler.conv_add_relu"}
    assert [v for k, v in clusters.items() if k.startswith("global_")] == ["@main"]
    # Edges carry shapes; nodes their attributes.
    assert "1x64x112x112 f32" in svg
    assert "strides=[2, 2]" in svg


def test_dot_text_is_deterministic_and_quotes_ids():
    first = dot_text([("fused", extract(_seed("fused")))])
    assert first == dot_text([("fused", extract(_seed("fused")))])
    assert 'subgraph "cluster_fn_3" {' in first
    assert '"n2" -> "n4" [label="1x3x224x224 f32"]' in first


def test_side_by_side_puts_each_module_in_its_own_cluster():
    text = dot_text(
        [
            ("fused", extract(_seed("fused"), prefix="a.")),
            ("defused", extract(_seed("defused"), prefix="b.")),
        ]
    )
    svg = render(text)
    clusters = svg_clusters(svg)
    assert clusters["side_0"] == "fused" and clusters["side_1"] == "defused"
    assert len([k for k in clusters if k.startswith("a.fn_")]) == 3
    assert not [k for k in clusters if k.startswith("b.fn_")]


def test_labels_with_quotes_and_backslashes_are_escaped():
    module = _seed("fused")
    fn = next(op for op in module.walk() if isinstance(op, relay.FnOp))
    fn.attributes["Composite"] = StringAttr('say "hi" \\ bye')
    svg = render(dot_text([("q", extract(module))]))
    assert "say &quot;hi&quot; \\ bye" in svg


def test_missing_dot_is_an_error_that_says_what_to_install(monkeypatch):
    monkeypatch.setattr(dot_module, "dot_binary", lambda: None)
    with pytest.raises(RenderError, match="apt-get install graphviz"):
        render("digraph { a }")


def test_a_layout_that_takes_too_long_is_stopped():
    with pytest.raises(RenderError, match="longer than"):
        render(dot_text([("fused", extract(_seed("fused")))]), timeout=1e-6)


def test_large_graphs_get_external_edge_labels():
    def chain(length: int) -> str:
        body = "".join(f"  %{i} = nn.relu({f'%{i - 1}' if i else '%x'});\n" for i in range(length))
        text = f'#[version = "0.0.5"]\ndef @main(%x: Tensor[(4), float32]) {{\n{body}  %{length - 1}\n}}\n'
        return dot_text([("chain", extract(parse_relay(text, "chain.relay")))])

    assert '[label="4 f32"]' in chain(10) and "xlabel" not in chain(10)
    large = chain(dot_module.EDGE_LABEL_LIMIT + 10)
    assert '[xlabel="4 f32"]' in large and '[label="4 f32"]' not in large


def test_large_graphs_are_laid_out_cheaply_without_a_box_around_a_lone_function():
    def chain(length: int) -> str:
        body = "".join(f"  %{i} = nn.relu({f'%{i - 1}' if i else '%x'});\n" for i in range(length))
        text = f'#[version = "0.0.5"]\ndef @main(%x: Tensor[(4), float32]) {{\n{body}  %{length - 1}\n}}\n'
        return dot_text([("chain", extract(parse_relay(text, "chain.relay")))])

    small = chain(10)
    assert dot_module.LARGE_GRAPH_LAYOUT not in small
    assert 'subgraph "cluster_global_1"' in small
    large = chain(dot_module.LARGE_GRAPH_NODES + 10)
    assert dot_module.LARGE_GRAPH_LAYOUT in large
    assert "cluster_global" not in large and 'label="@main"; labelloc="t";' in large
    # With two functions, each keeps its box.
    text = '#[version = "0.0.5"]\ndef @f(%y: Tensor[(4), float32]) { nn.relu(%y) }\n'
    body = "".join(f"  %{i} = nn.relu({f'%{i - 1}' if i else '%x'});\n" for i in range(1100))
    text += f"def @main(%x: Tensor[(4), float32]) {{\n{body}  @f(%1099)\n}}\n"
    two = dot_text([("two", extract(parse_relay(text, "two.relay")))])
    assert dot_module.LARGE_GRAPH_LAYOUT in two and two.count('subgraph "cluster_global_') == 2
