"""A bias added after a convolution, or after a product by a known matrix,
taken in as its initial sums: compiled and run against the interpreter, and
the add gone from the lowered IR.

The fold changes the order of the additions only (the bias first instead of
last), so results agree within the fixture's ``TOLERANCE`` (1e-5, relative and
absolute; ``HALF_TOLERANCE`` for float16), as any convolution does.
"""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(12)


def random(*shape: int, dtype: str = "float32") -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def _ty(shape: tuple[int, ...], dtype: str = "float32") -> str:
    return f"Tensor[({', '.join(map(str, shape))},), {dtype}]"


def biased(
    operator: str,
    x_shape: tuple[int, ...],
    w_shape: tuple[int, ...],
    attrs: str,
    bias_shape: tuple[int, ...],
    add: str = "nn.bias_add(%0, %b)",
    dtype: str = "float32",
) -> tuple[str, dict[str, np.ndarray]]:
    """``operator(%x, %w, attrs)`` then `add` of ``%b`` (the bias, a parameter
    of `bias_shape`), on random inputs."""
    text = (
        f"def @main(%x: {_ty(x_shape, dtype)}, %w: {_ty(w_shape, dtype)},"
        f" %b: {_ty(bias_shape, dtype)}) {{\n"
        f"  %0 = {operator}(%x, %w, {attrs});\n  {add}\n}}"
    )
    inputs = {
        "x": random(*x_shape, dtype=dtype),
        "w": random(*w_shape, dtype=dtype),
        "b": random(*bias_shape, dtype=dtype),
    }
    return text, inputs


KNOWN_BIAS = (
    """
    func.func @main(%x: tensor<1x6x9x7xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x5x4xf32> {
      %c = relay.nn.conv2d(%x, %w) {strides = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>,
        dilation = array<i32: 1, 1>, groups = 6 : i32, channels = 6 : i32,
        kernel_size = array<i32: 3, 3>} : (tensor<1x6x9x7xf32>, tensor<6x1x3x3xf32>)
        -> tensor<1x6x5x4xf32>
      %b = relay.constant dense<[[[0.5]], [[-1.0]], [[2.0]], [[0.0]], [[3.5]], [[-0.25]]]>
        : tensor<6x1x1xf32>
      %a = relay.add(%b, %c) : (tensor<6x1x1xf32>, tensor<1x6x5x4xf32>) -> tensor<1x6x5x4xf32>
      func.return %a : tensor<1x6x5x4xf32>
    }
    """,
    {"x": random(1, 6, 9, 7), "w": random(6, 1, 3, 3)},
)
"""A known (C, 1, 1) constant added before the convolution's result, as a
folded batch norm leaves it."""


def _known(array: np.ndarray) -> str:
    """`array` as a ``relay.constant``'s ``dense<...>`` value."""
    return (
        f"dense<{np.array2string(array, separator=', ', threshold=array.size, floatmode='unique')}>"
    )


KNOWN_WEIGHT_DENSE = (
    f"""
    func.func @main(%x: tensor<2x13x40xf32>, %b: tensor<70xf32>) -> tensor<2x13x70xf32> {{
      %w = relay.constant {_known(random(70, 40))} : tensor<70x40xf32>
      %r = relay.nn.dense(%x, %w) : (tensor<2x13x40xf32>, tensor<70x40xf32>) -> tensor<2x13x70xf32>
      %a = relay.nn.bias_add(%r, %b) {{axis = 2 : i32}}
        : (tensor<2x13x70xf32>, tensor<70xf32>) -> tensor<2x13x70xf32>
      func.return %a : tensor<2x13x70xf32>
    }}
    """,
    {"x": random(2, 13, 40), "b": random(70)},
)
"""A product by a known matrix, read from packed panels (packed_matmul.py),
and a run-time bias: its 70 columns padded to the panels' 96."""

KNOWN_WEIGHT_MATMUL = (
    f"""
    func.func @main(%x: tensor<1x9x24xf32>) -> tensor<1x9x64xf32> {{
      %w = relay.constant {_known(random(24, 64))} : tensor<24x64xf32>
      %b = relay.constant {_known(random(64))} : tensor<64xf32>
      %r = relay.relax.matmul(%x, %w) : (tensor<1x9x24xf32>, tensor<24x64xf32>) -> tensor<1x9x64xf32>
      %a = relay.add(%r, %b) : (tensor<1x9x64xf32>, tensor<64xf32>) -> tensor<1x9x64xf32>
      func.return %a : tensor<1x9x64xf32>
    }}
    """,
    {"x": random(1, 9, 24)},
)
"""A transformer's dense layer: a known matrix and a known bias."""

CASES = {
    "conv2d": biased(
        "nn.conv2d", (1, 3, 9, 7), (8, 3, 3, 3), "padding=[1, 1, 1, 1], channels=8", (8,)
    ),
    "conv2d_add_channels": biased(
        "nn.conv2d",
        (1, 3, 6, 6),
        (5, 3, 1, 1),
        "channels=5, kernel_size=[1, 1]",
        (1, 5, 1, 1),
        add="add(%0, %b)",
    ),
    "conv2d_nhwc": biased(
        "nn.conv2d",
        (1, 7, 7, 4),
        (3, 3, 4, 6),
        'padding=[1, 1, 1, 1], channels=6, data_layout="NHWC", kernel_layout="HWIO"',
        (6,),
        add="nn.bias_add(%0, %b, axis=3)",
    ),
    "depthwise_s2": biased(
        "nn.conv2d",
        (1, 40, 13, 11),
        (40, 1, 3, 3),
        "strides=[2, 2], padding=[1, 0, 1, 1], groups=40, channels=40, kernel_size=[3, 3]",
        (40,),
    ),
    "depthwise_dilated": biased(
        "nn.conv2d",
        (1, 12, 15, 15),
        (12, 1, 3, 3),
        "padding=[2, 2, 2, 2], dilation=[2, 2], groups=12, channels=12, kernel_size=[3, 3]",
        (12, 1, 1),
        add="add(%0, %b)",
    ),
    "depthwise_multiplier": biased(
        "nn.conv2d",
        (1, 3, 8, 8),
        (6, 1, 3, 3),
        "strides=[2, 2], padding=[1, 1, 1, 1], groups=3, channels=6, kernel_size=[3, 3]",
        (6,),
    ),
    "grouped": biased(
        "nn.conv2d",
        (1, 4, 7, 7),
        (6, 2, 3, 3),
        "padding=[1, 1, 1, 1], groups=2, channels=6, kernel_size=[3, 3]",
        (6,),
    ),
    "conv1d": biased("nn.conv1d", (2, 3, 11), (4, 3, 3), "channels=4, kernel_size=[3]", (4,)),
    "conv3d": biased(
        "nn.conv3d", (1, 3, 5, 6, 4), (4, 3, 3, 3, 2), "channels=4, kernel_size=[3, 3, 2]", (4,)
    ),
    "conv2d_transpose": biased(
        "nn.conv2d_transpose",
        (1, 3, 4, 4),
        (3, 2, 3, 3),
        "strides=[2, 2], padding=[1, 1], channels=2, kernel_size=[3, 3]",
        (2,),
    ),
    "conv2d_float16": biased(
        "nn.conv2d",
        (1, 3, 6, 6),
        (4, 3, 3, 3),
        "padding=[1, 1], channels=4, kernel_size=[3, 3]",
        (4,),
        dtype="float16",
    ),
    "known_bias": KNOWN_BIAS,
    "packed_dense": KNOWN_WEIGHT_DENSE,
    "packed_matmul": KNOWN_WEIGHT_MATMUL,
    # Not a bias: along the rows (as many as the channels); the add stays.
    "rows": biased(
        "nn.conv2d",
        (1, 3, 5, 5),
        (5, 3, 1, 1),
        "channels=5, kernel_size=[1, 1]",
        (5,),
        add="nn.bias_add(%0, %b, axis=2)",
    ),
}

NOT_FOLDED = {"rows"}


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)


@pytest.mark.parametrize("name", CASES)
def test_add_folded(lowered_ops, name: str):
    """The lowered function adds nothing but inside the convolution (or still
    adds, for what is not a per-channel bias)."""
    names = lowered_ops(CASES[name][0])
    assert any(op.startswith(("tosa.conv", "tosa.depthwise", "linalg.")) for op in names)
    assert names.count("tosa.add") == (1 if name in NOT_FOLDED else 0)
