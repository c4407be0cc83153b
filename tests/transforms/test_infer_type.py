"""relay-infer-type: the type solver as a pass."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.dialect import Relay
from relay_xdsl.transforms.infer_type import RelayInferTypePass


def _module(text: str):
    ctx = Context()
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.func import Func

    for dialect in (Builtin, Func, Relay):
        ctx.load_dialect(dialect)
    return ctx, Parser(ctx, text).parse_module()


def test_fills_in_incomplete_types():
    ctx, module = _module(
        """
func.func @main(%x: tensor<2x5xf32>) -> !relay.incomplete {
  %w = relay.constant meta[0] : !relay.incomplete
  %d = relay.nn.dense(%x, %w) {units = 3 : i32} : (tensor<2x5xf32>, !relay.incomplete) -> !relay.incomplete
  func.return %d : !relay.incomplete
}"""
    )
    RelayInferTypePass().apply(ctx, module)
    module.verify()
    (constant,) = [op for op in module.walk() if isinstance(op, relay.ConstantOp)]
    assert isinstance(constant.result.type, TensorType)
    assert constant.result.type.get_shape() == (3, 5)


def test_contradiction_fails_the_pass():
    ctx, module = _module(
        """
func.func @main(%x: tensor<2x5xf32>, %w: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %d = relay.nn.dense(%x, %w) {units = 3 : i32} : (tensor<2x5xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  func.return %d : tensor<2x3xf32>
}"""
    )
    with pytest.raises(
        PassFailedException, match="the data has 5 input features but the weight expects 4"
    ):
        RelayInferTypePass().apply(ctx, module)


def test_unchecked_let_is_checked_here():
    # The importer keeps a declared type TVM's parser does not check
    # (`let %b: bool = ();`); the pass rejects it where the text says so.
    from relay_xdsl.importers.relay_text import parse_relay
    from relay_xdsl.transforms.diagnostics import PassFailedAtError

    module = parse_relay("let %b : bool = (); %b", "let.relay")
    (let,) = [op for op in module.walk() if isinstance(op, relay.LetOp)]
    assert let.unchecked is not None
    with pytest.raises(PassFailedAtError) as error:
        RelayInferTypePass().apply(Context(), module)
    assert str(error.value) == (
        "let.relay:1:5: error: relay-infer-type: %b is declared as bool but bound to a ()"
    )


def test_unchecked_let_whose_value_fits_passes():
    ctx, module = _module(
        """
func.func @main(%x: !relay.incomplete) -> tensor<2xf32> {
  %y = relay.let unchecked %x : !relay.incomplete to tensor<2xf32>
  func.return %y : tensor<2xf32>
}"""
    )
    RelayInferTypePass().apply(ctx, module)
    module.verify()
    (main,) = module.ops
    assert main.function_type.inputs.data[0] == TensorType(
        relay.dtypes.element_type("float32"), [2]
    )


MATCH = """
relay.type_def "List" ["A"] {{Cons(!relay.type_var<"A">, !relay.adt<"List", [!relay.type_var<"A">]>), Nil}}
func.func @head(%xs: !relay.adt<"List", [tensor<f32>]>, %zero: tensor<f32>) -> tensor<f32> {{
  %h = relay.match {partial}%xs : !relay.adt<"List", [tensor<f32>]> -> tensor<f32> {{
    case Cons(%x : tensor<f32>, _) {{
      relay.match_yield %x : tensor<f32>
    }}
  }}
  func.return %h : tensor<f32>
}}"""


def test_a_complete_match_that_misses_a_case_fails_the_pass():
    ctx, module = _module(MATCH.format(partial=""))
    with pytest.raises(
        PassFailedException, match="match expression does not handle the following cases: Nil"
    ):
        RelayInferTypePass().apply(ctx, module)
    ctx, module = _module(MATCH.format(partial="partial "))
    RelayInferTypePass().apply(ctx, module)
