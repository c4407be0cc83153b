"""Dynamic operators with constant shape arguments, made static before lowering
(relay-dynamic-to-static), lowered, compiled and run against the interpreter,
which runs them dynamic."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(11)
DATA = RNG.standard_normal((4, 7, 6)).astype(np.float32)
ROW = RNG.standard_normal(6).astype(np.float32)


def _case(result: str, body: str) -> str:
    """A function of `DATA`, `ROW` and a scalar returning `result`, computed by `body`."""
    return f"""
    func.func @main(%x: tensor<4x7x6xf32>, %row: tensor<6xf32>, %fill: tensor<f32>) -> {result} {{
      {body}
    }}
    """


CASES = {
    "dyn_reshape": _case(
        "tensor<?x?xf32>",
        """%shape = relay.constant dense<[-1, 6]> : tensor<2xi64>
      %r = relay.dyn.reshape(%x, %shape) {newshape = array<i32>}
        : (tensor<4x7x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
      %e = relay.exp(%r) : (tensor<?x?xf32>) -> tensor<?x?xf32>
      func.return %e : tensor<?x?xf32>""",
    ),
    "dyn_strided_slice": _case(
        "tensor<?x?x6xf32>",
        """%begin = relay.constant dense<[1, 6]> : tensor<2xi64>
      %end = relay.constant dense<[4, 0]> : tensor<2xi64>
      %strides = relay.constant dense<[2, -3]> : tensor<2xi64>
      %r = relay.dyn.strided_slice(%x, %begin, %end, %strides)
        : (tensor<4x7x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?x6xf32>
      func.return %r : tensor<?x?x6xf32>""",
    ),
    "dyn_broadcast_to_and_full": _case(
        "tensor<?x?xf32>",
        """%shape = relay.constant dense<[3, 6]> : tensor<2xi64>
      %b = relay.dyn.broadcast_to(%row, %shape) : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
      %f = relay.dyn.full(%fill, %shape) : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
      %r = relay.multiply(%b, %f) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      func.return %r : tensor<?x?xf32>""",
    ),
    "dyn_expand_dims_and_squeeze": _case(
        "tensor<?x?x?xf32>",
        """%axis = relay.constant dense<1> : tensor<i32>
      %e = relay.dyn.expand_dims(%x, %axis) : (tensor<4x7x6xf32>, tensor<i32>) -> tensor<?x?x?x?xf32>
      %axes = relay.constant dense<1> : tensor<1xi64>
      %s = relay.dyn.squeeze(%e, %axes) : (tensor<?x?x?x?xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
      func.return %s : tensor<?x?x?xf32>""",
    ),
}
CASES = {
    name: (text, {"x": DATA, "row": ROW, "fill": np.array(1.5, np.float32)})
    for name, text in CASES.items()
}


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
