"""The relay-dialect side: random constants, and the conversion where it is missing."""

from __future__ import annotations

import numpy as np
import pytest

from relay_xdsl.compiler import frontend
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run

PROGRAM = (
    '#[version = "0.0.5"]\n'
    "def @main(%x: Tensor[(2, 3), float32]) {\n"
    "  add(%x, meta[relay.Constant][0] /* ty=Tensor[(2, 3), float32] */)\n"
    "}\n"
)


def test_random_constants_are_the_interpreters():
    x = np.ones((2, 3), np.float32)
    expected = run(parse_relay(PROGRAM), {"x": x}, random_constants=5)
    module = parse_relay(PROGRAM)
    frontend.fill_random_constants(module, 5)
    module.verify()
    (constant,) = [op for op in module.walk() if isinstance(op, relay.ConstantOp)]
    assert constant.meta_index is None
    np.testing.assert_array_equal(run(module, {"x": x}), expected)


def test_a_missing_conversion_is_a_clean_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(frontend, "CONVERSION", "relay_xdsl.no_such_conversion.program")
    with pytest.raises(CompileError, match="relay → TOSA conversion .* is not part of"):
        frontend.lower(parse_relay(PROGRAM))
