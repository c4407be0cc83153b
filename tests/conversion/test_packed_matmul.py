"""The packed-panel layout of packed_matmul.py, and the dense rule's use of it."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.parser import Parser

from relay_xdsl.conversion import lower_module
from relay_xdsl.conversion.packed_matmul import PANEL, pack_panels
from relay_xdsl.tools.mlir_text import relay_context

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("columns", [64, 70, 5])
def test_panels_hold_the_columns_in_order_and_zeros_after(columns: int) -> None:
    weight = RNG.standard_normal((9, columns)).astype(np.float32)
    packed = pack_panels(weight)
    panels = -(-columns // PANEL)
    assert packed.shape == (panels, 9, PANEL)
    assert packed.flags.c_contiguous and packed.dtype == np.float32
    for p in range(panels):
        width = min(PANEL, columns - p * PANEL)
        np.testing.assert_array_equal(
            packed[p, :, :width], weight[:, p * PANEL : p * PANEL + width]
        )
        np.testing.assert_array_equal(packed[p, :, width:], 0)


def _lowered(element: str) -> tuple[list[np.ndarray], list[GenericOp]]:
    """The weights and ``linalg.generic`` s of ``x @ w.T`` by a known 70x40 `w`."""
    weight = RNG.standard_normal((70, 40)).astype(element)
    values = np.array2string(weight, separator=", ", threshold=weight.size, floatmode="unique")
    ty = {"float32": "f32", "float16": "f16"}[element]
    text = f"""
    func.func @main(%x: tensor<2x3x40x{ty}>) -> tensor<2x3x70x{ty}> {{
      %w = relay.constant dense<{values}> : tensor<70x40x{ty}>
      %r = relay.nn.dense(%x, %w) : (tensor<2x3x40x{ty}>, tensor<70x40x{ty}>) -> tensor<2x3x70x{ty}>
      func.return %r : tensor<2x3x70x{ty}>
    }}
    """
    program = lower_module(Parser(relay_context(), text).parse_module())
    return program.weights, [op for op in program.module.walk() if isinstance(op, GenericOp)]


def test_dense_by_a_known_float32_weight_reads_it_packed() -> None:
    (packed,), generics = _lowered("float32")
    assert packed.shape == (3, 40, PANEL)
    assert len(generics) == 1


def test_other_element_types_keep_tosa_matmul() -> None:
    (weight,), generics = _lowered("float16")
    assert weight.shape == (1, 40, 70)
    assert generics == []
