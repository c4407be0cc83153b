"""A lowered module split into units: the model's function, and its groups by digest."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler.build import generic_text
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.program import program_from_mlir
from relay_xdsl.compiler.runtime import CompiledModel
from relay_xdsl.compiler.units import Unit, split_units

Compile = Callable[..., CompiledModel]


def units_of(text: str, parts: int) -> list[Unit]:
    program = program_from_mlir(text, function="model")
    return split_units(program.module, "model", parts)


def test_the_model_comes_first_on_buffers_declaring_the_groups_it_calls(tosa: SimpleNamespace):
    model, groups = units_of(tosa.GROUPS, 1)
    assert model.defines == ("model",)
    assert len(re.findall(r'sym_name = "fused_\w+", function_type', model.text)) == 2
    assert "tensor<" not in model.text
    assert "bufferization" not in model.text
    assert model.text.count("func.call") == 3
    assert model.calls_only and not groups.calls_only  # clang -O1 for the calls alone
    assert '"tosa.add"' not in model.text
    called = set(re.findall(r"callee = @(\w+)", model.text))
    assert called == set(groups.defines)


def test_ops_outside_groups_become_groups_of_their_own(tosa: SimpleNamespace):
    model, groups = units_of(tosa.OUTSIDE_GROUPS, 1)
    assert "tensor<" not in model.text  # the model's function only calls
    assert model.text.count("func.call") == 5
    outlined = [name for name in groups.defines if not name.startswith(("fused_add", "fused_relu"))]
    assert [re.sub("_[0-9a-f]{16}$", "", name) for name in sorted(outlined)] == [
        "fused_abs",
        "fused_reshape_transpose",
    ]
    assert groups.text.count('"tosa.const_shape"') == 1


def test_a_model_whose_ops_need_a_call_in_between_keeps_them(tosa: SimpleNamespace):
    # the add needs the clamp's call, which needs the abs: no one call fits
    cycle = tosa.GROUPS.replace(
        "%1 = func.call @fused_relu_1(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>",
        '%n = "tosa.abs"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n'
        "  %c = func.call @fused_relu_1(%n) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        '  %1 = "tosa.add"(%n, %c) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>',
    )
    model, _ = units_of(cycle, 1)
    assert '"tosa.abs"' in model.text and '"tosa.add"' in model.text
    assert model.text.count('bufferization.access = "read"') == 3  # on tensors still
    assert not model.calls_only


def test_a_group_is_named_by_its_content_and_never_writes_its_arguments(tosa: SimpleNamespace):
    _, groups = units_of(tosa.GROUPS, 1)
    (add,) = [name for name in groups.defines if name.startswith("fused_add_")]
    assert re.fullmatch(r"fused_add_[0-9a-f]{16}", add)  # fused_add_0 and _7 are one group
    assert len(groups.defines) == 2
    assert 'sym_visibility = "private"' not in groups.text
    assert groups.text.count("bufferization.writable = false") == 3
    # the same group in another model, under another name, is the same text
    renamed = tosa.GROUPS.replace("fused_add_0", "fused_add_41").replace(
        "fused_add_7", "fused_add_41"
    )
    assert units_of(renamed.replace("@fused_add_41(%a: ", "@fused_add_9(%a: ", 1), 1)[1] == groups


def test_the_groups_spread_over_the_parts_by_digest(tosa: SimpleNamespace):
    _, *parts = units_of(tosa.GROUPS, 64)
    assert sorted(name for unit in parts for name in unit.defines) == sorted(
        units_of(tosa.GROUPS, 1)[1].defines
    )
    assert 1 <= len(parts) <= 2


def test_a_module_without_groups_is_one_unit(tosa: SimpleNamespace):
    program = program_from_mlir(tosa.MANY_RESULTS, function="many")
    (unit,) = split_units(program.module, "many", 4)
    assert unit.defines == ("many",)
    assert unit.text == generic_text(program).replace(
        ", arg_attrs = [{bufferization.writable = false}, {bufferization.writable = false}]", ""
    )


def test_a_group_calling_another_keeps_the_module_whole(tosa: SimpleNamespace):
    nested = tosa.GROUPS.replace(
        '%0 = "tosa.clamp"(%a)',
        "%c = func.call @fused_add_0(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> "
        'tensor<2x3xf32>\n  %0 = "tosa.clamp"(%c)',
    )
    (unit,) = units_of(nested, 4)
    assert unit.defines == ("fused_add_0", "fused_add_7", "fused_relu_1", "model")


def test_the_model_function_must_exist(tosa: SimpleNamespace):
    program = program_from_mlir(tosa.GROUPS, function="model")
    with pytest.raises(CompileError, match="the module has no function @other"):
        split_units(program.module, "other", 1)


RESHAPES = """
func.func private @fused_add_0(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tosa.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func private @fused_reshape_1(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = "tosa.const_shape"() {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = "tosa.reshape"(%a, %s) : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
func.func private @fused_reshape_2(%a: tensor<2x3xf32>) -> tensor<1x6xf32> {
  %s = "tosa.const_shape"() {values = dense<[1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = "tosa.reshape"(%a, %s) : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<1x6xf32>
  func.return %0 : tensor<1x6xf32>
}
func.func private @fused_negate_3(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = "tosa.negate"(%a, %z, %z) : (tensor<3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
func.func @model(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<1x6xf32>)
    attributes {llvm.emit_c_interface} {
  %0 = func.call @fused_add_0(%x, %w) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = func.call @fused_reshape_1(%0) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = func.call @fused_negate_3(%1) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %3 = func.call @fused_reshape_2(%0) : (tensor<2x3xf32>) -> tensor<1x6xf32>
  func.return %2, %3 : tensor<3x2xf32>, tensor<1x6xf32>
}
"""
"""A group that only reshapes between two others (a view), and one whose reshape the
model returns (a call: the library's results are buffers of their own)."""


def test_a_group_that_only_reshapes_is_a_view():
    model, _ = units_of(RESHAPES, 1)
    cast = re.search(
        r'"memref.reinterpret_cast"\(.*\) <\{(.*)\}> : .* -> memref<3x2xf32>', model.text
    )
    assert cast is not None, model.text
    assert "static_strides = array<i64: 2, 1>" in cast[1]
    called = re.findall(r"callee = @(\w+)", model.text)
    assert sorted(re.sub("_[0-9a-f]{16}$", "", name) for name in called) == [
        "fused_add",
        "fused_negate",
        "fused_reshape",  # the returned one
    ]
    assert len(re.findall(r'sym_name = "fused_reshape_\w+", function_type', model.text)) == 1


def test_a_viewed_reshape_computes_the_same(compile_mlir: Compile):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    w = np.full((2, 3), 0.5, np.float32)
    negated, flat = compile_mlir(RESHAPES, "model")(x, w)
    np.testing.assert_array_equal(negated, -(x + w).reshape(3, 2))
    np.testing.assert_array_equal(flat, (x + w).reshape(1, 6))


def _model_ops(text: str) -> list[str]:
    """The model's function's ops, each as its name and its operands (``func.call(%1)``)."""
    body = text[text.index('sym_name = "model"') :]
    return [
        f"{call or name}({operands})"
        for name, operands, call in re.findall(
            r'"([\w.]+)"\(([^)]*)\)(?: <\{callee = @(\w+?)_[0-9a-f]{16})?', body
        )
    ]


def test_the_model_frees_each_buffer_after_its_last_use(tosa: SimpleNamespace):
    model, _ = units_of(tosa.GROUPS, 1)
    assert model.frees_buffers
    # %x and %w are %0 and %1; the adds' results are returned, and the clamp's %3 is
    # freed once the second add has read it
    assert _model_ops(model.text) == [
        "fused_add(%0, %1)",
        "fused_relu(%2)",
        "fused_add(%3, %0)",
        "memref.dealloc(%3)",
        "func.return(%4, %2)",
    ]


def test_a_viewed_buffer_is_freed_after_its_views_last_use():
    model, _ = units_of(RESHAPES, 1)
    assert _model_ops(model.text) == [
        "fused_add(%0, %1)",
        "memref.reinterpret_cast(%2)",
        "fused_negate(%3)",
        "fused_reshape(%2)",
        "memref.dealloc(%2)",
        "func.return(%4, %5)",
    ]


TWICE = """
func.func private @fused_add_0(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "tosa.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0, %0 : tensor<2x3xf32>, tensor<2x3xf32>
}
func.func private @fused_mul_1(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = "tosa.mul"(%a, %b, %s) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func @model(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> tensor<2x3xf32>
    attributes {llvm.emit_c_interface} {
  %0:2 = func.call @fused_add_0(%x, %w)
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %1 = func.call @fused_mul_1(%0#0, %0#1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}
"""
"""A group that returns one tensor twice: its two results are one buffer."""


def test_a_buffer_that_one_call_returns_twice_is_freed_once(compile_mlir: Compile):
    model, _ = units_of(TWICE, 1)
    assert model.frees_buffers
    ops = _model_ops(model.text)
    # the first result freed; the second where its pointer differs from the first's
    assert ops[ops.index("memref.dealloc(%2)") :] == [
        "memref.dealloc(%2)",
        "arith.cmpi(%6, %5)",
        "scf.if(%7)",
        "memref.dealloc(%3)",
        "scf.yield()",
        "func.return(%4)",
    ]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    w = np.full((2, 3), 0.5, np.float32)
    compiled = compile_mlir(TWICE, "model")
    for _ in range(3):  # freed once, not twice (glibc would abort)
        (squared,) = compiled(x, w)
        np.testing.assert_array_equal(squared, (x + w) * (x + w))
