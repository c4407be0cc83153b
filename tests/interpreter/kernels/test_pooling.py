"""The pooling kernels against PyTorch: windows with strides, dilation,
padding (asymmetric too), ceil_mode and count_include_pad, layouts, and
the global and adaptive pools."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

TOLERANCE = 1e-4


def tensor(shape: tuple[int, ...], dtype: str = "float32") -> str:
    return f"Tensor[({', '.join(str(d) for d in shape)}), {dtype}]"


def program(call: str, shape: tuple[int, ...], dtype: str = "float32") -> str:
    return f"def @main(%a: {tensor(shape, dtype)}) {{ {call} }}"


def random(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def t(array: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(array))


def close(actual: np.ndarray, expected: Any) -> None:
    expected = expected.numpy() if hasattr(expected, "numpy") else expected
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=TOLERANCE, atol=TOLERANCE)


def spell(values: list[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


MAX_POOL2D_CASES = [
    # pool_size, strides, dilation, padding, ceil_mode
    ([3, 3], [2, 2], [1, 1], [1, 1], False),
    ([2, 3], [1, 2], [2, 1], [0, 1], False),
    ([3, 3], [2, 2], [1, 1], [1, 1], True),
    ([2, 2], [2, 2], [1, 1], [0, 0], True),
    ([3, 2], [3, 1], [1, 2], [1, 0], True),
]


@pytest.mark.parametrize(("pool", "strides", "dilation", "padding", "ceil"), MAX_POOL2D_CASES)
def test_max_pool2d(
    run: Any,
    pool: list[int],
    strides: list[int],
    dilation: list[int],
    padding: list[int],
    ceil: bool,
) -> None:
    data = random((2, 3, 9, 8), 1)
    call = (
        f"nn.max_pool2d(%a, pool_size={spell(pool)}, strides={spell(strides)}, "
        f"dilation={spell(dilation)}, padding={spell(padding)}, ceil_mode={ceil})"
    )
    expected = F.max_pool2d(t(data), pool, strides, padding, dilation=dilation, ceil_mode=ceil)
    close(run(program(call, data.shape), data), expected)


def test_max_pool2d_asymmetric_padding(run: Any) -> None:
    data = random((1, 2, 7, 6), 1)
    call = "nn.max_pool2d(%a, pool_size=[3, 3], strides=[2, 2], padding=[0, 1, 2, 0])"
    padded = F.pad(t(data), [1, 0, 0, 2], value=-np.inf)
    close(run(program(call, data.shape), data), F.max_pool2d(padded, 3, 2))


def test_max_pool2d_nhwc(run: Any) -> None:
    data = random((1, 3, 6, 7), 1)
    call = 'nn.max_pool2d(%a, pool_size=[2, 3], strides=[2, 2], padding=[1, 1], layout="NHWC")'
    result = run(program(call, (1, 6, 7, 3)), data.transpose(0, 2, 3, 1))
    expected = F.max_pool2d(t(data), (2, 3), 2, 1).permute(0, 2, 3, 1)
    close(result, expected)


def test_max_pool2d_int8(run: Any) -> None:
    data = np.random.default_rng(0).integers(-128, 128, (1, 1, 4, 4), dtype=np.int8)
    call = "nn.max_pool2d(%a, pool_size=[2, 2], strides=[2, 2], padding=[1, 1])"
    result = run(program(call, data.shape, "int8"), data)
    expected = F.max_pool2d(t(data.astype(np.float32)), 2, 2, 1).numpy().astype(np.int8)
    np.testing.assert_array_equal(result, expected)


AVG_POOL2D_CASES = [
    # pool_size, strides, padding, ceil_mode, count_include_pad
    ([3, 3], [2, 2], [1, 1], False, False),
    ([3, 3], [2, 2], [1, 1], False, True),
    ([3, 3], [2, 2], [1, 1], True, True),
    ([3, 3], [2, 2], [1, 1], True, False),
    ([2, 3], [2, 1], [0, 1], True, True),
    ([2, 2], [2, 2], [0, 0], True, False),
]


@pytest.mark.parametrize(("pool", "strides", "padding", "ceil", "include"), AVG_POOL2D_CASES)
def test_avg_pool2d(
    run: Any, pool: list[int], strides: list[int], padding: list[int], ceil: bool, include: bool
) -> None:
    data = random((2, 3, 7, 9), 1)
    call = (
        f"nn.avg_pool2d(%a, pool_size={spell(pool)}, strides={spell(strides)}, "
        f"padding={spell(padding)}, ceil_mode={ceil}, count_include_pad={include})"
    )
    expected = F.avg_pool2d(
        t(data), pool, strides, padding, ceil_mode=ceil, count_include_pad=include
    )
    close(run(program(call, data.shape), data), expected)


def test_ceil_mode_keeps_a_window_inside_the_padding(run: Any) -> None:
    """TVM's ceil mode keeps a last window that starts in the end padding
    (PyTorch drops it): it averages no data, and counts the padding it covers."""
    data = np.arange(1, 6, dtype=np.float32).reshape(1, 1, 5)
    call = "nn.avg_pool1d(%a, pool_size=[2], strides=[2], padding=[1], ceil_mode=True{})"
    included = run(program(call.format(", count_include_pad=True"), data.shape), data)
    close(included, np.array([[[0.5, 2.5, 4.5, 0.0]]], np.float32))
    excluded = run(program(call.format(""), data.shape), data)
    close(excluded, np.array([[[1.0, 2.5, 4.5, 0.0]]], np.float32))


def test_avg_pool2d_dilation(run: Any) -> None:
    """PyTorch has no dilated average pooling: the mean of the dilated
    window's elements inside the data."""
    data = random((1, 1, 6, 6), 1)
    call = "nn.avg_pool2d(%a, pool_size=[2, 2], strides=[1, 1], dilation=[2, 2], padding=[1, 1])"
    result = run(program(call, data.shape), data)
    padded = np.pad(data[0, 0], 1, constant_values=np.nan)
    expected = np.array(
        [[np.nanmean(padded[y : y + 3 : 2, x : x + 3 : 2]) for x in range(6)] for y in range(6)]
    )
    close(result[0, 0], expected.astype(np.float32))


def test_avg_pool2d_asymmetric_padding_counts_only_data(run: Any) -> None:
    data = random((1, 2, 6, 5), 1)
    call = "nn.avg_pool2d(%a, pool_size=[3, 3], strides=[2, 2], padding=[2, 0, 0, 1])"
    padded_sum = F.avg_pool2d(F.pad(t(data), [0, 1, 2, 0]), 3, 2, divisor_override=1)
    count = F.avg_pool2d(F.pad(torch.ones(1, 1, 6, 5), [0, 1, 2, 0]), 3, 2, divisor_override=1)
    close(run(program(call, data.shape), data), padded_sum / count)


def test_avg_pool2d_int32_truncates(run: Any) -> None:
    data = np.array([[[[1, 2], [2, 2]]]], np.int32)
    result = run(program("nn.avg_pool2d(%a, pool_size=[2, 2])", data.shape, "int32"), data)
    np.testing.assert_array_equal(result, np.array([[[[1]]]], np.int32))  # 7 / 4


@pytest.mark.parametrize(("kind", "include"), [("max", False), ("avg", True), ("avg", False)])
def test_pool1d(run: Any, kind: str, include: bool) -> None:
    data = random((2, 3, 11), 1)
    extra = f", count_include_pad={include}" if kind == "avg" else ""
    call = f"nn.{kind}_pool1d(%a, pool_size=[3], strides=[2], padding=[1], ceil_mode=True{extra})"
    if kind == "max":
        expected = F.max_pool1d(t(data), 3, 2, 1, ceil_mode=True)
    else:
        expected = F.avg_pool1d(t(data), 3, 2, 1, ceil_mode=True, count_include_pad=include)
    close(run(program(call, data.shape), data), expected)


def test_max_pool1d_nwc_dilation(run: Any) -> None:
    data = random((1, 2, 10), 1)
    call = 'nn.max_pool1d(%a, pool_size=[3], dilation=[2], padding=[1], layout="NWC")'
    result = run(program(call, (1, 10, 2)), data.transpose(0, 2, 1))
    close(result, F.max_pool1d(t(data), 3, 1, 1, dilation=2).permute(0, 2, 1))


@pytest.mark.parametrize(("kind", "include"), [("max", False), ("avg", True), ("avg", False)])
def test_pool3d(run: Any, kind: str, include: bool) -> None:
    data = random((1, 2, 5, 6, 7), 1)
    extra = f", count_include_pad={include}" if kind == "avg" else ""
    call = f"nn.{kind}_pool3d(%a, pool_size=[2, 3, 3], strides=[2, 2, 1], padding=[1, 1, 1]{extra})"
    if kind == "max":
        expected = F.max_pool3d(t(data), (2, 3, 3), (2, 2, 1), 1)
    else:
        expected = F.avg_pool3d(t(data), (2, 3, 3), (2, 2, 1), 1, count_include_pad=include)
    close(run(program(call, data.shape), data), expected)


def test_avg_pool3d_ndhwc(run: Any) -> None:
    data = random((1, 2, 4, 4, 4), 1)
    call = 'nn.avg_pool3d(%a, pool_size=[2, 2, 2], strides=[2, 2, 2], layout="NDHWC")'
    result = run(program(call, (1, 4, 4, 4, 2)), data.transpose(0, 2, 3, 4, 1))
    close(result, F.avg_pool3d(t(data), 2, 2).permute(0, 2, 3, 4, 1))


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_global_pools(run: Any, layout: str) -> None:
    data = random((2, 3, 5, 4), 1)
    moved = data if layout == "NCHW" else data.transpose(0, 2, 3, 1)
    for kind, reduce in (("avg", torch.mean), ("max", torch.amax)):
        call = f'nn.global_{kind}_pool2d(%a, layout="{layout}")'
        expected = reduce(t(data), dim=(2, 3), keepdim=True)
        if layout == "NHWC":
            expected = expected.permute(0, 2, 3, 1)
        close(run(program(call, moved.shape), moved), expected)


@pytest.mark.parametrize("output_size", [[3, 2], [1, 1], [7, 5], [4]])
def test_adaptive_pools(run: Any, output_size: list[int]) -> None:
    data = random((2, 3, 7, 5), 1)
    size = output_size * 2 if len(output_size) == 1 else output_size
    for kind, reference in (("avg", F.adaptive_avg_pool2d), ("max", F.adaptive_max_pool2d)):
        call = f"nn.adaptive_{kind}_pool2d(%a, output_size={spell(output_size)})"
        close(run(program(call, data.shape), data), reference(t(data), size))


def test_adaptive_avg_pool2d_nhwc_and_empty_output_size(run: Any) -> None:
    data = random((1, 6, 5, 2), 1)
    call = 'nn.adaptive_avg_pool2d(%a, output_size=[4, 3], layout="NHWC")'
    expected = F.adaptive_avg_pool2d(t(data.transpose(0, 3, 1, 2)), (4, 3)).permute(0, 2, 3, 1)
    close(run(program(call, data.shape), data), expected)
    close(run(program("nn.adaptive_max_pool2d(%a)", data.shape), data), data)


def test_pools_in_a_blocked_layout(run: Any) -> None:
    data = random((1, 8, 6, 6), 1)
    blocked = data.reshape(1, 2, 4, 6, 6).transpose(0, 1, 3, 4, 2)
    for call, reference in (
        (
            'nn.max_pool2d(%a, pool_size=[2, 2], strides=[2, 2], layout="NCHW4c")',
            F.max_pool2d(t(data), 2, 2),
        ),
        (
            'nn.adaptive_avg_pool2d(%a, output_size=[4, 3], layout="NCHW4c")',
            F.adaptive_avg_pool2d(t(data), (4, 3)),
        ),
    ):
        expected = reference.numpy()
        n, _, h, w = expected.shape
        close(
            run(program(call, blocked.shape), blocked),
            expected.reshape(n, 2, 4, h, w).transpose(0, 1, 3, 4, 2),
        )
