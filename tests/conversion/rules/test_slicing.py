"""strided_slice, relax.strided_slice and split lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

DATA = np.random.default_rng(5).standard_normal((4, 7, 6)).astype(np.float32)


@pytest.mark.parametrize(
    "attributes",
    [
        "begin=[1, 2, 0], end=[3, 7, 6], strides=[1, 1, 1]",
        "begin=[0, 1, 5], end=[4, 7, 0], strides=[2, 3, -2]",  # strides and a reversal
        "begin=[-3], end=[100], strides=[2], axes=[1]",  # only axis 1; padded for the stride
        "begin=[3, 6], end=[-5, -100], strides=[-1, -3]",
        'begin=[1, 2], end=[2, -1], strides=[1], slice_mode="size"',
    ],
)
def test_strided_slice(lowered_run, attributes: str):
    lowered_run(
        f"def @main(%x: Tensor[(4, 7, 6), float32]) {{ strided_slice(%x, {attributes}) }}",
        x=DATA,
    )


def test_strided_slice_of_an_nhwc_activation(lowered_run):
    """The slice of a tensor held in NHWC is cut there, its bounds permuted."""
    lowered_run(
        "def @main(%x: Tensor[(1, 3, 6, 6), float32], %w: Tensor[(4, 3, 3, 3), float32]) {"
        " strided_slice(nn.conv2d(%x, %w, padding=[1, 1]),"
        " begin=[0, 1, 1, 0], end=[1, 4, 6, 5], strides=[1, 2, 2, 1]) }",
        x=np.random.default_rng(6).standard_normal((1, 3, 6, 6)).astype(np.float32),
        w=np.random.default_rng(7).standard_normal((4, 3, 3, 3)).astype(np.float32),
    )


def test_relax_strided_slice(lowered_run):
    lowered_run(
        """
        func.func @main(%x: tensor<4x7x6xf32>) -> tensor<4x3x2xf32> {
          %r = relay.relax.strided_slice(%x) {axes = array<i32: 2, 1>,
            begin = array<i32: 4, 1>, end = array<i32: -100, 7>, strides = array<i32: -2, 2>}
            : (tensor<4x7x6xf32>) -> tensor<4x3x3xf32>
          func.return %r : tensor<4x3x3xf32>
        }
        """.replace("4x3x2", "4x3x3"),
        x=DATA,
    )


@pytest.mark.parametrize(
    "attributes", ["indices_or_sections=3, axis=2", "indices_or_sections=[2, 5], axis=1"]
)
def test_split(lowered_run, attributes: str):
    lowered_run(f"def @main(%x: Tensor[(4, 7, 6), float32]) {{ split(%x, {attributes}) }}", x=DATA)
