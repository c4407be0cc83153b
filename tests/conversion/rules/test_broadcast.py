"""broadcast_to, full, full_like and where lowered, compiled and run against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, f32

from relay_xdsl.conversion.rules.broadcast import compact
from relay_xdsl.conversion.values import Tensor

RNG = np.random.default_rng(8)


def random(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


CONDITION = random(3, 4)
CONDITION[CONDITION < 0] = 0

CASES = {
    "broadcast_to": (
        "def @main(%x: Tensor[(3, 1), float32]) { broadcast_to(%x, shape=[2, 3, 4]) }",
        {"x": random(3, 1)},
    ),
    "broadcast_to_like_nhwc": (
        (
            "def @main(%x: Tensor[(1, 3, 4, 4), float32], %w: Tensor[(1, 3, 1, 1), float32],"
            " %y: Tensor[(2, 1, 4, 4), float32]) {"
            " broadcast_to_like(nn.conv2d(%x, %w), %y) }"
        ),
        {"x": random(1, 3, 4, 4), "w": random(1, 3, 1, 1), "y": random(2, 1, 4, 4)},
    ),
    "full_like_at_run_time": (
        "def @main(%x: Tensor[(2, 3), float32], %v: Tensor[(), float32]) { full_like(%x, %v) }",
        {"x": random(2, 3), "v": np.array(2.5, np.float32)},
    ),
    "full_at_run_time": (
        'def @main(%v: Tensor[(), int32]) { full(%v, shape=[2, 3], dtype="float32") }',
        {"v": np.array(7, np.int32)},
    ),
    # vit's attention mask: a full_like of a known scalar, selected by a boolean.
    "where_known_uniform": (
        (
            "def @main(%c: Tensor[(2, 3, 1), bool], %y: Tensor[(2, 3, 4), float32]) {"
            " where(%c, full_like(%y, 0f), %y) }"
        ),
        {"c": RNG.standard_normal((2, 3, 1)) > 0, "y": random(2, 3, 4)},
    ),
    "where_float_condition": (
        (
            "def @main(%c: Tensor[(3, 4), float32], %x: Tensor[(4,), float32],"
            " %y: Tensor[(3, 1), float32]) { where(%c, %x, %y) }"
        ),
        {"c": CONDITION, "x": random(4), "y": random(3, 1)},
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)


def test_compact_keeps_one_element_of_a_uniform_array():
    uniform = Tensor(TensorType(f32, [2, 3]), array=np.full((2, 3), 4.0, np.float32))
    assert compact(uniform).shape == (1, 1)
    varied = Tensor(TensorType(f32, [2]), array=np.array([1.0, 2.0], np.float32))
    assert compact(varied) is varied
