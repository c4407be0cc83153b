"""softmax, log_softmax and the normalisations lowered, compiled and run against the interpreter."""

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

for operator, axis, shape, extra in [
    ("instance_norm", 1, (2, 3, 5, 4), ""),
    ("instance_norm", -1, (2, 6, 3), ", center=False"),
    ("group_norm", 1, (2, 6, 3, 4), ", num_groups=3"),
    ("group_norm", 1, (1, 4, 7), ", num_groups=2, scale=False"),
    ("group_norm", 2, (2, 3, 4, 5), ", num_groups=4"),
]:
    size = shape[axis]
    CASES[f"{operator}_{'x'.join(map(str, shape))}_axis{axis}"] = case(
        f"def @main(%x: Tensor[{shape}, float32], %g: Tensor[({size},), float32],"
        f" %b: Tensor[({size},), float32]) {{"
        f" nn.{operator}(%x, %g, %b, axis={axis}{extra}) }}",
        x=random(*shape),
        g=random(size),
        b=random(size),
    )
# Statistics over the axes of a tensor held in NHWC: the channels split where they are.
for operator, extra in [("group_norm", ", num_groups=2"), ("instance_norm", "")]:
    CASES[f"{operator}_nhwc"] = case(
        "def @main(%x: Tensor[(1, 3, 6, 6), float32], %w: Tensor[(4, 3, 3, 3), float32],"
        " %g: Tensor[(4,), float32], %b: Tensor[(4,), float32]) {"
        f" nn.{operator}(nn.conv2d(%x, %w, padding=[1, 1]), %g, %b{extra}) }}",
        x=random(1, 3, 6, 6),
        w=random(4, 3, 3, 3),
        g=random(4),
        b=random(4),
    )
CASES["group_norm_float16"] = case(
    "def @main(%x: Tensor[(1, 4, 3, 3), float16], %g: Tensor[(4,), float16],"
    " %b: Tensor[(4,), float16]) { nn.group_norm(%x, %g, %b, num_groups=2) }",
    x=random(1, 4, 3, 3).astype(np.float16),
    g=random(4).astype(np.float16),
    b=random(4).astype(np.float16),
)
for size, axis, shape in [(5, 1, (2, 7, 3, 3)), (4, -1, (2, 3, 6)), (3, 1, (1, 2, 4))]:
    CASES[f"lrn_size{size}_axis{axis}"] = case(
        f"def @main(%x: Tensor[{shape}, float32]) {{"
        f" nn.lrn(%x, size={size}, axis={axis}, alpha=0.01f, beta=0.6f, bias=1.5f) }}",
        x=random(*shape),
    )
for axes, shape in [("[1]", (2, 5, 3)), ("[1, 2]", (2, 3, 4, 4)), ("[-1]", (3, 8))]:
    CASES[f"l2_normalize_{'_'.join(axes.strip('[]').split(', '))}"] = case(
        f"def @main(%x: Tensor[{shape}, float32]) {{ nn.l2_normalize(%x, eps=0.001f, axis={axes}) }}",
        x=random(*shape),
    )
CASES["l2_normalize_float16"] = case(
    "def @main(%x: Tensor[(2, 6), float16]) { nn.l2_normalize(%x, eps=0.01f, axis=[1]) }",
    x=random(2, 6).astype(np.float16),
)
# The output and the mask of ones.
CASES["dropout"] = case(
    "def @main(%x: Tensor[(2, 5), float32]) { %0 = nn.dropout(%x, rate=0.3f); (%0.0, %0.1) }",
    x=random(2, 5),
)
CASES["softmax_float16"] = case(
    "def @main(%x: Tensor[(2, 7), float16]) { nn.softmax(%x) }",
    x=random(2, 7).astype(np.float16),
)
CASES["layer_norm_float16"] = case(
    "def @main(%x: Tensor[(2, 8), float16], %g: Tensor[(8,), float16],"
    " %b: Tensor[(8,), float16]) { nn.layer_norm(%x, %g, %b) }",
    x=random(2, 8).astype(np.float16),
    g=random(8).astype(np.float16),
    b=random(8).astype(np.float16),
)


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
