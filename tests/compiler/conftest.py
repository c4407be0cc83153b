"""Hand-written TOSA programs (generic form, as the conversion's output reaches upstream),
as the `tosa` fixture, `compile_mlir`, which compiles one and loads it, and
`known_conv`, a Relay module of one conv by known filters."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from relay_xdsl.compiler.build import build
from relay_xdsl.compiler.program import program_from_mlir
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.tools.mlir_text import relay_context

DENSE_RELU = """
func.func @dense_relu(%x: tensor<2x3xf32>, %w: tensor<1x3x4xf32>, %b: tensor<1x1x4xf32>)
    -> tensor<2x4xf32> attributes {llvm.emit_c_interface} {
  %s3 = "tosa.const_shape"() {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = "tosa.const_shape"() {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %x3 = "tosa.reshape"(%x, %s3) : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<1x2x3xf32>
  %mm = "tosa.matmul"(%x3, %w, %zp, %zp) : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %sum = "tosa.add"(%mm, %b) : (tensor<1x2x4xf32>, tensor<1x1x4xf32>) -> tensor<1x2x4xf32>
  %relu = "tosa.clamp"(%sum) {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %out = "tosa.reshape"(%relu, %s2) : (tensor<1x2x4xf32>, !tosa.shape<2>) -> tensor<2x4xf32>
  func.return %out : tensor<2x4xf32>
}
"""
"""relu(x @ w + b): one input, two weights, one result."""

MANY_RESULTS = """
func.func @many(%x: tensor<2x3xf32>, %k: tensor<i32>)
    -> (tensor<3x2xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3xi1>, tensor<i32>, tensor<2x3xf32>)
    attributes {llvm.emit_c_interface} {
  %perm = "tosa.transpose"(%x) {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %c = "tosa.const"() {values = dense<[[1.0, -1.0, 0.5]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %sum = "tosa.add"(%x, %c) : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %r1 = "tosa.reduce_sum"(%x) {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %r0 = "tosa.reduce_sum"(%r1) {axis = 0 : i32} : (tensor<2x1xf32>) -> tensor<1x1xf32>
  %s0 = "tosa.const_shape"() {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %total = "tosa.reshape"(%r0, %s0) : (tensor<1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  %positive = "tosa.greater"(%sum, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  func.return %perm, %sum, %total, %positive, %k, %x
    : tensor<3x2xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3xi1>, tensor<i32>, tensor<2x3xf32>
}
"""
"""Six results of all kinds: a transpose, a sum with a constant, a scalar, booleans, and two
inputs returned as they are (the library clones them)."""

GROUPS = """
func.func private @fused_add_0(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tosa.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func private @fused_add_7(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tosa.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func private @fused_relu_1(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tosa.clamp"(%a) {min_val = 0.0 : f32, max_val = 3.0e+38 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func @model(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
    attributes {llvm.emit_c_interface} {
  %0 = func.call @fused_add_0(%x, %w) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = func.call @fused_relu_1(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = func.call @fused_add_7(%1, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %2, %0 : tensor<2x3xf32>, tensor<2x3xf32>
}
"""
"""Fused groups as the conversion makes them: three (two the same but for their names),
private, called by the model's function @model; `groups` computes it."""

OUTSIDE_GROUPS = GROUPS.replace(
    "%1 = func.call @fused_relu_1(%0)",
    '%s = "tosa.const_shape"() {values = dense<[3, 2]> : tensor<2xindex>} : '
    "() -> !tosa.shape<2>\n"
    '  %r = "tosa.reshape"(%0, %s) : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>\n'
    '  %t = "tosa.transpose"(%r) {perms = array<i32: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>\n'
    '  %n = "tosa.abs"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n'
    "  %1 = func.call @fused_relu_1(%t)",
).replace("func.return %2, %0", "func.return %2, %n")
"""GROUPS with ops outside the groups, as fusion leaves some (gpt2's heads split after
its groups): two sets of them; `outside_groups` computes it."""

Compile = Callable[..., CompiledModel]


@pytest.fixture
def compile_mlir(tmp_path: Path) -> Compile:
    """``compile_mlir(text, function, weights)``: the loaded library of @function in text."""

    def compile_(text: str, function: str, weights: Sequence[np.ndarray] = ()) -> CompiledModel:
        program = program_from_mlir(text, function=function, weights=weights)
        library = tmp_path / f"{function}.so"
        build(program, library)
        return CompiledModel.load(library)

    return compile_


def dense_relu_weights() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [
        rng.standard_normal((1, 3, 4)).astype(np.float32),
        rng.standard_normal((1, 1, 4)).astype(np.float32),
    ]


def dense_relu(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.maximum(x @ w[0] + b[0], 0)


def groups(x: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
    return [np.maximum(x + w, 0) + x, x + w]


def outside_groups(x: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
    return [np.maximum((x + w).reshape(3, 2).T, 0) + x, np.abs(x)]


@pytest.fixture
def tosa() -> SimpleNamespace:
    """The programs above, the weights of DENSE_RELU, and what it computes in numpy."""
    return SimpleNamespace(
        DENSE_RELU=DENSE_RELU,
        MANY_RESULTS=MANY_RESULTS,
        GROUPS=GROUPS,
        groups=groups,
        OUTSIDE_GROUPS=OUTSIDE_GROUPS,
        outside_groups=outside_groups,
        dense_relu_weights=dense_relu_weights,
        dense_relu=dense_relu,
    )


def _known_conv(pixels: int, channels: int, filters: int, dilation: int = 1) -> ModuleOp:
    """A Relay module of one 3x3 conv, dilated by `dilation` and padded as
    much, of `channels` NCHW channels of `pixels` x `pixels` by `filters`
    known random filters."""
    weight = np.random.default_rng(0).standard_normal((filters, channels, 3, 3), dtype=np.float32)
    known = '"0x' + weight.astype("<f4").tobytes().hex().upper() + '"'
    x = f"tensor<1x{channels}x{pixels}x{pixels}xf32>"
    w = f"tensor<{filters}x{channels}x3x3xf32>"
    out = f"tensor<1x{filters}x{pixels}x{pixels}xf32>"
    text = f"""builtin.module {{
  func.func @main(%x: {x}) -> {out} {{
    %w = relay.constant dense<{known}> : {w}
    %r = relay.nn.conv2d(%x, %w) {{channels = {filters} : i32, kernel_size = array<i32: 3, 3>,
      dilation = array<i32: {dilation}, {dilation}>,
      padding = array<i32: {dilation}, {dilation}, {dilation}, {dilation}>}} : ({x}, {w}) -> {out}
    func.return %r : {out}
  }}
}}
"""
    return Parser(relay_context(), text).parse_module()


@pytest.fixture
def known_conv() -> Callable[..., ModuleOp]:
    """``known_conv(pixels, channels, filters, dilation=1)``: a Relay module of
    one 3x3 conv (stride 1, padded by its dilation) by known filters."""
    return _known_conv
