"""The nn kernels against PyTorch: convolutions, dense layers, activations,
normalizations and data movement, on random inputs and edge cases."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

from relay_xdsl.dialects.relay.operators import image, nn, pooling
from relay_xdsl.interpreter.kernels.layouts import KernelError
from relay_xdsl.interpreter.registry import KERNELS

torch = pytest.importorskip("torch")
F = torch.nn.functional

TOLERANCE = 1e-4


def tensor(shape: tuple[int, ...], dtype: str = "float32") -> str:
    dims = ", ".join(str(d) for d in shape)
    return f"Tensor[({dims}{',' if len(shape) == 1 else ''}), {dtype}]"


def program(call: str, *shapes: tuple[int, ...], dtype: str = "float32") -> str:
    """A main function of one argument per shape (%a, %b, ...) returning `call`."""
    params = ", ".join(f"%{chr(97 + i)}: {tensor(s, dtype)}" for i, s in enumerate(shapes))
    return f"def @main({params}) {{ {call} }}"


def random(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def t(array: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(array))


def close(actual: np.ndarray, expected: Any) -> None:
    expected = expected.numpy() if hasattr(expected, "numpy") else expected
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=TOLERANCE, atol=TOLERANCE)


def attrs(**values: Any) -> str:
    def spell(value: Any) -> str:
        if isinstance(value, bool):
            return "True" if value else "False"
        if isinstance(value, str):
            return f'"{value}"'
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(spell(v) for v in value) + "]"
        return str(value)

    return "".join(f", {name}={spell(value)}" for name, value in values.items())


# ---------------------------------------------------------------------------
# Convolutions
# ---------------------------------------------------------------------------


def torch_padding(padding: list[int], dims: int) -> list[int]:
    """TVM's 1, d or 2d padding entries as F.pad's (last axis first) pairs."""
    if len(padding) == 1:
        pairs = [(padding[0], padding[0])] * dims
    elif len(padding) == dims:
        pairs = [(p, p) for p in padding]
    else:
        pairs = [(padding[i], padding[i + dims]) for i in range(dims)]
    return [p for pair in reversed(pairs) for p in pair]


CONV2D_CASES = [
    # data, weight, attributes
    ((1, 3, 8, 8), (4, 3, 3, 3), {"padding": [1, 1]}),
    ((2, 4, 9, 7), (6, 4, 3, 2), {"padding": [1, 0, 2, 1], "strides": [2, 1], "dilation": [2, 1]}),
    ((1, 4, 8, 8), (6, 2, 3, 3), {"groups": 2, "padding": [1]}),
    ((1, 6, 10, 10), (6, 1, 3, 3), {"groups": 6, "padding": [1, 1], "strides": [2, 2]}),
    ((1, 3, 11, 11), (5, 3, 5, 5), {"strides": [3, 2], "padding": [2, 1, 0, 2]}),
    ((2, 8, 5, 5), (16, 8, 1, 1), {}),
]


@pytest.mark.parametrize(("data_shape", "weight_shape", "attributes"), CONV2D_CASES)
def test_conv2d(run: Any, data_shape: Any, weight_shape: Any, attributes: dict[str, Any]) -> None:
    data, weight = random(data_shape, 1), random(weight_shape, 2)
    text = program(f"nn.conv2d(%a, %b{attrs(**attributes)})", data_shape, weight_shape)
    padding = torch_padding(attributes.get("padding", [0]), 2)
    expected = F.conv2d(
        F.pad(t(data), padding),
        t(weight),
        stride=attributes.get("strides", 1),
        dilation=attributes.get("dilation", 1),
        groups=attributes.get("groups", 1),
    )
    close(run(text, data, weight), expected)


@pytest.mark.parametrize(
    ("kernel_layout", "groups"), [("HWIO", 1), ("OHWI", 1), ("HWOI", 4), ("HWIO", 2)]
)
def test_conv2d_nhwc(run: Any, kernel_layout: str, groups: int) -> None:
    data = random((1, 4, 7, 6), 1)
    weight = random((8, 4 // groups, 3, 3), 2)
    layout_weight = np.transpose(weight, ["OIHW".index(c) for c in kernel_layout])
    nhwc = np.transpose(data, (0, 2, 3, 1))
    call = f"nn.conv2d(%a, %b{attrs(padding=[1, 1], strides=[2, 1], groups=groups)}"
    call += attrs(data_layout="NHWC", kernel_layout=kernel_layout) + ")"
    if kernel_layout == "HWOI":  # depthwise: O is the channel, I its multiplier
        weight = random((4, 1, 3, 3), 2)
        layout_weight = np.transpose(weight, (2, 3, 0, 1))
    text = program(call, nhwc.shape, layout_weight.shape)
    expected = F.conv2d(t(data), t(weight), padding=1, stride=(2, 1), groups=groups)
    close(run(text, nhwc, layout_weight), expected.permute(0, 2, 3, 1))


def test_conv2d_out_layout(run: Any) -> None:
    data, weight = random((1, 3, 6, 6), 1), random((4, 3, 3, 3), 2)
    text = program(
        f"nn.conv2d(%a, %b{attrs(padding=[1, 1], out_layout='NHWC')})", data.shape, weight.shape
    )
    close(run(text, data, weight), F.conv2d(t(data), t(weight), padding=1).permute(0, 2, 3, 1))


def test_conv2d_int8_out_dtype(run: Any) -> None:
    rng = np.random.default_rng(0)
    data = rng.integers(-128, 128, (1, 3, 6, 6), dtype=np.int8)
    weight = rng.integers(-128, 128, (4, 3, 3, 3), dtype=np.int8)
    call = f"nn.conv2d(%a, %b{attrs(padding=[1, 1], out_dtype='int32')})"
    text = f"def @main(%a: {tensor(data.shape, 'int8')}, %b: {tensor(weight.shape, 'int8')}) {{ {call} }}"
    result = run(text, data, weight)
    expected = F.conv2d(t(data.astype(np.float64)), t(weight.astype(np.float64)), padding=1)
    np.testing.assert_array_equal(result, expected.numpy().astype(np.int32))


@pytest.mark.parametrize(
    ("data_shape", "weight_shape", "attributes"),
    [
        ((2, 4, 16), (6, 4, 3), {"padding": [1, 2], "strides": [2], "dilation": [2]}),
        ((1, 4, 10), (4, 1, 5), {"padding": [2], "groups": 4}),
    ],
)
def test_conv1d(run: Any, data_shape: Any, weight_shape: Any, attributes: dict[str, Any]) -> None:
    data, weight = random(data_shape, 1), random(weight_shape, 2)
    text = program(f"nn.conv1d(%a, %b{attrs(**attributes)})", data_shape, weight_shape)
    expected = F.conv1d(
        F.pad(t(data), torch_padding(attributes["padding"], 1)),
        t(weight),
        stride=attributes.get("strides", 1),
        dilation=attributes.get("dilation", 1),
        groups=attributes.get("groups", 1),
    )
    close(run(text, data, weight), expected)


def test_conv1d_nwc(run: Any) -> None:
    data, weight = random((2, 3, 9), 1), random((5, 3, 3), 2)
    text = program(
        f"nn.conv1d(%a, %b{attrs(padding=[1, 1], data_layout='NWC', kernel_layout='WIO')})",
        (2, 9, 3),
        (3, 3, 5),
    )
    result = run(text, data.transpose(0, 2, 1), weight.transpose(2, 1, 0))
    close(result, F.conv1d(t(data), t(weight), padding=1).permute(0, 2, 1))


def test_conv3d(run: Any) -> None:
    data, weight = random((1, 4, 6, 7, 5), 1), random((6, 2, 3, 3, 2), 2)
    padding = [1, 0, 1, 0, 1, 1]
    call = f"nn.conv3d(%a, %b{attrs(padding=padding, strides=[2, 1, 2], groups=2)})"
    text = program(call, data.shape, weight.shape)
    expected = F.conv3d(
        F.pad(t(data), torch_padding(padding, 3)), t(weight), stride=(2, 1, 2), groups=2
    )
    close(run(text, data, weight), expected)


def test_conv3d_ndhwc(run: Any) -> None:
    data, weight = random((1, 3, 5, 5, 5), 1), random((4, 3, 3, 3, 3), 2)
    call = (
        f"nn.conv3d(%a, %b{attrs(padding=[1, 1, 1], data_layout='NDHWC', kernel_layout='DHWIO')})"
    )
    text = program(call, (1, 5, 5, 5, 3), (3, 3, 3, 3, 4))
    result = run(text, data.transpose(0, 2, 3, 4, 1), weight.transpose(2, 3, 4, 1, 0))
    close(result, F.conv3d(t(data), t(weight), padding=1).permute(0, 2, 3, 4, 1))


def crop_transposed(full: Any, pads: list[tuple[int, int]], output_padding: list[int]) -> Any:
    """A padding-free transposed convolution's output cut to TVM's padding
    (before, after) per axis and extended by output_padding (zeros)."""
    for axis, ((before, after), extra) in enumerate(zip(pads, output_padding)):
        size = full.shape[2 + axis]
        full = F.pad(full, [0, 0] * (len(pads) - 1 - axis) + [0, max(0, extra - after)])
        full = full.narrow(2 + axis, before, size - before - after + extra)
    return full


@pytest.mark.parametrize(
    ("data_shape", "weight_shape", "attributes"),
    [
        (
            (1, 4, 5, 5),
            (4, 3, 3, 3),
            {"strides": [2, 2], "padding": [1, 1], "output_padding": [1, 1]},
        ),
        (
            (2, 4, 4, 6),
            (4, 2, 3, 2),
            {
                "strides": [2, 3],
                "padding": [1, 0, 0, 1],
                "groups": 2,
                "channels": 4,
                "kernel_size": [3, 2],
            },
        ),
        ((1, 3, 4, 4), (3, 5, 4, 4), {"strides": [1, 1], "padding": [0, 0]}),
        (
            (1, 2, 3, 3),
            (2, 2, 3, 3),
            {"strides": [2, 2], "dilation": [2, 1], "padding": [2, 1, 1, 0]},
        ),
    ],
)
def test_conv2d_transpose(
    run: Any, data_shape: Any, weight_shape: Any, attributes: dict[str, Any]
) -> None:
    data, weight = random(data_shape, 1), random(weight_shape, 2)
    text = program(f"nn.conv2d_transpose(%a, %b{attrs(**attributes)})", data_shape, weight_shape)
    full = F.conv_transpose2d(
        t(data),
        t(weight),
        stride=attributes["strides"],
        dilation=attributes.get("dilation", 1),
        groups=attributes.get("groups", 1),
    )
    p = attributes["padding"]
    pads = [(p[0], p[0]), (p[1], p[1])] if len(p) == 2 else [(p[0], p[2]), (p[1], p[3])]
    expected = crop_transposed(full, pads, attributes.get("output_padding", [0, 0]))
    close(run(text, data, weight), expected)


def test_conv2d_transpose_groups_without_channels_is_an_error(run: Any) -> None:
    """TVM types it with the weight's output channels of one group only."""
    text = program("nn.conv2d_transpose(%a, %b, groups=2)", (1, 4, 3, 3), (4, 2, 3, 3))
    with pytest.raises(KernelError, match="set channels"):
        run(text, random((1, 4, 3, 3)), random((4, 2, 3, 3)))


def test_conv3d_transpose_unequal_window_from_weight_is_an_error(run: Any) -> None:
    """TVM v0.19 swaps the H and W windows when its relation reads the weight."""
    text = program("nn.conv3d_transpose(%a, %b)", (1, 2, 3, 3, 3), (2, 3, 3, 2, 3))
    with pytest.raises(KernelError, match="set channels"):
        run(text, random((1, 2, 3, 3, 3)), random((2, 3, 3, 2, 3)))


def test_conv1d_transpose(run: Any) -> None:
    data, weight = random((2, 3, 7), 1), random((3, 4, 3), 2)
    call = f"nn.conv1d_transpose(%a, %b{attrs(strides=[2], padding=[1], output_padding=[1])})"
    text = program(call, data.shape, weight.shape)
    expected = F.conv_transpose1d(t(data), t(weight), stride=2, padding=1, output_padding=1)
    close(run(text, data, weight), expected)


def test_conv3d_transpose(run: Any) -> None:
    data, weight = random((1, 2, 3, 4, 3), 1), random((2, 3, 3, 2, 3), 2)
    call = "nn.conv3d_transpose(%a, %b"
    call += f"{attrs(strides=[2, 1, 2], padding=[1, 0, 1], channels=3, kernel_size=[3, 2, 3])})"
    text = program(call, data.shape, weight.shape)
    expected = F.conv_transpose3d(t(data), t(weight), stride=(2, 1, 2), padding=(1, 0, 1))
    close(run(text, data, weight), expected)


def test_conv2d_transpose_nhwc(run: Any) -> None:
    data, weight = random((1, 3, 4, 4), 1), random((3, 2, 3, 3), 2)
    call = f"nn.conv2d_transpose(%a, %b{attrs(strides=[2, 2], padding=[1, 1])}"
    call += attrs(data_layout="NHWC", kernel_layout="HWIO") + ")"
    # HWIO here names the weight's (in, out) axes the other way round: I is the data's channels.
    text = program(call, (1, 4, 4, 3), (3, 3, 3, 2))
    result = run(text, data.transpose(0, 2, 3, 1), weight.transpose(2, 3, 0, 1))
    expected = F.conv_transpose2d(t(data), t(weight), stride=2, padding=1)
    close(result, expected.permute(0, 2, 3, 1))


# ---------------------------------------------------------------------------
# Dense layers
# ---------------------------------------------------------------------------


def test_dense(run: Any) -> None:
    data, weight = random((2, 3, 5), 1), random((4, 5), 2)
    text = program("nn.dense(%a, %b, units=4)", data.shape, weight.shape)
    close(run(text, data, weight), F.linear(t(data), t(weight)))


@pytest.mark.parametrize(
    ("transpose_a", "transpose_b"), [(False, False), (True, False), (False, True), (True, True)]
)
def test_matmul(run: Any, transpose_a: bool, transpose_b: bool) -> None:
    a = random((5, 3) if transpose_a else (3, 5), 1)
    b = random((4, 5) if transpose_b else (5, 4), 2)
    call = f"nn.matmul(%a, %b{attrs(units=4, transpose_a=transpose_a, transpose_b=transpose_b)})"
    expected = torch.matmul(t(a.T if transpose_a else a), t(b.T if transpose_b else b))
    close(run(program(call, a.shape, b.shape), a, b), expected)


@pytest.mark.parametrize(
    ("transpose_a", "transpose_b"), [(False, False), (True, True), (False, True)]
)
def test_batch_matmul(run: Any, transpose_a: bool, transpose_b: bool) -> None:
    a = random((3, 5, 2) if transpose_a else (3, 2, 5), 1)
    b = random((1, 4, 5) if transpose_b else (1, 5, 4), 2)  # a batch of 1 broadcasts
    call = f"nn.batch_matmul(%a, %b{attrs(transpose_a=transpose_a, transpose_b=transpose_b)})"
    expected = torch.matmul(
        t(a).transpose(1, 2) if transpose_a else t(a), t(b).transpose(1, 2) if transpose_b else t(b)
    )
    close(run(program(call, a.shape, b.shape), a, b), expected)


@pytest.mark.parametrize("axis", [1, -1, 2])
def test_bias_add(run: Any, axis: int) -> None:
    data = random((2, 3, 4, 5), 1)
    bias = random((data.shape[axis],), 2)
    text = program(f"nn.bias_add(%a, %b, axis={axis})", data.shape, bias.shape)
    shape = [1] * 4
    shape[axis] = -1
    close(run(text, data, bias), t(data) + t(bias).reshape(shape))


# ---------------------------------------------------------------------------
# Activations
# ---------------------------------------------------------------------------


def test_relu(run: Any) -> None:
    data = random((2, 3, 4), 1)
    close(run(program("nn.relu(%a)", data.shape), data), F.relu(t(data)))


def test_leaky_relu(run: Any) -> None:
    data = random((2, 3, 4), 1)
    text = program("nn.leaky_relu(%a, alpha=0.1f)", data.shape)
    close(run(text, data), F.leaky_relu(t(data), 0.1))


@pytest.mark.parametrize("axis", [1, 3])
def test_prelu(run: Any, axis: int) -> None:
    data = random((2, 3, 4, 5), 1)
    alpha = random((data.shape[axis],), 2)
    text = program(f"nn.prelu(%a, %b, axis={axis})", data.shape, alpha.shape)
    moved = t(data).movedim(axis, 1)
    close(run(text, data, alpha), F.prelu(moved, t(alpha)).movedim(1, axis))


@pytest.mark.parametrize("operator", ["nn.softmax", "nn.fast_softmax", "nn.log_softmax"])
@pytest.mark.parametrize("axis", [-1, 1, 0])
def test_softmax(run: Any, operator: str, axis: int) -> None:
    data = random((3, 4, 5), 1) * 10
    text = program(f"{operator}(%a, axis={axis})", data.shape)
    reference = F.log_softmax if operator == "nn.log_softmax" else F.softmax
    close(run(text, data), reference(t(data), dim=axis))


# ---------------------------------------------------------------------------
# Normalization and dropout
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("axis", "center", "scale"), [(1, True, True), (-1, False, True), (3, True, False)]
)
def test_batch_norm(run: Any, axis: int, center: bool, scale: bool) -> None:
    data = random((2, 3, 4, 5), 1)
    c = data.shape[axis]
    gamma, beta, mean = random((c,), 2), random((c,), 3), random((c,), 4)
    var = np.abs(random((c,), 5)) + 0.5
    call = f"nn.batch_norm(%a, %b, %c, %d, %e{attrs(axis=axis, center=center, scale=scale)}, epsilon=1e-3f)"
    text = program(call, data.shape, (c,), (c,), (c,), (c,))
    out, out_mean, out_var = run(text, data, gamma, beta, mean, var)
    expected = F.batch_norm(
        t(data).movedim(axis, 1),
        t(mean),
        t(var),
        t(gamma) if scale else None,
        t(beta) if center else None,
        training=False,
        eps=1e-3,
    ).movedim(1, axis)
    close(out, expected)
    np.testing.assert_array_equal(out_mean, mean)
    np.testing.assert_array_equal(out_var, var)


@pytest.mark.parametrize("axis", [-1, 1])
def test_layer_norm(run: Any, axis: int) -> None:
    data = random((2, 3, 4), 1) * 3 + 1
    c = data.shape[axis]
    gamma, beta = random((c,), 2), random((c,), 3)
    text = program(f"nn.layer_norm(%a, %b, %c, axis={axis})", data.shape, (c,), (c,))
    moved = t(data).movedim(axis, -1)
    expected = F.layer_norm(moved, (c,), t(gamma), t(beta), eps=1e-5).movedim(-1, axis)
    close(run(text, data, gamma, beta), expected)


def test_layer_norm_without_scale_and_center(run: Any) -> None:
    data = random((2, 6), 1)
    ones = np.ones(6, np.float32)
    text = program("nn.layer_norm(%a, %b, %c, center=False, scale=False)", data.shape, (6,), (6,))
    close(run(text, data, ones * 7, ones * 9), F.layer_norm(t(data), (6,)))


def test_instance_norm(run: Any) -> None:
    data = random((2, 3, 4, 5), 1)
    gamma, beta = random((3,), 2), random((3,), 3)
    text = program("nn.instance_norm(%a, %b, %c)", data.shape, (3,), (3,))
    expected = F.instance_norm(t(data), weight=t(gamma), bias=t(beta), eps=1e-5)
    close(run(text, data, gamma, beta), expected)


def test_instance_norm_nhwc(run: Any) -> None:
    data = random((2, 3, 4, 5), 1)
    gamma, beta = random((3,), 2), random((3,), 3)
    text = program("nn.instance_norm(%a, %b, %c, axis=3)", (2, 4, 5, 3), (3,), (3,))
    expected = F.instance_norm(t(data), weight=t(gamma), bias=t(beta), eps=1e-5)
    close(run(text, data.transpose(0, 2, 3, 1), gamma, beta), expected.permute(0, 2, 3, 1))


def test_group_norm(run: Any) -> None:
    data = random((2, 6, 4, 5), 1)
    gamma, beta = random((6,), 2), random((6,), 3)
    text = program("nn.group_norm(%a, %b, %c, num_groups=3)", data.shape, (6,), (6,))
    expected = F.group_norm(t(data), 3, t(gamma), t(beta), eps=1e-5)
    close(run(text, data, gamma, beta), expected)


@pytest.mark.parametrize("axis", [1, 3])
def test_lrn(run: Any, axis: int) -> None:
    data = random((2, 7, 4, 5), 1)
    moved = data if axis == 1 else data.transpose(0, 2, 3, 1)
    call = f"nn.lrn(%a, size=3, axis={axis}, bias=1.5f, alpha=0.01f, beta=0.6f)"
    expected = F.local_response_norm(t(data), 3, alpha=0.01, beta=0.6, k=1.5)
    if axis == 3:
        expected = expected.permute(0, 2, 3, 1)
    close(run(program(call, moved.shape), moved), expected)


def test_l2_normalize(run: Any) -> None:
    data = random((2, 3, 4), 1)
    text = program("nn.l2_normalize(%a, eps=1e-12f, axis=[1, 2])", data.shape)
    norm = torch.sqrt((t(data) ** 2).sum(dim=(1, 2), keepdim=True))
    close(run(text, data), t(data) / norm)


def test_l2_normalize_eps_bounds_the_norm(run: Any) -> None:
    data = np.full((1, 2), 1e-3, np.float32)
    text = program("nn.l2_normalize(%a, eps=0.25f, axis=[1])", data.shape)
    close(run(text, data), data / 0.5)


def test_dropout(run: Any) -> None:
    data = random((2, 3), 1)
    out, mask = run(program("nn.dropout(%a, rate=0.3f)", data.shape), data)
    np.testing.assert_array_equal(out, data)
    np.testing.assert_array_equal(mask, np.ones_like(data))


# ---------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------


def test_batch_flatten(run: Any) -> None:
    data = random((2, 3, 4, 5), 1)
    close(run(program("nn.batch_flatten(%a)", data.shape), data), t(data).flatten(1))


@pytest.mark.parametrize(
    ("mode", "torch_mode"),
    [("constant", "constant"), ("edge", "replicate"), ("reflect", "reflect")],
)
def test_pad(run: Any, mode: str, torch_mode: str) -> None:
    data = random((1, 2, 4, 5), 1)
    widths = [[0, 0], [0, 0], [1, 2], [3, 0]]
    value = np.array(1.5, np.float32)
    text = (
        f"def @main(%a: {tensor(data.shape)}, %v: float32) {{ "
        f'nn.pad(%a, %v, pad_width={widths}, pad_mode="{mode}") }}'
    )
    extra = {"value": 1.5} if mode == "constant" else {}
    expected = F.pad(t(data), [3, 0, 1, 2], mode=torch_mode, **extra)
    close(run(text, data, value), expected)


def test_pad_negative_width_crops(run: Any) -> None:
    data = random((3, 6), 1)
    text = (
        f"def @main(%a: {tensor(data.shape)}, %v: float32) {{ "
        "nn.pad(%a, %v, pad_width=[[1, -1], [-2, 1]]) }"
    )
    close(run(text, data, np.array(0, np.float32)), F.pad(t(data), [-2, 1, 1, -1]))


@pytest.mark.parametrize(
    ("mode", "expected"), [("SYMMETRIC", [2, 1, 1, 2, 3, 3]), ("REFLECT", [3, 2, 1, 2, 3, 2])]
)
def test_mirror_pad(run: Any, mode: str, expected: list[int]) -> None:
    data = np.array([1, 2, 3], np.float32)
    text = program(f'nn.mirror_pad(%a, mode="{mode}", pad_width=[[2, 1]])', data.shape)
    close(run(text, data), np.array(expected, np.float32))


def test_mirror_pad_matches_torch_reflect(run: Any) -> None:
    data = random((1, 2, 4, 5), 1)
    text = program(
        'nn.mirror_pad(%a, mode="REFLECT", pad_width=[[0, 0], [0, 0], [2, 1], [1, 3]])', data.shape
    )
    close(run(text, data), F.pad(t(data), [1, 3, 2, 1], mode="reflect"))


@pytest.mark.parametrize(
    ("method", "align_corners"), [("nearest_neighbor", False), ("bilinear", True)]
)
def test_upsampling(run: Any, method: str, align_corners: bool) -> None:
    data = random((1, 2, 4, 5), 1)
    call = f'nn.upsampling(%a, scale_h=2f, scale_w=3f, method="{method}"{attrs(align_corners=align_corners)})'
    mode = {"nearest_neighbor": "nearest", "bilinear": "bilinear"}[method]
    extra = {} if mode == "nearest" else {"align_corners": align_corners}
    expected = F.interpolate(t(data), size=(8, 15), mode=mode, **extra)
    close(run(program(call, data.shape), data), expected)


def test_upsampling_bilinear_asymmetric(run: Any) -> None:
    """align_corners=False samples at x / scale (asymmetric), pixels clamped to the image."""
    data = random((1, 1, 3, 4), 1)
    call = 'nn.upsampling(%a, scale_h=2f, scale_w=2f, method="bilinear")'
    result = run(program(call, data.shape), data)
    expected = np.empty((1, 1, 6, 8), np.float32)
    for y in range(6):
        for x in range(8):
            sy, sx = y / 2, x / 2
            y0, x0 = int(np.floor(sy)), int(np.floor(sx))
            dy, dx = sy - y0, sx - x0
            y1, x1 = min(y0 + 1, 2), min(x0 + 1, 3)
            top = data[0, 0, y0, x0] * (1 - dx) + data[0, 0, y0, x1] * dx
            bottom = data[0, 0, y1, x0] * (1 - dx) + data[0, 0, y1, x1] * dx
            expected[0, 0, y, x] = top * (1 - dy) + bottom * dy
    close(result, expected)


def test_upsampling_nhwc(run: Any) -> None:
    data = random((1, 2, 3, 4), 1)
    call = 'nn.upsampling(%a, scale_h=2f, scale_w=2f, layout="NHWC")'
    result = run(program(call, (1, 3, 4, 2)), data.transpose(0, 2, 3, 1))
    expected = F.interpolate(t(data), scale_factor=2, mode="nearest").permute(0, 2, 3, 1)
    close(result, expected)


@pytest.mark.parametrize(
    ("method", "mode"),
    [
        ("nearest_neighbor", "asymmetric"),
        ("trilinear", "align_corners"),
        ("trilinear", "half_pixel"),
    ],
)
def test_upsampling3d(run: Any, method: str, mode: str) -> None:
    data = random((1, 2, 3, 4, 2), 1)
    call = f'nn.upsampling3d(%a, scale_d=2f, scale_h=1.5f, scale_w=2f, method="{method}", coordinate_transformation_mode="{mode}")'
    extra = {} if method.startswith("nearest") else {"align_corners": mode == "align_corners"}
    torch_mode = "nearest" if method.startswith("nearest") else "trilinear"
    expected = F.interpolate(t(data), size=(6, 6, 4), mode=torch_mode, **extra)
    close(run(program(call, data.shape), data), expected)


def test_depth_to_space_crd_is_pixel_shuffle(run: Any) -> None:
    data = random((2, 8, 3, 4), 1)
    text = program('nn.depth_to_space(%a, block_size=2, mode="CRD")', data.shape)
    close(run(text, data), F.pixel_shuffle(t(data), 2))


def test_depth_to_space_dcr(run: Any) -> None:
    data = random((1, 12, 2, 3), 1)
    result = run(program("nn.depth_to_space(%a, block_size=2)", data.shape), data)
    # DCR: output channel c at block offset (by, bx) reads input channel (by*2 + bx)*3 + c.
    for c in range(3):
        for by in range(2):
            for bx in range(2):
                close(result[:, c, by::2, bx::2], data[:, (by * 2 + bx) * 3 + c])


def test_space_to_depth_inverts_depth_to_space(run: Any) -> None:
    data = random((2, 3, 4, 6), 1)
    packed = run(program("nn.space_to_depth(%a, block_size=2)", data.shape), data)
    unpacked = run(program("nn.depth_to_space(%a, block_size=2)", packed.shape), packed)
    close(unpacked, data)
    close(packed[:, 3:6], data[:, :, 0::2, 1::2])  # block offset (0, 1) comes second


def test_depth_to_space_nhwc(run: Any) -> None:
    data = random((1, 8, 2, 3), 1)
    text = program('nn.depth_to_space(%a, block_size=2, layout="NHWC", mode="CRD")', (1, 2, 3, 8))
    result = run(text, data.transpose(0, 2, 3, 1))
    close(result, F.pixel_shuffle(t(data), 2).permute(0, 2, 3, 1))


def test_rows_of_the_families_name_kernels_of_their_arity() -> None:
    """Every nn, pooling and image row has a kernel taking the call and its arguments."""
    families = (
        *nn.CONVOLUTION_AND_DENSE,
        *nn.ACTIVATIONS,
        *nn.NORMALIZATION,
        *nn.DATA_MOVEMENT,
        *pooling.POOLING,
        *image.IMAGE,
    )
    for row in families:
        kernel = KERNELS.get(row.name)
        assert kernel is not None, row.name
        assert len(inspect.signature(kernel).parameters) == 1 + (row.arity or 0), row.name


def block_channels(array: np.ndarray, lanes: int) -> np.ndarray:
    """NCHW as NCHW<lanes>c."""
    n, c, h, w = array.shape
    return array.reshape(n, c // lanes, lanes, h, w).transpose(0, 1, 3, 4, 2)


def test_conv2d_blocked_layouts(run: Any) -> None:
    data, weight = random((1, 8, 5, 5), 1), random((8, 8, 3, 3), 2)
    # OIHW as OIHW4i4o: (O/4, I/4, KH, KW, 4i, 4o)
    blocked_weight = weight.reshape(2, 4, 2, 4, 3, 3).transpose(0, 2, 4, 5, 3, 1)
    call = (
        f"nn.conv2d(%a, %b{attrs(padding=[1, 1], data_layout='NCHW4c', kernel_layout='OIHW4i4o')})"
    )
    text = program(call, (1, 2, 5, 5, 4), blocked_weight.shape)
    result = run(text, block_channels(data, 4), blocked_weight)
    expected = F.conv2d(t(data), t(weight), padding=1).numpy()
    close(result, block_channels(expected, 4))


def test_blocked_layout_of_an_indivisible_axis_is_an_error(run: Any) -> None:
    """TVM's layouts round a blocked axis up; its padding lanes have no values here."""
    text = program('nn.conv2d(%a, %b, out_layout="NCHW4c")', (1, 3, 4, 4), (6, 3, 1, 1))
    with pytest.raises(KernelError, match="does not split"):
        run(text, random((1, 3, 4, 4)), random((6, 3, 1, 1)))


@pytest.mark.parametrize(("block", "layout"), [(2, "NCHW"), (3, "NCHW"), (2, "NHWC")])
def test_space_to_depth_against_torch(run: Any, block: int, layout: str) -> None:
    """PyTorch's pixel_unshuffle with its channel read as (c, by, bx); TVM's
    (whatever the mode) as (by, bx, c), i.e. depth_to_space's DCR inverse."""
    data = random((2, 3, 6, 12), 2)
    n, c, h, w = data.shape
    unshuffled = F.pixel_unshuffle(t(data), block).reshape(
        n, c, block * block, h // block, w // block
    )
    expected = unshuffled.transpose(1, 2).reshape(n, c * block * block, h // block, w // block)
    if layout == "NHWC":
        nhwc = data.transpose(0, 2, 3, 1)
        call = f'nn.space_to_depth(%a, block_size={block}, layout="NHWC")'
        close(run(program(call, nhwc.shape), nhwc), expected.permute(0, 2, 3, 1))
    else:
        close(
            run(program(f"nn.space_to_depth(%a, block_size={block})", data.shape), data), expected
        )
