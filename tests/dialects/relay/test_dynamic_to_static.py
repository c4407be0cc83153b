"""relay-dynamic-to-static's rewrite: each dynamic operator with constant shape
arguments becomes its static operator, computing the same values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay import operators
from relay_xdsl.dialects.relay.dynamic_to_static import (
    STATIC_FORMS,
    dynamic_to_static,
    with_static_shapes,
)
from relay_xdsl.interpreter import run
from relay_xdsl.interpreter.random_values import random_inputs
from relay_xdsl.tools.mlir_text import relay_context

OPS_MLIR = Path(__file__).resolve().parents[2] / "filecheck" / "dialect" / "ops.mlir"
DYNAMIC = [row.name for row in operators.dynamic.DYNAMIC]


def _parse(text: str) -> ModuleOp:
    return Parser(relay_context(), text).parse_module()


def _example(name: str) -> ModuleOp:
    """The function @relay.<name> of the dialect's examples, alone in a module."""
    module = _parse(OPS_MLIR.read_text())
    (function,) = [
        op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == f"relay.{name}"
    ]
    return ModuleOp([function.clone()])


def test_every_dynamic_operator_but_sparse_to_dense_has_a_static_form():
    assert sorted(STATIC_FORMS) == sorted(set(DYNAMIC) - {"dyn.sparse_to_dense"})
    for form in STATIC_FORMS.values():
        assert form.static in relay.OPERATORS


@pytest.mark.parametrize("name", sorted(STATIC_FORMS))
def test_the_static_call_computes_what_the_dynamic_one_does(name: str):
    module = _example(name)
    (function,) = module.ops
    assert isinstance(function, FuncOp)
    function_name = function.sym_name.data
    names = [f"arg{i}" for i in range(len(function.args))]
    for arg, arg_name in zip(function.args, names):
        arg.name_hint = arg_name
    inputs = random_inputs(zip(names, [a.type for a in function.args]), seed=0)
    inputs = {k: v % 3 if v.dtype.kind in "iu" else v for k, v in inputs.items()}
    before = run(module, inputs, function_name)
    assert dynamic_to_static(module)
    module.verify()
    assert not [op for op in module.walk() if op.name.startswith("relay.dyn.")]
    after = run(module, inputs, function_name)
    for got, want in zip(after, before, strict=True):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    # The result types are the static ones.
    assert "?" not in str(function.function_type)


SHAPE_FROM = """
func.func @main(%x: tensor<2x3xf32>) -> tensor<?xf32> {{
  %shape = relay.constant {shape} : tensor<1xi64>
  %r = relay.dyn.reshape(%x, %shape) {{newshape = array<i32>}} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}}
"""


@pytest.mark.parametrize(
    "shape",
    [
        "meta[0]",  # a constant without a value: its shape is unknown
        "dense<5>",  # a value reshape rejects: the call fails when it runs, as in TVM
    ],
)
def test_a_shape_without_a_usable_value_leaves_the_call_dynamic(shape: str):
    module = _parse(SHAPE_FROM.format(shape=shape))
    assert with_static_shapes(module) is module
    assert not dynamic_to_static(module)
    assert [op.name for op in module.walk() if op.name.startswith("relay.dyn.")]


def test_with_static_shapes_rewrites_a_copy():
    module = _parse(SHAPE_FROM.format(shape="dense<6>"))
    printed = str(module)
    static = with_static_shapes(module)
    assert str(module) == printed
    assert "relay.reshape(%x) {newshape = array<i32: 6>}" in str(static)
    assert "-> tensor<6xf32>" in str(static)
