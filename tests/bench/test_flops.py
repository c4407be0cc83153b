"""bench.flops against hand counts: 2 x the multiply-accumulates of each kind of op counted."""

from __future__ import annotations

import pytest

from bench.flops import flops
from relay_xdsl.importers.relay_text import parse_relay


def _main(params: str, body: str) -> str:
    return f'#[version = "0.0.5"]\ndef @main({params}) {{\n  {body}\n}}\n'


@pytest.mark.parametrize(
    ("params", "body", "expected"),
    [
        # 1x4x8x8 outputs, each 3 channels x 3x3 products.
        (
            "%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]",
            "nn.conv2d(%x, %w, padding=[1, 1, 1, 1])",
            2 * (4 * 8 * 8) * (3 * 3 * 3),
        ),
        # Strided, no padding: 1x4x3x3 outputs.
        (
            "%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]",
            "nn.conv2d(%x, %w, strides=[2, 2])",
            2 * (4 * 3 * 3) * (3 * 3 * 3),
        ),
        # Depthwise: each output sums one channel's 3x3 window.
        (
            "%x: Tensor[(1, 6, 8, 8), float32], %w: Tensor[(6, 1, 3, 3), float32]",
            "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=6)",
            2 * (6 * 8 * 8) * (3 * 3),
        ),
        # NHWC data with an HWIO kernel: the same count as NCHW/OIHW.
        (
            "%x: Tensor[(1, 8, 8, 3), float32], %w: Tensor[(3, 3, 3, 4), float32]",
            'nn.conv2d(%x, %w, padding=[1, 1, 1, 1], data_layout="NHWC", kernel_layout="HWIO")',
            2 * (4 * 8 * 8) * (3 * 3 * 3),
        ),
        # Transposed: each of 1x2x4x4 inputs meets 3 output channels x 2x2 weights.
        (
            "%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 3, 2, 2), float32]",
            "nn.conv2d_transpose(%x, %w, strides=[2, 2])",
            2 * (2 * 4 * 4) * (3 * 2 * 2),
        ),
        (
            "%x: Tensor[(2, 5), float32], %w: Tensor[(3, 5), float32]",
            "nn.dense(%x, %w, units=3)",
            2 * (2 * 3) * 5,
        ),
        (
            "%a: Tensor[(4, 2, 5), float32], %b: Tensor[(4, 3, 5), float32]",
            "nn.batch_matmul(%a, %b, transpose_b=True)",
            2 * (4 * 2 * 3) * 5,
        ),
        (
            "%a: Tensor[(5, 2), float32], %b: Tensor[(5, 3), float32]",
            "nn.matmul(%a, %b, units=3, transpose_a=True)",
            2 * (2 * 3) * 5,
        ),
        # Element-wise work is not counted.
        ("%x: Tensor[(2, 5), float32]", "nn.relu(add(%x, %x))", 0),
    ],
)
def test_flops_of_one_op(params: str, body: str, expected: int):
    assert flops(parse_relay(_main(params, body))) == expected


def test_flops_add_up_over_a_model():
    text = _main(
        "%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], "
        "%d: Tensor[(10, 256), float32]",
        "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);\n"
        "  %1 = nn.relu(%0);\n"
        "  %2 = reshape(%1, newshape=[1, 256]);\n"
        "  nn.dense(%2, %d, units=10)",
    )
    assert flops(parse_relay(text)) == 2 * (4 * 8 * 8) * 27 + 2 * 10 * 256
