"""The seed's first step: its original module through TVM's inference passes and MergeComposite."""

from __future__ import annotations

from pathlib import Path

from xdsl.context import Context

from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.equivalence import relay_text_diff
from relay_xdsl.tools.graph_equivalence import graph_diff
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fold_constant import RelayFoldConstantPass
from relay_xdsl.transforms.fold_scale_axis import RelayFoldScaleAxisPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass
from relay_xdsl.transforms.simplify_inference import RelaySimplifyInferencePass

SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"


def test_original_module_gives_tvms_fused_then_defused_module():
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    for pass_ in (
        RelaySimplifyInferencePass(),
        RelayFoldScaleAxisPass(),
        RelayFoldConstantPass(),
        RelayMergeCompositePass(),
    ):
        pass_.apply(Context(), module)
    module.verify()
    fused = parse_relay((SEED / "fused.relay").read_text(), "fused.relay")
    assert graph_diff(fused, module, ("fused.relay", "pipeline")) == ""
    assert relay_text_diff((SEED / "fused.relay").read_text(), print_relay(module)) == ""
    RelayDefusePass().apply(Context(), module)
    defused = parse_relay((SEED / "defused.relay").read_text(), "defused.relay")
    assert graph_diff(defused, module, ("defused.relay", "pipeline")) == ""
