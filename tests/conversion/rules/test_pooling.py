"""Pools (1-D, 2-D, 3-D) lowered, compiled and run against the interpreter."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

RNG = np.random.default_rng(5)


def pool_case(
    operator: str, shape: tuple[int, ...], attrs: str, dtype: str = "float32"
) -> tuple[str, dict[str, np.ndarray]]:
    """``operator(%x, attrs)`` on random data of `shape`."""
    text = f"def @main(%x: Tensor[{shape}, {dtype}]) {{ {operator}(%x, {attrs}) }}"
    return text, {"x": (RNG.standard_normal(shape) * 3).astype(dtype)}


CASES = {
    "max_pool1d": pool_case("nn.max_pool1d", (2, 3, 11), "pool_size=[3]"),
    "max_pool1d_strided_padded": pool_case(
        "nn.max_pool1d", (1, 4, 10), "pool_size=[3], strides=[2], padding=[2, 1]"
    ),
    "max_pool1d_ceil_nwc": pool_case(
        "nn.max_pool1d",
        (2, 9, 3),
        'pool_size=[2], strides=[2], ceil_mode=True, layout="NWC"',
    ),
    "avg_pool1d_padded": pool_case(
        "nn.avg_pool1d", (1, 3, 9), "pool_size=[3], strides=[2], padding=[1]"
    ),
    "avg_pool1d_count_include_pad": pool_case(
        "nn.avg_pool1d",
        (2, 2, 8),
        "pool_size=[4], strides=[3], padding=[2, 1], count_include_pad=True",
    ),
    "avg_pool2d_asymmetric_ceil": pool_case(
        "nn.avg_pool2d",
        (1, 3, 7, 8),
        "pool_size=[3, 2], strides=[2, 3], padding=[1, 0, 0, 1], ceil_mode=True",
    ),
    "max_pool3d": pool_case("nn.max_pool3d", (1, 2, 5, 6, 7), "pool_size=[2, 3, 2]"),
    "max_pool3d_strided_padded": pool_case(
        "nn.max_pool3d",
        (2, 3, 7, 6, 5),
        "pool_size=[3, 2, 3], strides=[2, 2, 1], padding=[1, 0, 1, 1, 1, 0]",
    ),
    "max_pool3d_ceil_ndhwc": pool_case(
        "nn.max_pool3d",
        (1, 5, 5, 5, 3),
        'pool_size=[2, 2, 2], strides=[2, 2, 2], ceil_mode=True, layout="NDHWC"',
    ),
    "avg_pool3d_padded": pool_case(
        "nn.avg_pool3d",
        (1, 2, 6, 5, 7),
        "pool_size=[3, 3, 2], strides=[2, 1, 2], padding=[1, 1, 0]",
    ),
    "avg_pool3d_count_include_pad_ceil": pool_case(
        "nn.avg_pool3d",
        (2, 2, 5, 6, 5),
        "pool_size=[2, 3, 3], strides=[2, 2, 2], padding=[1, 0, 1, 0, 1, 1],"
        " count_include_pad=True, ceil_mode=True",
    ),
    "max_pool2d_float16": pool_case(
        "nn.max_pool2d", (1, 3, 7, 7), "pool_size=[3, 3], strides=[2, 2], padding=[1, 1]", "float16"
    ),
    "avg_pool3d_float16": pool_case(
        "nn.avg_pool3d", (1, 2, 4, 5, 6), "pool_size=[2, 2, 3], padding=[1, 1, 1]", "float16"
    ),
    # Padded float maxima: the outputs whose windows lie inside pooled from
    # the data unpadded, the bands along the edges from padded slices.
    "max_pool2d_padded_bands": pool_case(
        "nn.max_pool2d", (1, 3, 10, 9), "pool_size=[3, 3], strides=[2, 2], padding=[1, 1]"
    ),
    "max_pool2d_padded_every_edge": pool_case(
        "nn.max_pool2d",
        (2, 2, 8, 7),
        "pool_size=[3, 2], strides=[1, 2], padding=[2, 1, 1, 1]",
    ),
    "max_pool2d_padded_ceil_nhwc": pool_case(
        "nn.max_pool2d",
        (1, 9, 8, 3),
        'pool_size=[3, 3], strides=[2, 2], padding=[1, 1], ceil_mode=True, layout="NHWC"',
    ),
    # windows that all reach past the data: no inside outputs, one padded pool
    "max_pool2d_padded_no_inside": pool_case(
        "nn.max_pool2d", (1, 2, 2, 2), "pool_size=[3, 3], padding=[1, 1]"
    ),
    # TOSA's pools have no dilation: the taps of the window, combined.
    "max_pool2d_dilated": pool_case(
        "nn.max_pool2d",
        (1, 2, 9, 8),
        "pool_size=[3, 2], strides=[2, 1], dilation=[2, 3], padding=[1, 2, 2, 0]",
    ),
    "avg_pool2d_dilated_ceil": pool_case(
        "nn.avg_pool2d",
        (2, 3, 8, 7),
        "pool_size=[2, 3], strides=[2, 2], dilation=[3, 2], padding=[1, 1], ceil_mode=True",
    ),
    "avg_pool1d_dilated_count_include_pad": pool_case(
        "nn.avg_pool1d",
        (1, 2, 11),
        "pool_size=[3], strides=[2], dilation=[2], padding=[2, 1], count_include_pad=True",
    ),
    "max_pool3d_dilated": pool_case(
        "nn.max_pool3d",
        (1, 2, 6, 5, 7),
        "pool_size=[2, 2, 2], dilation=[2, 1, 3], padding=[1, 0, 1]",
    ),
}

# A NaN on an edge, in a band's window and in an inside one: every window
# that holds it gives NaN, as the interpreter's maximum does.
CASES["max_pool2d_padded_bands"][1]["x"][0, 1, 0, 0] = np.nan
CASES["max_pool2d_padded_bands"][1]["x"][0, 2, 5, 4] = np.nan


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)


def test_padded_max_pool_in_bands(lowered_ops: Callable[[str], list[str]]) -> None:
    """A 3x3 pool of 10x9 data padded by one, to 5x5: the 4x3 outputs whose windows
    lie inside, then the left and right columns and the top row, each a pool
    of its own inserted into the result, which is made first (no nested
    concatenations); no pass pads the whole data."""
    names = lowered_ops(CASES["max_pool2d_padded_bands"][0])
    assert names.count("tosa.max_pool2d") == 4
    assert names.count("tensor.insert_slice") == 4
    assert names.index("tensor.empty") < names.index("tosa.max_pool2d")
    assert "tosa.concat" not in names
    assert "tosa.pad" not in names


def test_max_pool_without_inside_outputs_is_one_pool(
    lowered_ops: Callable[[str], list[str]],
) -> None:
    names = lowered_ops(CASES["max_pool2d_padded_no_inside"][0])
    assert names.count("tosa.max_pool2d") == 1
    assert "tosa.concat" not in names
