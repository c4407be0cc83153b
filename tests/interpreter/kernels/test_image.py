"""The image kernels against PyTorch's interpolation, and against
element-by-element references where PyTorch has no counterpart (cubic
exclusion, tf_crop_and_resize, crop_and_resize)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

TOLERANCE = 1e-4


def tensor(shape: tuple[int, ...], dtype: str = "float32") -> str:
    dims = ", ".join(str(d) for d in shape)
    return f"Tensor[({dims}{',' if len(shape) == 1 else ''}), {dtype}]"


def program(call: str, *shapes: tuple[int, ...], dtypes: tuple[str, ...] = ()) -> str:
    params = ", ".join(
        f"%{chr(97 + i)}: {tensor(s, dtypes[i] if dtypes else 'float32')}"
        for i, s in enumerate(shapes)
    )
    return f"def @main({params}) {{ {call} }}"


def random(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def t(array: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(array))


def close(actual: np.ndarray, expected: Any) -> None:
    expected = expected.numpy() if hasattr(expected, "numpy") else expected
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=TOLERANCE, atol=TOLERANCE)


def resize2d(size: tuple[int, int], **attributes: Any) -> str:
    spelled = "".join(
        f", {name}={value}f"
        if isinstance(value, float)
        else f", {name}={value}"
        if isinstance(value, int)
        else f', {name}="{value}"'
        for name, value in attributes.items()
    )
    return f"image.resize2d(%a, size=[{size[0]}, {size[1]}]{spelled})"


SIZES = [(9, 13), (3, 2), (5, 5), (16, 4)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("mode", ["half_pixel", "align_corners"])
def test_resize2d_linear(run: Any, size: tuple[int, int], mode: str) -> None:
    data = random((2, 3, 5, 6), 1)
    text = program(resize2d(size, coordinate_transformation_mode=mode), data.shape)
    expected = F.interpolate(t(data), size, mode="bilinear", align_corners=mode == "align_corners")
    close(run(text, data), expected)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("mode", ["half_pixel", "align_corners"])
def test_resize2d_cubic(run: Any, size: tuple[int, int], mode: str) -> None:
    """PyTorch's bicubic is TVM's cubic with alpha -0.75."""
    data = random((1, 2, 5, 6), 1)
    call = resize2d(size, method="cubic", coordinate_transformation_mode=mode, cubic_alpha=-0.75)
    expected = F.interpolate(t(data), size, mode="bicubic", align_corners=mode == "align_corners")
    close(run(program(call, data.shape), data), expected)


@pytest.mark.parametrize("size", SIZES)
def test_resize2d_nearest_asymmetric_floor(run: Any, size: tuple[int, int]) -> None:
    """PyTorch's nearest is floor(x * in / out)."""
    data = random((1, 2, 5, 6), 1)
    call = resize2d(
        size,
        method="nearest_neighbor",
        coordinate_transformation_mode="asymmetric",
        rounding_method="floor",
    )
    close(run(program(call, data.shape), data), F.interpolate(t(data), size, mode="nearest"))


@pytest.mark.parametrize("size", SIZES)
def test_resize2d_nearest_half_pixel(run: Any, size: tuple[int, int]) -> None:
    """PyTorch's nearest-exact is floor((x + 0.5) * in / out)."""
    data = random((1, 2, 5, 6), 1)
    call = resize2d(size, method="nearest_neighbor", rounding_method="round_prefer_ceil")
    expected = F.interpolate(t(data), size, mode="nearest-exact")
    close(run(program(call, data.shape), data), expected)


def test_resize2d_nearest_rounds_half_to_even(run: Any) -> None:
    """The default rounding_method "round" is TVM's nearbyint: 2.5 -> 2."""
    data = np.arange(5, dtype=np.float32).reshape(1, 1, 1, 5)
    call = resize2d((1, 2), method="nearest_neighbor", coordinate_transformation_mode="asymmetric")
    close(run(program(call, data.shape), data), data[..., [0, 2]])


def test_resize2d_nearest_integer_factor(run: Any) -> None:
    """An integer upscale of a nearest asymmetric resize divides indices as
    integers, whatever the rounding method (topi's use_int_div)."""
    data = random((1, 2, 3, 4), 1)
    call = resize2d((9, 8), method="nearest_neighbor", coordinate_transformation_mode="asymmetric")
    expected = np.repeat(np.repeat(data, 3, axis=2), 2, axis=3)
    close(run(program(call, data.shape), data), expected)


def test_resize2d_nhwc(run: Any) -> None:
    data = random((1, 3, 4, 5), 1)
    call = resize2d((7, 3), layout="NHWC")
    result = run(program(call, (1, 4, 5, 3)), data.transpose(0, 2, 3, 1))
    expected = F.interpolate(t(data), (7, 3), mode="bilinear", align_corners=False)
    close(result, expected.permute(0, 2, 3, 1))


def test_resize2d_out_dtype(run: Any) -> None:
    data = random((1, 1, 3, 3), 1)
    result = run(program(resize2d((6, 6), out_dtype="float64"), data.shape), data)
    expected = F.interpolate(t(data), (6, 6), mode="bilinear", align_corners=False)
    assert result.dtype == np.float64
    close(result, expected.double())


def cubic_weights(t_: float, alpha: float) -> list[float]:
    """Keys' cubic convolution weights of the taps at -1, 0, 1, 2."""

    def w(d: float) -> float:
        d = abs(d)
        if d <= 1:
            return (alpha + 2) * d**3 - (alpha + 3) * d**2 + 1
        if d < 2:
            return alpha * d**3 - 5 * alpha * d**2 + 8 * alpha * d - 4 * alpha
        return 0.0

    return [w(t_ + 1), w(t_), w(1 - t_), w(2 - t_)]


def test_resize1d_cubic_exclude(run: Any) -> None:
    """Taps outside the image get weight 0 and the rest are renormalized (ONNX's exclude_outside)."""
    data = random((1, 2, 5), 1)
    call = 'image.resize1d(%a, size=[8], method="cubic", cubic_exclude=1, cubic_alpha=-0.5f)'
    result = run(program(call, data.shape), data)
    expected = np.empty((1, 2, 8), np.float64)
    for x in range(8):
        source = (x + 0.5) * 5 / 8 - 0.5
        base = math.floor(source)
        weights = cubic_weights(source - base, -0.5)
        taps = [base - 1 + i for i in range(4)]
        weights = [w if 0 <= tap < 5 else 0.0 for w, tap in zip(weights, taps)]
        total = sum(weights)
        expected[..., x] = sum(
            w / total * data[..., min(max(tap, 0), 4)] for w, tap in zip(weights, taps)
        )
    close(result, expected.astype(np.float32))


def test_resize1d_tf_crop_and_resize(run: Any) -> None:
    """Sample points outside the image take extrapolation_value."""
    data = random((1, 1, 6), 1)
    call = (
        'image.resize1d(%a, size=[5], roi=[-0.2f, 0.9f], coordinate_transformation_mode="tf_crop_and_resize", '
        "extrapolation_value=7f)"
    )
    result = run(program(call, data.shape), data)
    expected = np.empty((1, 1, 5), np.float32)
    for x in range(5):
        source = -0.2 * 5 + x * (0.9 + 0.2) * 5 / 4
        if source < 0 or source > 5:
            expected[..., x] = 7
            continue
        base = math.floor(source)
        right = min(base + 1, 5)
        expected[..., x] = data[..., base] * (1 - (source - base)) + data[..., right] * (
            source - base
        )
    close(result, expected)


@pytest.mark.parametrize("mode", ["half_pixel", "align_corners"])
def test_resize1d_linear(run: Any, mode: str) -> None:
    data = random((2, 3, 7), 1)
    call = f'image.resize1d(%a, size=[11], coordinate_transformation_mode="{mode}")'
    expected = F.interpolate(t(data), 11, mode="linear", align_corners=mode == "align_corners")
    close(run(program(call, data.shape), data), expected)


@pytest.mark.parametrize("mode", ["half_pixel", "align_corners"])
def test_resize3d_linear(run: Any, mode: str) -> None:
    data = random((1, 2, 3, 4, 5), 1)
    call = f'image.resize3d(%a, size=[5, 3, 8], coordinate_transformation_mode="{mode}")'
    expected = F.interpolate(
        t(data), (5, 3, 8), mode="trilinear", align_corners=mode == "align_corners"
    )
    close(run(program(call, data.shape), data), expected)


def test_resize3d_nearest_ndhwc(run: Any) -> None:
    data = random((1, 2, 3, 4, 5), 1)
    call = (
        'image.resize3d(%a, size=[6, 3, 7], layout="NDHWC", method="nearest_neighbor", '
        'coordinate_transformation_mode="asymmetric", rounding_method="floor")'
    )
    result = run(program(call, (1, 3, 4, 5, 2)), data.transpose(0, 2, 3, 4, 1))
    expected = F.interpolate(t(data), (6, 3, 7), mode="nearest").permute(0, 2, 3, 4, 1)
    close(result, expected)


def crop_and_resize_reference(
    image: np.ndarray, boxes: np.ndarray, indices: np.ndarray, size: tuple[int, int], method: str
) -> np.ndarray:
    """TensorFlow's crop_and_resize, element by element (NCHW)."""
    _, channels, height, width = image.shape
    out = np.empty((len(boxes), channels, *size), np.float32)
    for b, (y1, x1, y2, x2) in enumerate(boxes):
        for i in range(size[0]):
            for j in range(size[1]):
                y = y1 * (height - 1) + i * (y2 - y1) * (height - 1) / (size[0] - 1)
                x = x1 * (width - 1) + j * (x2 - x1) * (width - 1) / (size[1] - 1)
                if not (0 <= y <= height - 1 and 0 <= x <= width - 1):
                    out[b, :, i, j] = 0.5  # the extrapolation value
                    continue
                pixels = image[indices[b]]
                if method == "nearest_neighbor":
                    out[b, :, i, j] = pixels[:, round(y), round(x)]
                    continue
                top, left = math.floor(y), math.floor(x)
                bottom, right = min(top + 1, height - 1), min(left + 1, width - 1)
                dy, dx = y - top, x - left
                upper = pixels[:, top, left] * (1 - dx) + pixels[:, top, right] * dx
                lower = pixels[:, bottom, left] * (1 - dx) + pixels[:, bottom, right] * dx
                out[b, :, i, j] = upper * (1 - dy) + lower * dy
    return out


@pytest.mark.parametrize("method", ["bilinear", "nearest_neighbor"])
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_crop_and_resize(run: Any, method: str, layout: str) -> None:
    image = random((2, 3, 6, 7), 1)
    boxes = np.array(
        [[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 0.5, 1.3], [0.3, 0.6, 0.7, 0.1]], np.float32
    )
    indices = np.array([1, 0, 1], np.int32)
    data = image if layout == "NCHW" else image.transpose(0, 2, 3, 1)
    call = (
        f'image.crop_and_resize(%a, %b, %c, crop_size=[4, 5], layout="{layout}", '
        f'method="{method}", extrapolation_value=0.5f)'
    )
    text = program(
        call, data.shape, boxes.shape, indices.shape, dtypes=("float32", "float32", "int32")
    )
    result = run(text, data, boxes, indices)
    expected = crop_and_resize_reference(image, boxes, indices, (4, 5), method)
    if layout == "NHWC":
        expected = expected.transpose(0, 2, 3, 1)
    close(result, expected)


@pytest.mark.parametrize("method", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sample(run: Any, method: str, padding_mode: str, align_corners: bool) -> None:
    """TVM's grid is PyTorch's with the (x, y) pair as the second axis; points reach past the image."""
    data = random((2, 3, 5, 6), 1)
    grid = np.random.default_rng(2).uniform(-1.6, 1.6, (2, 4, 7, 2)).astype(np.float32)
    call = (
        f'image.grid_sample(%a, %b, method="{method}", padding_mode="{padding_mode}", '
        f"align_corners={align_corners})"
    )
    tvm_grid = grid.transpose(0, 3, 1, 2)
    result = run(program(call, data.shape, tvm_grid.shape), data, tvm_grid)
    expected = F.grid_sample(
        t(data), t(grid), mode=method, padding_mode=padding_mode, align_corners=align_corners
    )
    close(result, expected)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_3d(run: Any, method: str, padding_mode: str) -> None:
    data = random((1, 2, 3, 4, 5), 1)
    grid = np.random.default_rng(2).uniform(-1.4, 1.4, (1, 2, 3, 4, 3)).astype(np.float32)
    call = (
        f'image.grid_sample(%a, %b, method="{method}", padding_mode="{padding_mode}", '
        'layout="NCDHW", align_corners=False)'
    )
    tvm_grid = grid.transpose(0, 4, 1, 2, 3)
    result = run(program(call, data.shape, tvm_grid.shape), data, tvm_grid)
    expected = F.grid_sample(
        t(data), t(grid), mode=method, padding_mode=padding_mode, align_corners=False
    )
    close(result, expected)


def test_resize3d_reads_the_roi_in_topis_order(run: Any) -> None:
    """topi's resize3d reads a tf_crop_and_resize roi as [x, y, z] starts, then ends."""
    data = random((1, 1, 3, 4, 5), 1)
    roi = "[0f, 0f, 0f, 0.5f, 1f, 1f]"  # x crops to its first half; y and z stay whole
    call = f'image.resize3d(%a, size=[3, 4, 5], roi={roi}, coordinate_transformation_mode="tf_crop_and_resize")'
    result = run(program(call, data.shape), data)
    source = np.arange(5) * 0.5 * 4 / 4  # x * (end - start) * (width - 1) / (target - 1)
    left = np.floor(source).astype(int)
    right = np.minimum(left + 1, 4)
    expected = data[..., left] * (1 - (source - left)) + data[..., right] * (source - left)
    close(result, expected.astype(np.float32))


@pytest.mark.parametrize("method", ["bilinear", "nearest_neighbor"])
def test_crop_and_resize_against_torch_grid_sample(run: Any, method: str) -> None:
    """Inside the image, a box (y1, x1, y2, x2) resized to (h, w) samples the
    points y1 + i (y2 - y1) / (h - 1) of the image's [0, 1] span: PyTorch's
    grid_sample with aligned corners (both round half to even for nearest)."""
    rng = np.random.default_rng(8)
    data = random((2, 3, 7, 9), 3)
    corners = np.sort(rng.uniform(0, 1, (4, 2, 2)), axis=1)  # per box: y and x, each start < end
    boxes = corners.transpose(0, 2, 1).reshape(4, 4)[:, [0, 2, 1, 3]].astype(np.float32)
    box_indices = np.array([1, 0, 1, 1], np.int32)
    crop = (5, 4)
    call = (
        f"image.crop_and_resize(%a, %b, %c, crop_size=[{crop[0]}, {crop[1]}], "
        f'method="{method}", extrapolation_value=0f)'
    )
    text = program(
        call, data.shape, boxes.shape, box_indices.shape, dtypes=("float32", "float32", "int32")
    )
    result = run(text, data, boxes, box_indices)
    grids = []
    for y1, x1, y2, x2 in boxes.astype(np.float64):
        ys = 2 * (y1 + np.arange(crop[0]) * (y2 - y1) / (crop[0] - 1)) - 1
        xs = 2 * (x1 + np.arange(crop[1]) * (x2 - x1) / (crop[1] - 1)) - 1
        grids.append(np.stack(np.meshgrid(xs, ys), axis=-1))  # (h, w, (x, y))
    grid = torch.from_numpy(np.stack(grids).astype(np.float32))
    mode = "bilinear" if method == "bilinear" else "nearest"
    images = t(data)[torch.from_numpy(box_indices).long()]
    close(result, F.grid_sample(images, grid, mode=mode, align_corners=True))
