"""Calls the importer type-checked are not inferred again, until something changes."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import StringAttr, TensorType, f32
from xdsl.rewriter import Rewriter

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.type_agreement import agrees
from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.relay_text.types import RelayExportError

TEXT = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 8, 8), float32]) -> Tensor[(1, 3, 4, 4), float32] {
  nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2])
}
"""


def _pool(module) -> relay.OperatorOp:
    return next(op for op in module.walk() if isinstance(op, relay.OperatorOp))


def test_an_imported_call_agrees_and_prints_as_read():
    module = parse_relay(TEXT)
    assert agrees(_pool(module))
    assert "nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2])" in print_relay(module)


def test_a_changed_attribute_is_checked_again():
    module = parse_relay(TEXT)
    pool = _pool(module)
    pool.attributes["layout"] = StringAttr("NHWC")
    assert not agrees(pool)
    # NHWC reads the 3×8 of (1, 3, 8, 8) as the window's rows and columns.
    with pytest.raises(RelayExportError, match="claims result type"):
        print_relay(module)


def test_a_changed_result_type_is_checked_again():
    module = parse_relay(TEXT)
    pool = _pool(module)
    Rewriter.replace_value_with_new_type(pool.results[0], TensorType(f32, [1, 3, 8, 8]))
    assert not agrees(_pool(module))
    with pytest.raises(RelayExportError, match="claims result type"):
        print_relay(module)


def test_a_call_built_outside_the_importer_does_not_agree():
    module = parse_relay(TEXT)
    assert not agrees(_pool(module.clone()))


REPEATED = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 2), float32]) -> Tensor[(2, 2), float32] {
  %0 = add(%x, %x) /* ty=Tensor[(2, 2), float32] */;
  add(%0, %0) /* ty=Tensor[(2, 2), float32] */
}
"""


def test_calls_of_one_signature_agree_each_after_a_change_to_one():
    module = parse_relay(REPEATED)
    first, second = (op for op in module.walk() if isinstance(op, relay.OperatorOp))
    assert agrees(first) and agrees(second)
    # The two calls share their record: changing one leaves the other agreeing.
    first.attributes["unrelated"] = StringAttr("x")
    assert not agrees(first)
    assert agrees(second)
