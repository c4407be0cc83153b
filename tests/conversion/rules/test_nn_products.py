"""The dense products and batch norm of rules/nn.py (dense, batch_matmul,
relax.matmul with broadcast batches, batch_norm, bias_add) lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(9)


def random(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


CASES = {
    "dense": (
        (
            "def @main(%x: Tensor[(2, 3, 4), float32], %w: Tensor[(5, 4), float32]) {"
            " nn.dense(%x, %w, units=5) }"
        ),
        {"x": random(2, 3, 4), "w": random(5, 4)},
    ),
}
for transpose_a, transpose_b in [(False, True), (True, False)]:
    a = random(2, 4, 3) if transpose_a else random(2, 3, 4)
    b = random(2, 5, 4) if transpose_b else random(2, 4, 5)
    CASES[f"batch_matmul_{transpose_a}_{transpose_b}"] = (
        (
            f"def @main(%a: Tensor[{a.shape}, float32], %b: Tensor[{b.shape}, float32]) {{"
            f" nn.batch_matmul(%a, %b, transpose_a={transpose_a}, transpose_b={transpose_b}) }}"
        ),
        {"a": a, "b": b},
    )
for a_shape, b_shape, c_shape in [
    ("2x3x4", "4x5", "2x3x5"),
    ("3x2x4", "3x4x6", "3x2x6"),
    ("2x1x3x4", "5x4x6", "2x5x3x6"),
    ("1x3x4", "2x4x5", "2x3x5"),
]:
    CASES[f"relax_matmul_{a_shape}_{b_shape}"] = (
        f"""
        func.func @main(%a: tensor<{a_shape}xf32>, %b: tensor<{b_shape}xf32>)
            -> tensor<{c_shape}xf32> {{
          %r = relay.relax.matmul(%a, %b)
            : (tensor<{a_shape}xf32>, tensor<{b_shape}xf32>) -> tensor<{c_shape}xf32>
          func.return %r : tensor<{c_shape}xf32>
        }}
        """,
        {
            "a": random(*map(int, a_shape.split("x"))),
            "b": random(*map(int, b_shape.split("x"))),
        },
    )


def _known(array: np.ndarray) -> str:
    """`array` as a ``relay.constant``'s ``dense<...>`` value."""
    return (
        f"dense<{np.array2string(array, separator=', ', threshold=array.size, floatmode='unique')}>"
    )


def _type(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


# Products by known float32 matrices read them packed into 32-column panels
# (packed_matmul.py): 70 columns leave a last panel of 6 padded with zeros,
# 13 and 11 rows a remainder of the 8-row tile; 64 columns fill two panels.
for name, x_shape, w_shape, r_shape, op in [
    ("dense_known_weight", (2, 13, 40), (70, 40), (2, 13, 70), "relay.nn.dense"),
    ("matmul_known_weight", (11, 24), (24, 64), (11, 64), "relay.relax.matmul"),
]:
    CASES[name] = (
        f"""
        func.func @main(%x: {_type(x_shape)}) -> {_type(r_shape)} {{
          %w = relay.constant {_known(random(*w_shape))} : {_type(w_shape)}
          %r = {op}(%x, %w) : ({_type(x_shape)}, {_type(w_shape)}) -> {_type(r_shape)}
          func.return %r : {_type(r_shape)}
        }}
        """,
        {"x": random(*x_shape)},
    )

# float16 programs: products and batch norm in half precision.
CASES["dense_float16"] = (
    "def @main(%x: Tensor[(3, 8), float16], %w: Tensor[(5, 8), float16]) { nn.dense(%x, %w) }",
    {"x": random(3, 8).astype(np.float16), "w": random(5, 8).astype(np.float16)},
)
CASES["batch_matmul_float16"] = (
    (
        "def @main(%a: Tensor[(2, 3, 4), float16], %b: Tensor[(2, 5, 4), float16]) {"
        " nn.batch_matmul(%a, %b, transpose_b=True) }"
    ),
    {"a": random(2, 3, 4).astype(np.float16), "b": random(2, 5, 4).astype(np.float16)},
)
CASES["conv_batch_norm_bias_float16"] = (
    """
    func.func @main(%x: tensor<1x2x5x5xf16>, %w: tensor<3x2x3x3xf16>, %b: tensor<3xf16>)
        -> tensor<1x3x5x5xf16> {
      %c = relay.nn.conv2d(%x, %w) {padding = array<i32: 1, 1>, channels = 3 : i32,
        kernel_size = array<i32: 3, 3>}
        : (tensor<1x2x5x5xf16>, tensor<3x2x3x3xf16>) -> tensor<1x3x5x5xf16>
      %g = relay.constant dense<[1.5, 0.5, -1.0]> : tensor<3xf16>
      %m = relay.constant dense<[0.25, -0.5, 1.0]> : tensor<3xf16>
      %v = relay.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf16>
      %bn = relay.nn.batch_norm(%c, %g, %m, %m, %v)
        : (tensor<1x3x5x5xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>)
        -> tuple<tensor<1x3x5x5xf16>, tensor<3xf16>, tensor<3xf16>>
      %n = relay.tuple_get_item %bn[0] : tuple<tensor<1x3x5x5xf16>, tensor<3xf16>, tensor<3xf16>>
      %r = relay.nn.bias_add(%n, %b) : (tensor<1x3x5x5xf16>, tensor<3xf16>) -> tensor<1x3x5x5xf16>
      func.return %r : tensor<1x3x5x5xf16>
    }
    """,
    {
        "x": random(1, 2, 5, 5).astype(np.float16),
        "w": random(3, 2, 3, 3).astype(np.float16),
        "b": random(3).astype(np.float16),
    },
)

for center_scale in ("True", "False"):
    CASES[f"batch_norm_run_time_{center_scale}"] = (
        (
            "def @main(%x: Tensor[(2, 3, 4), float32], %g: Tensor[(3,), float32],"
            " %b: Tensor[(3,), float32], %m: Tensor[(3,), float32], %v: Tensor[(3,), float32]) {"
            f" nn.batch_norm(%x, %g, %b, %m, %v, axis=1, center={center_scale},"
            f" scale={center_scale}).0 }}"
        ),
        {
            "x": random(2, 3, 4),
            **{name: random(3) for name in "gbm"},
            "v": np.abs(random(3)) + 0.5,
        },
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
