"""The relay-dialect side: random constants, fusion before lowering, lowering errors."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from relay_xdsl.compiler import frontend
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.generic import module_text
from relay_xdsl.dialects import relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.interpreter.arrays import dense_array
from relay_xdsl.tools.mlir_text import relay_context

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


WITHOUT_RULE = """
func.func @main(%values: tensor<2xf32>, %indices: tensor<2x2xi64>) -> tensor<3x4xf32> {
  %default_value = relay.constant dense<0.000000e+00> : tensor<f32>
  %output_shape = relay.constant dense<[3, 4]> : tensor<2xi64>
  %r = relay.dyn.sparse_to_dense(%indices, %values, %default_value, %output_shape)
    : (tensor<2x2xi64>, tensor<2xf32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
"""
"""A function calling an operator that has no lowering rule (its row says why)."""


def test_an_operator_without_a_rule_is_a_clean_error():
    module = Parser(relay_context(), WITHOUT_RULE).parse_module()
    with pytest.raises(
        CompileError,
        match="operator 'dyn.sparse_to_dense' has no lowering: the dialect has no static",
    ):
        frontend.lower(module, random_constants=0)


def test_a_function_without_groups_is_fused_first():
    program = frontend.lower(parse_relay(PROGRAM), random_constants=0)
    names = [op.sym_name.data for op in program.module.ops]
    assert names[-1] == "main" and names[0].startswith("fused_add_")
    unfused = frontend.lower(parse_relay(PROGRAM), random_constants=0, fuse=False)
    assert [op.sym_name.data for op in unfused.module.ops] == ["main"]


DYNAMIC = """
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %shape = relay.constant dense<[3, 2]> : tensor<2xi64>
  %r = relay.dyn.reshape(%x, %shape) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}
"""
"""A dynamic call whose shape argument is a constant, as TVM's frontends emit it."""


def test_a_dynamic_call_with_a_constant_shape_is_made_static_before_fusion():
    # Fused first, the constant would be a parameter of the group, and the call
    # would stay dynamic, which has no lowering.
    module = Parser(relay_context(), DYNAMIC).parse_module()
    program = frontend.lower(module)
    (group, _) = program.module.ops
    assert group.sym_name.data.startswith("fused_reshape")  # type: ignore[attr-defined]
    assert any(isinstance(op, relay.DynReshapeOp) for op in module.walk())  # left unchanged


# 15x14 pixels: more than PRODUCT_PIXELS, and 4 channels, fewer than
# WINOGRAD_CHANNELS: a convolution still (not a product by packed panels nor
# Winograd's, relay_xdsl/conversion/rules/convolutions.py).
CONV_BATCH_NORM = (
    '#[version = "0.0.5"]\n'
    "def @main(%x: Tensor[(1, 4, 15, 14), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 4, 3, 3), float32] */,"
    " padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3]);\n"
    "  %1 = nn.batch_norm(%0, meta[relay.Constant][1] /* ty=Tensor[(8), float32] */,"
    " meta[relay.Constant][2] /* ty=Tensor[(8), float32] */,"
    " meta[relay.Constant][3] /* ty=Tensor[(8), float32] */,"
    " meta[relay.Constant][4] /* ty=Tensor[(8), float32] */);\n"
    "  nn.relu(%1.0)\n"
    "}\n"
)


def test_a_batch_norm_after_a_convolution_is_folded_into_it():
    """Its scale goes into the weights and its shift is the convolution's bias: one
    group, no multiply, and the weight the program takes is the scaled one."""
    module = parse_relay(CONV_BATCH_NORM)
    frontend.fill_random_constants(module, 3)
    weight, gamma, _, _, variance = (
        dense_array(op.value) for op in module.walk() if isinstance(op, relay.ConstantOp)
    )
    program = frontend.lower(module)
    (group, _) = program.module.ops
    assert group.sym_name.data.startswith("fused_nn_conv2d_")  # type: ignore[attr-defined]
    text = module_text(program.module)
    assert '"tosa.mul"' not in text and '"tosa.conv2d"' in text
    assert any(op.name == "relay.nn.batch_norm" for op in module.walk())  # the caller's is kept
    (hwio,) = [w for w in program.weights if w.ndim == 4]
    with np.errstate(invalid="ignore"):  # a random variance may be negative
        scale = gamma / np.sqrt(variance + np.float32(1e-5))
    expected = (weight * scale[:, None, None, None]).transpose(2, 3, 1, 0)
    np.testing.assert_allclose(hwio, expected, rtol=1e-6, equal_nan=True)
