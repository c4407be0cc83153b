"""The seed's first step: its original module through TVM's inference passes and
MergeComposite; and the same passes on resnet18 with its batch norms."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from relay_xdsl.dialects import relay
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import parameters
from relay_xdsl.interpreter.random_values import give_random_values, random_inputs
from relay_xdsl.relay_text.equivalence import relay_text_diff
from relay_xdsl.tools.graph_equivalence import graph_diff
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fold_constant import RelayFoldConstantPass
from relay_xdsl.transforms.fold_scale_axis import RelayFoldScaleAxisPass
from relay_xdsl.transforms.merge_composite import RelayMergeCompositePass
from relay_xdsl.transforms.simplify_inference import RelaySimplifyInferencePass

from .interpreted import assert_same_outputs, outputs

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


def test_original_fused_and_defused_compute_the_same_on_random_constants():
    """The seed's constants have no values: given random ones (drawn by
    role: weights scaled by fan-in, variances near 1) before the passes, the
    folded weights are computed from them, and the three modules agree,
    within 1e-4 of the largest output (about 7)."""
    original = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    give_random_values(original, 0)
    fused = original.clone()
    for pass_ in (
        RelaySimplifyInferencePass(),
        RelayFoldScaleAxisPass(),
        RelayFoldConstantPass(),
        RelayMergeCompositePass(),
    ):
        pass_.apply(Context(), fused)
    assert sum(isinstance(op, relay.FnOp) for op in fused.walk()) == 3
    assert not any(isinstance(op, relay.BatchNormOp) for op in fused.walk())
    defused = fused.clone()
    RelayDefusePass().apply(Context(), defused)
    inputs = random_inputs(parameters(original), 1)
    (expected,) = outputs(original, inputs)
    largest = float(np.abs(expected).max())
    assert np.isfinite(expected).all() and 0.1 < expected.std() < 10
    for module in (fused, defused):
        (actual,) = outputs(module, inputs)
        assert np.abs(actual - expected).max() <= 1e-4 * largest


@pytest.mark.tvm
@pytest.mark.slow
def test_resnet18_with_its_batch_norms_folds_to_the_same_outputs():
    """resnet18 with its batch norms (random statistics) as TVM Relax imports it:
    after the inference simplifications no batch norm and no multiply is left
    (every scale went into a convolution's weights), and the interpreter gives
    the outputs of the unfolded module and of PyTorch."""
    pytest.importorskip("tvm")
    pytest.importorskip("torchvision")
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.tvm import models as tvm_models

    relax_module = tvm_models.relax_module("resnet18")
    before, after = import_relax(relax_module), import_relax(relax_module)
    for pass_ in (RelaySimplifyInferencePass(), RelayFoldScaleAxisPass(), RelayFoldConstantPass()):
        pass_.apply(Context(), after)
    after.verify()
    operators = Counter(op.operator_name for op in after.walk() if isinstance(op, relay.OperatorOp))
    assert operators["nn.conv2d"] == 20
    assert not {"nn.batch_norm", "multiply", "sqrt", "divide"} & set(operators)
    inputs = {"x": tvm_models.example_input().numpy()}
    assert_same_outputs(before, after, inputs, tolerance=1e-4)
    (logits,) = outputs(after, inputs)
    np.testing.assert_allclose(logits, tvm_models.torch_output("resnet18"), rtol=1e-4, atol=1e-4)
