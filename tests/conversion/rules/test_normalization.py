"""softmax, log_softmax and layer_norm lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(0)


def random(*shape: int) -> np.ndarray:
    return (RNG.standard_normal(shape) * 3).astype(np.float32)


@pytest.mark.parametrize("operator", ["nn.softmax", "nn.log_softmax", "nn.fast_softmax"])
@pytest.mark.parametrize("axis", [-1, 1])
def test_softmax(lowered_run, operator: str, axis: int):
    lowered_run(
        f"def @main(%x: Tensor[(2, 5, 7), float32]) {{ {operator}(%x, axis={axis}) }}",
        x=random(2, 5, 7),
    )


def test_softmax_after_a_convolution_keeps_nhwc(lowered_run):
    """The softmax over channels of a tensor held in NHWC reduces its last physical axis."""
    lowered_run(
        "def @main(%x: Tensor[(1, 3, 6, 6), float32], %w: Tensor[(4, 3, 3, 3), float32]) {"
        " nn.softmax(nn.conv2d(%x, %w, padding=[1, 1]), axis=1) }",
        x=random(1, 3, 6, 6),
        w=random(4, 3, 3, 3),
    )


def test_layer_norm_with_known_parameters(lowered_run):
    """Known gamma and beta enter as constants laid along the axis."""
    lowered_run(
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


@pytest.mark.parametrize(
    ("axis", "center", "scale"), [(1, True, True), (-1, False, True), (0, True, False)]
)
def test_layer_norm(lowered_run, axis: int, center: bool, scale: bool):
    size = (2, 4, 5)[axis]
    lowered_run(
        "def @main(%x: Tensor[(2, 4, 5), float32], "
        f"%g: Tensor[({size},), float32], %b: Tensor[({size},), float32]) {{"
        f" nn.layer_norm(%x, %g, %b, axis={axis}, center={center}, scale={scale}) }}",
        x=random(2, 4, 5),
        g=random(size),
        b=random(size),
    )
