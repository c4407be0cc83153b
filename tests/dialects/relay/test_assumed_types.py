"""Assumed types of constants that inference leaves unknown (TVM ONNX-imported texts)."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.assumed_types import assume_constant_types
from relay_xdsl.importers.relay_text import parse_relay


def _constant_shapes(text: str) -> dict[int, tuple[int, ...]]:
    module = parse_relay('#[version = "0.0.5"]\n' + text)
    assume_constant_types(module)
    shapes = {}
    for op in module.walk():
        if isinstance(op, relay.ConstantOp) and op.meta_index is not None:
            assert isinstance(op.result.type, TensorType)
            shapes[op.meta_index.value.data] = tuple(op.result.type.get_shape())
    return shapes


def test_biases_are_per_channel_and_types_follow():
    # mnist as TVM 0.19's ONNX frontend prints it: TVM types neither bias.
    shapes = _constant_shapes(
        "def @main(%x: Tensor[(1, 1, 8, 8), float32]) -> Tensor[(1, 10), float32] {\n"
        "  %0 = nn.conv2d(%x, meta[relay.Constant][0], channels=4, kernel_size=[3, 3]);\n"
        "  %1 = add(%0, meta[relay.Constant][1]);\n"
        "  %2 = reshape(%1, newshape=[1, 144]);\n"
        "  %3 = nn.dense(%2, meta[relay.Constant][2], units=None);\n"
        "  add(%3, meta[relay.Constant][3])\n}\n"
    )
    assert shapes == {0: (4, 1, 3, 3), 1: (4, 1, 1), 2: (10, 144), 3: (10,)}


def test_grouped_convolution_weight():
    shapes = _constant_shapes(
        "def @main(%x: Tensor[(1, 8, 6, 6), float16]) {\n"
        "  %0 = nn.conv2d(%x, meta[relay.Constant][0], groups=8, channels=8, kernel_size=[3, 3]);\n"
        "  nn.conv2d(%0, meta[relay.Constant][1], groups=2, channels=4, kernel_size=[1, 1])\n}\n"
    )
    assert shapes == {0: (8, 1, 3, 3), 1: (4, 4, 1, 1)}


def test_typed_constants_are_left_alone():
    shapes = _constant_shapes(
        "def @main(%x: Tensor[(2, 3), float32]) {\n"
        "  nn.dense(%x, meta[relay.Constant][0], units=5)\n}\n"
    )
    assert shapes == {0: (5, 3)}
