"""A self-contained HTML page around rendered SVG: a title, a legend of the
groups (name, colour, how many) and the picture, inline so that the page
needs no other file. Hovering a node or group shows its attributes (the
SVG's tooltips); clicking a legend entry outlines that group's clusters."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence

from relay_xdsl.viz.graph import Graph, colour

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 1em; color: #222; }}
h1 {{ font-size: 1.2em; }}
ul.legend {{ list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; }}
ul.legend li {{ cursor: pointer; }}
ul.legend .swatch {{ display: inline-block; width: 1em; height: 1em; border: 1px solid #808080;
  border-radius: 3px; vertical-align: middle; margin-right: 0.3em; }}
#picture svg {{ max-width: 100%; height: auto; }}
g.cluster.selected > path, g.cluster.selected > polygon {{ stroke: #d02020; stroke-width: 3px; }}
</style>
</head>
<body>
<h1>{title}</h1>
<ul class="legend">
{legend}
</ul>
<div id="picture">
{svg}
</div>
<script>
// A legend entry outlines the clusters of its group: their ids are listed on the entry.
for (const entry of document.querySelectorAll("ul.legend li")) {{
  entry.addEventListener("click", () => {{
    const ids = new Set(entry.dataset.clusters.split(" "));
    for (const cluster of document.querySelectorAll("g.cluster")) {{
      cluster.classList.toggle("selected", ids.has(cluster.id));
    }}
  }});
}}
</script>
</body>
</html>
"""


def _inline(svg: str) -> str:
    """The ``<svg>`` element alone, without the XML prolog and doctype."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def html_page(title: str, svg: str, graphs: Sequence[Graph]) -> str:
    """A page showing `svg`, drawn from `graphs`, with a legend of their groups."""
    counts: Counter[str] = Counter()
    ids: dict[str, list[str]] = {}
    for graph in graphs:
        for cluster in graph.groups():
            counts[cluster.name] += 1
            ids.setdefault(cluster.name, []).append(cluster.id)
    legend = "\n".join(
        f'<li data-group="{html.escape(name)}" data-clusters="{html.escape(" ".join(ids[name]))}">'
        f'<span class="swatch" style="background: {colour(name)}"></span>'
        f"{html.escape(name)} × {count}</li>"
        for name, count in sorted(counts.items())
    )
    # Graphviz's SVG comments name the generator; they add nothing to the page.
    body = re.sub(r"<!--.*?-->\n?", "", _inline(svg), flags=re.DOTALL)
    return _PAGE.format(title=html.escape(title), legend=legend, svg=body)
