"""softmax, log_softmax and layer_norm lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(0)


def random(*shape: int) -> np.ndarray:
    return (RNG.standard_normal(shape) * 3).astype(np.float32)


def case(text: str, **inputs: np.ndarray) -> tuple[str, dict[str, np.ndarray]]:
    return text, inputs


CASES = {
    f"{operator}_axis{axis}": case(
        f"def @main(%x: Tensor[(2, 5, 7), float32]) {{ nn.{operator}(%x, axis={axis}) }}",
        x=random(2, 5, 7),
    )
    for operator in ("softmax", "log_softmax", "fast_softmax")
    for axis in (-1, 1)
}
# The softmax over the channels of a tensor held in NHWC reduces its last physical axis.
CASES["softmax_nhwc"] = case(
    "def @main(%x: Tensor[(1, 3, 6, 6), float32], %w: Tensor[(4, 3, 3, 3), float32]) {"
    " nn.softmax(nn.conv2d(%x, %w, padding=[1, 1]), axis=1) }",
    x=random(1, 3, 6, 6),
    w=random(4, 3, 3, 3),
)
# Known gamma and beta enter as constants laid along the axis.
CASES["layer_norm_known"] = case(
    """
    func.func @main(%x: tensor<2x3x6xf32>) -> tensor<2x3x6xf32> {
      %g = relay.constant dense<[1.5, -0.5, 2.0, 1.0, 0.25, 3.0]> : tensor<6xf32>
      %b = relay.constant dense<[0.5, -1.0, 0.0, 2.0, 0.25, 1.0]> : tensor<6xf32>
      %r = relay.nn.layer_norm(%x, %g, %b) {epsilon = 1.0e-06 : f64}
        : (tensor<2x3x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x3x6xf32>
      func.return %r : tensor<2x3x6xf32>
    }
    """,
    x=random(2, 3, 6),
)
for axis, center, scale in [(1, True, True), (-1, False, True), (0, True, False)]:
    size = (2, 4, 5)[axis]
    CASES[f"layer_norm_axis{axis}_{center}_{scale}"] = case(
        "def @main(%x: Tensor[(2, 4, 5), float32], "
        f"%g: Tensor[({size},), float32], %b: Tensor[({size},), float32]) {{"
        f" nn.layer_norm(%x, %g, %b, axis={axis}, center={center}, scale={scale}) }}",
        x=random(2, 4, 5),
        g=random(size),
        b=random(size),
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
