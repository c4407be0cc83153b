"""Running Relax modules on TVM's VM (relay_xdsl/tvm/models.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tvm")

from relay_xdsl.exporters.relax import export_relax
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run as interpret
from relay_xdsl.tvm import models


def test_a_float16_batch_norm_stays_float16_and_agrees_with_the_interpreter():
    module = parse_relay(
        '#[version = "0.0.5"]\n'
        "def @main(%x: Tensor[(1, 2, 3, 3), float16]) {\n"
        "  %0 = nn.batch_norm(%x, meta[relay.Constant][0], meta[relay.Constant][1],"
        " meta[relay.Constant][2], meta[relay.Constant][3]);\n"
        "  nn.relu(%0.0)\n}\n"
    )
    x = np.random.RandomState(0).uniform(-1, 1, (1, 2, 3, 3)).astype(np.float16)
    (actual,) = models.run(export_relax(module, random_constants=0), x)
    (expected,) = interpret(module, {"x": x}, "main", 0)
    assert actual.dtype == np.float16
    np.testing.assert_allclose(actual, expected, atol=2e-3)


def test_a_scalar_input_stays_a_scalar():
    module = parse_relay(
        '#[version = "0.0.5"]\n'
        'def @main(%v: float32) {\n  full(%v, shape=[2, 3], dtype="float32")\n}\n'
    )
    (actual,) = models.run(export_relax(module), np.array(1.5, np.float32))
    np.testing.assert_array_equal(actual, np.full((2, 3), 1.5, np.float32))
