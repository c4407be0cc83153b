"""The Relax-only kernels against PyTorch (Relax's semantics)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from relay_xdsl.interpreter import run
from relay_xdsl.tools.mlir_text import relay_context

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(4)


def run_mlir(text: str, **inputs: np.ndarray) -> np.ndarray:
    module = Parser(relay_context(), text).parse_module()
    (result,) = run(module, inputs)
    return result


@pytest.mark.parametrize(
    ("a", "b", "c"),
    [
        ("2x3x4", "4x5", "2x3x5"),
        ("4", "4x5", "5"),
        ("3x4", "4", "3"),
        ("2x1x3x4", "5x4x2", "2x5x3x2"),
    ],
)
def test_matmul_against_torch(a, b, c):
    x = RNG.standard_normal([int(d) for d in a.split("x")]).astype(np.float32)
    y = RNG.standard_normal([int(d) for d in b.split("x")]).astype(np.float32)
    result = run_mlir(
        f"func.func @main(%x: tensor<{a}xf32>, %y: tensor<{b}xf32>) -> tensor<{c}xf32> {{\n"
        f"  %r = relay.relax.matmul(%x, %y) : (tensor<{a}xf32>, tensor<{b}xf32>) -> tensor<{c}xf32>\n"
        "  func.return %r : tensor<{c}xf32>\n}".replace("{c}", c),
        x=x,
        y=y,
    )
    expected = torch.matmul(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)


def test_strided_slice_of_the_listed_axes():
    x = np.arange(40, dtype=np.float32).reshape(4, 10)
    result = run_mlir(
        "func.func @main(%x: tensor<4x10xf32>) -> tensor<4x4xf32> {\n"
        "  %r = relay.relax.strided_slice(%x) {axes = array<i32: 1>, begin = array<i32: 2>, "
        "end = array<i32: 10>, strides = array<i32: 2>} : (tensor<4x10xf32>) -> tensor<4x4xf32>\n"
        "  func.return %r : tensor<4x4xf32>\n}",
        x=x,
    )
    np.testing.assert_array_equal(result, x[:, 2:10:2])


@pytest.mark.parametrize(
    ("name", "reference"),
    [
        ("gelu", lambda t: torch.nn.functional.gelu(t)),
        ("gelu_tanh", lambda t: torch.nn.functional.gelu(t, approximate="tanh")),
        ("silu", torch.nn.functional.silu),
    ],
)
def test_activations_against_torch(name, reference):
    x = RNG.uniform(-4, 4, (3, 5)).astype(np.float32)
    result = run_mlir(
        "func.func @main(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {\n"
        f"  %r = relay.relax.nn.{name}(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>\n"
        "  func.return %r : tensor<3x5xf32>\n}",
        x=x,
    )
    np.testing.assert_allclose(result, reference(torch.from_numpy(x)).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.tvm
def test_strided_slice_against_tvm(in_tvm):
    from tvm import relax

    x = np.arange(40, dtype=np.float32).reshape(4, 10)
    result = run_mlir(
        "func.func @main(%x: tensor<4x10xf32>) -> tensor<2x3xf32> {\n"
        "  %r = relay.relax.strided_slice(%x) {axes = array<i32: 1, 0>, begin = array<i32: 8, -1>, "
        "end = array<i32: 1, 0>, strides = array<i32: -3, -2>} : (tensor<4x10xf32>) -> tensor<2x3xf32>\n"
        "  func.return %r : tensor<2x3xf32>\n}",
        x=x,
    )
    expected = in_tvm(lambda p: relax.op.strided_slice(p, [1, 0], [8, -1], [1, 0], [-3, -2]), x)
    np.testing.assert_array_equal(result, expected)
