"""The HTML picture of the seed's fused module, in a real headless Chromium."""

from __future__ import annotations

from pathlib import Path

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.viz.dot import dot_text, render
from relay_xdsl.viz.graph import extract
from relay_xdsl.viz.html import html_page

SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"

# For each cluster: its label and the labels of the nodes drawn inside its box.
CLUSTER_CONTENTS = """
() => {
  const box = (g) => g.getBBox();
  const inside = (b, c) => b.x >= c.x && b.y >= c.y
      && b.x + b.width <= c.x + c.width && b.y + b.height <= c.y + c.height;
  const nodes = [...document.querySelectorAll("g.node")].map((g) => ({
    label: g.querySelector("text").textContent, box: box(g) }));
  return [...document.querySelectorAll("g.cluster")].map((g) => ({
    id: g.id,
    label: g.querySelector("text").textContent,
    nodes: nodes.filter((n) => inside(n.box, box(g))).map((n) => n.label),
  }));
}
"""


def _page(tmp_path: Path) -> Path:
    path = SEED / "fused.relay"
    graph = extract(parse_relay(path.read_text(), str(path)))
    page = tmp_path / "fused.html"
    page.write_text(html_page("fused.relay", render(dot_text([("fused", graph)])), [graph]))
    return page


def test_seed_clusters_hold_their_operators_in_the_browser(browser, tmp_path):
    page = browser.new_page()
    try:
        page.goto(_page(tmp_path).as_uri())
        clusters = page.evaluate(CLUSTER_CONTENTS)
        groups = [c for c in clusters if c["label"] == "ccompiler.conv_add_relu"]
        assert len(groups) == 3
        assert [g["nodes"] for g in groups] == [
            ["nn.conv2d", "add", "nn.relu"],
            ["nn.conv2d", "add", "nn.relu"],
            ["nn.conv2d", "add"],
        ]
        (main,) = [c for c in clusters if c["label"] == "@main"]
        assert {"%data", "nn.max_pool2d", "return"} <= set(main["nodes"])
        for group in groups:  # nothing outside a group is drawn inside it
            assert "nn.max_pool2d" not in group["nodes"]
        legend = page.locator("ul.legend li")
        assert legend.all_inner_texts() == ["ccompiler.conv_add_relu × 3"]
        legend.first.click()
        assert page.locator("g.cluster.selected").count() == 3
    finally:
        page.close()
