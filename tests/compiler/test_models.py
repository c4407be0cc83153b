"""The seven torchvision models of the Relax bridge, and the seed's module, go
through fuse, defuse, lowering, compilation with upstream MLIR and a run,
and give PyTorch's outputs (the interpreter's, for the seed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, ModuleOp

from relay_xdsl.compiler.build import build
from relay_xdsl.compiler.frontend import fill_random_constants, lower
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.interpreter.arrays import dense_array
from relay_xdsl.tools.commands.compile import default_schedule
from relay_xdsl.tools.graph_equivalence import graph_diff
from relay_xdsl.transforms.defuse import RelayDefusePass
from relay_xdsl.transforms.fuse_ops import RelayFuseOpsPass

MAX_ABS_ERROR = 1e-4
SEED = Path(__file__).resolve().parents[2] / "examples" / "seed"


def fused_and_defused(module: ModuleOp) -> ModuleOp:
    """`module` through relay-fuse-ops and relay-defuse, checked to be the same dataflow graph."""
    original = module.clone()
    RelayFuseOpsPass().apply(Context(), module)
    assert any(op.name == "relay.fn" for op in module.walk())
    RelayDefusePass().apply(Context(), module)
    assert graph_diff(original, module, ("original", "defused")) == ""
    return module


def compiled(module: ModuleOp, library: Path) -> CompiledModel:
    program = lower(module)
    signature = build(program, library, schedule=default_schedule())
    return CompiledModel(library, signature, program.weights)


MODELS = (
    "resnet18",
    "resnet50",
    "mobilenet_v2",
    "squeezenet1_0",
    "densenet121",
    "efficientnet_b0",
    "vit_b_16",
)
"""relay_xdsl.tvm.models.MODELS, named here so that the seed's test runs without TVM."""


@pytest.mark.slow
@pytest.mark.parametrize("name", MODELS)
def test_model_matches_pytorch(name: str, tmp_path: Path):
    pytest.importorskip("tvm")
    pytest.importorskip("torchvision")
    from relay_xdsl.importers.relax import import_relax
    from relay_xdsl.tvm import models as tvm_models

    assert tvm_models.MODELS == MODELS

    module = fused_and_defused(import_relax(tvm_models.relax_module(name)))
    model = compiled(module, tmp_path / f"{name}.so")
    (output,) = model(tvm_models.example_input().numpy())
    expected = tvm_models.torch_output(name)
    assert expected.std() > 0.01, "a degenerate output would make this check vacuous"
    assert output.shape == expected.shape
    assert np.abs(output - expected).max() <= MAX_ABS_ERROR


def test_seed_with_random_constants_matches_the_interpreter(tmp_path: Path):
    """The seed's original module (resnet18's first layers, batch norms), its
    constants drawn at random (variances made positive) and its input too."""
    module = parse_relay((SEED / "original.relay").read_text(), "original.relay")
    fill_random_constants(module, 0)
    _positive_variances(module)
    module = fused_and_defused(module)
    data = np.random.RandomState(1).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    (output,) = compiled(module, tmp_path / "seed.so")(data)
    (expected,) = run(module, {"data": data})
    assert expected.std() > 0.01
    # random weights in [-1, 1) give activations in the thousands: compare relative to them
    assert np.abs(output - expected).max() <= MAX_ABS_ERROR * np.abs(expected).max()


def _positive_variances(module: ModuleOp) -> None:
    """Make the variance argument of each batch norm (a constant) non-negative."""
    for op in module.walk():
        if isinstance(op, relay.BatchNormOp):
            constant = op.operands[4].owner
            assert isinstance(constant, relay.ConstantOp) and constant.value is not None
            variance = np.abs(dense_array(constant.value))
            constant.attributes["value"] = DenseIntOrFPElementsAttr(
                constant.result.type, BytesAttr(variance.tobytes())
            )
