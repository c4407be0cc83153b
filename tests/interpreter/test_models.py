"""The seven torchvision models of the Relax bridge, imported and run by the
interpreter, give PyTorch's outputs."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tvm")
pytest.importorskip("torchvision")

from relay_xdsl.importers.relax import import_relax
from relay_xdsl.interpreter import run
from relay_xdsl.tvm import models as tvm_models

MAX_ABS_ERROR = 1e-4


@pytest.mark.slow
@pytest.mark.parametrize("name", tvm_models.MODELS)
def test_model_matches_pytorch(name: str):
    module = import_relax(tvm_models.relax_module(name))
    (output,) = run(module, {"x": tvm_models.example_input().numpy()})
    expected = tvm_models.torch_output(name)
    assert expected.std() > 0.01, "a degenerate output would make this check vacuous"
    assert output.shape == expected.shape
    assert np.abs(output - expected).max() <= MAX_ABS_ERROR
