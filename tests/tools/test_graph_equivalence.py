"""Same dataflow graph, whatever the binding style, names and order of independent calls."""

from __future__ import annotations

import pytest

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.tools.graph_equivalence import graph_diff, graph_lines

HEADER = '#[version = "0.0.5"]\n'
T = "Tensor[(2), float32]"


def _graph(body: str, params: str = f"%x: {T}, %y: {T}") -> list[str]:
    return graph_lines(parse_relay(HEADER + f"def @main({params}) {{\n{body}\n}}\n"))


SAME = [
    "add(negative(%x), exp(%y))",
    "%0 = negative(%x);\n%1 = exp(%y);\nadd(%0, %1)",
    "%0 = exp(%y);\n%1 = negative(%x);\nadd(%1, %0)",
    "let %a = negative(%x);\nlet %b = exp(%y);\nadd(%a, %b)",
]


@pytest.mark.parametrize("body", SAME[1:])
def test_binding_styles_are_the_same_graph(body: str):
    assert _graph(body) == _graph(SAME[0])


def test_names_do_not_matter():
    assert _graph("negative(%p)", f"%p: {T}") == _graph("negative(%q)", f"%q: {T}")


@pytest.mark.parametrize(
    "body",
    ["add(exp(%x), negative(%y))", "add(exp(%y), negative(%x))", "subtract(negative(%x), exp(%y))"],
)
def test_different_graphs_differ(body: str):
    assert _graph(body) != _graph(SAME[0])


def test_the_diff_names_both_sides():
    a = parse_relay(HEADER + f"def @main(%x: {T}) {{ negative(%x) }}")
    b = parse_relay(HEADER + f"def @main(%x: {T}) {{ exp(%x) }}")
    diff = graph_diff(a, b, ("a.relay", "b.relay"))
    assert diff.startswith("--- a.relay\n+++ b.relay\n")
    assert "-    %1 = relay.negative(%arg0)" in diff and "+    %1 = relay.exp(%arg0)" in diff
    assert graph_diff(a, a, ("a", "a")) == ""
