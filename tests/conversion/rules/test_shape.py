"""reshape_like, vm.reshape_tensor, shape_of, vm.shape_of, stack and
layout_transform lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(12)
DATA = RNG.standard_normal((2, 3, 4)).astype(np.float32)
IMAGE = RNG.standard_normal((1, 6, 3, 5)).astype(np.float32)

CASES = {
    "reshape_like": (
        (
            "def @main(%x: Tensor[(2, 3, 4), float32], %y: Tensor[(6, 4), int8]) {"
            " reshape_like(%x, %y) }"
        ),
        {"x": DATA, "y": np.zeros((6, 4), np.int8)},
    ),
    "reshape_like_part": (
        (
            "def @main(%x: Tensor[(2, 3, 4), float32], %y: Tensor[(5, 6, 7), float32]) {"
            " reshape_like(%x, %y, lhs_begin=0, lhs_end=2, rhs_begin=1, rhs_end=2) }"
        ),
        {"x": DATA, "y": np.zeros((5, 6, 7), np.float32)},
    ),
    "reshape_tensor": (
        """
        func.func @main(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
          %s = relay.constant dense<[4, 6]> : tensor<2xi64>
          %r = relay.vm.reshape_tensor(%x, %s) {newshape = array<i64: 4, 6>}
            : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
          func.return %r : tensor<4x6xf32>
        }
        """,
        {"x": DATA},
    ),
    "shape_of": (
        'def @main(%x: Tensor[(2, 3, 4), float32]) { add(shape_of(%x, dtype="int32"), 1) }',
        {"x": DATA},
    ),
    "vm_shape_of": (
        """
        func.func @main(%x: tensor<2x3x4xf32>) -> tensor<3xi64> {
          %r = relay.vm.shape_of(%x) {dtype = "int64"} : (tensor<2x3x4xf32>) -> tensor<3xi64>
          func.return %r : tensor<3xi64>
        }
        """,
        {"x": DATA},
    ),
    "stack_middle": (
        (
            "def @main(%x: Tensor[(2, 3, 4), float32], %y: Tensor[(2, 3, 4), float32]) {"
            " stack((%x, %y, %x), axis=1) }"
        ),
        {"x": DATA, "y": -DATA},
    ),
    "stack_negative_axis": (
        (
            "def @main(%x: Tensor[(2, 3, 4), int32], %y: Tensor[(2, 3, 4), int32]) {"
            " stack((%x, %y), axis=-1) }"
        ),
        {"x": np.arange(24, dtype=np.int32).reshape(2, 3, 4), "y": np.ones((2, 3, 4), np.int32)},
    ),
}
LAYOUTS = [
    ("nchw_to_nhwc", "NCHW", "NHWC", IMAGE),
    ("nchw_to_nchw3c", "NCHW", "NCHW3c", IMAGE),
    ("nchw_to_nchw4c_padded", "NCHW", "NCHW4c", IMAGE),
    ("nchw2c_to_nhwc", "NCHW2c", "NHWC", IMAGE.reshape(1, 3, 2, 3, 5).transpose(0, 1, 3, 4, 2)),
]
for name, src, dst, data in LAYOUTS:
    shape = ", ".join(str(n) for n in data.shape)
    CASES[f"layout_transform_{name}"] = (
        (
            f"def @main(%x: Tensor[({shape}), float32]) {{"
            f' layout_transform(%x, src_layout="{src}", dst_layout="{dst}") }}'
        ),
        {"x": np.ascontiguousarray(data)},
    )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
