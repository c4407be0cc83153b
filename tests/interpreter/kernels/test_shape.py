"""The shape kernels: TVM's reshape values, slicing bounds, layouts, against numpy/PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize(
    ("newshape", "shape"),
    [
        ("[6, 4]", (6, 4)),
        ("[0, -1]", (2, 12)),  # 0 copies a dimension, -1 infers one
        ("[-2]", (2, 3, 4)),  # -2 copies the remaining dimensions
        ("[-3, 4]", (6, 4)),  # -3 merges two dimensions
        ("[-4, 1, 2, -2]", (1, 2, 3, 4)),  # -4 splits one into the next two
        ("[2, -4, -1, 3, 4]", (2, 1, 3, 4)),
    ],
)
def test_reshape_special_values(evaluate, newshape, shape):
    result = evaluate(f"reshape(%x, newshape={newshape})", x=X)
    np.testing.assert_array_equal(result, X.reshape(shape))


def test_squeeze_expand_dims_and_reshape_like(evaluate):
    y = X.reshape(2, 1, 3, 1, 4)
    assert evaluate("squeeze(%y)", y=y).shape == (2, 3, 4)
    assert evaluate("squeeze(%y, axis=[-2])", y=y).shape == (2, 1, 3, 4)
    assert evaluate("expand_dims(%x, axis=-1, num_newaxis=2)", x=X).shape == (2, 3, 4, 1, 1)
    assert evaluate("expand_dims(%x, axis=1)", x=X).shape == (2, 1, 3, 4)
    like = np.zeros((4, 6), np.int8)
    np.testing.assert_array_equal(evaluate("reshape_like(%x, %l)", x=X, l=like), X.reshape(4, 6))


def test_transpose(evaluate):
    np.testing.assert_array_equal(evaluate("transpose(%x)", x=X), X.transpose())
    result = evaluate("transpose(%x, axes=[1, -1, 0])", x=X)
    np.testing.assert_array_equal(result, torch.from_numpy(X).permute(1, 2, 0).numpy())


def test_concatenate_and_stack(evaluate):
    y = X + 100
    np.testing.assert_array_equal(
        evaluate("concatenate((%x, %y), axis=-1)", x=X, y=y), np.concatenate((X, y), -1)
    )
    np.testing.assert_array_equal(
        evaluate("stack((%x, %y), axis=-1)", x=X, y=y),
        torch.stack((torch.from_numpy(X), torch.from_numpy(y)), -1).numpy(),
    )


def test_split_sections_and_indices(evaluate):
    parts = evaluate("split(%x, indices_or_sections=2, axis=-1)", x=X)
    for part, expected in zip(parts, np.split(X, 2, -1)):
        np.testing.assert_array_equal(part, expected)
    parts = evaluate("split(%x, indices_or_sections=[1, 3], axis=2)", x=X)
    assert [p.shape for p in parts] == [(2, 3, 1), (2, 3, 2), (2, 3, 1)]


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ("begin=[0, 1], end=[2, 3], strides=[1, 1]", X[0:2, 1:3]),
        ("begin=[1, -1], end=[2, -4], strides=[1, -1]", X[1:2, 2:-4:-1]),
        ("begin=[0, 0, 3], end=[2, 3, -5], strides=[1, 1, -2]", X[:, :, 3::-2]),
        ("begin=[-100], end=[100], strides=[1]", X),
        ('begin=[0, 2], end=[-1, 1], strides=[1], slice_mode="size"', X[:, 2:3]),
        ("begin=[1], end=[3], strides=[2], axes=[2]", X[:, :, 1:3:2]),
        # A missing end of a negative stride is 0, exclusive (TVM's defaults).
        ("begin=[2], end=[], strides=[-1]", X[2:0:-1]),
    ],
)
def test_strided_slice(evaluate, attrs, expected):
    np.testing.assert_array_equal(evaluate(f"strided_slice(%x, {attrs})", x=X), expected)


def test_slice_like(evaluate):
    like = np.zeros((1, 2, 3), np.float32)
    np.testing.assert_array_equal(evaluate("slice_like(%x, %l)", x=X, l=like), X[:1, :2, :3])
    result = evaluate("slice_like(%x, %l, axes=[-1])", x=X, l=like)
    np.testing.assert_array_equal(result, X[:, :, :3])


def test_repetition_and_reversal(evaluate):
    np.testing.assert_array_equal(
        evaluate("tile(%x, reps=[2, 1, 1, 2])", x=X), np.tile(X, (2, 1, 1, 2))
    )
    np.testing.assert_array_equal(
        evaluate("repeat(%x, repeats=2, axis=-2)", x=X),
        torch.repeat_interleave(torch.from_numpy(X), 2, -2).numpy(),
    )
    np.testing.assert_array_equal(evaluate("reverse(%x, axis=-1)", x=X), X[:, :, ::-1])


def test_broadcasting_to_a_shape(evaluate):
    v = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(
        evaluate("broadcast_to(%v, shape=[2, 3, 4])", v=v), np.broadcast_to(v, (2, 3, 4))
    )
    np.testing.assert_array_equal(
        evaluate("broadcast_to_like(%v, %x)", v=v, x=X), np.broadcast_to(v, (2, 3, 4))
    )


def test_shape_of(evaluate):
    assert evaluate('shape_of(%x, dtype="int32")', x=X).tolist() == [2, 3, 4]
    assert evaluate('shape_of(%x, dtype="int64")', x=X).dtype == np.int64
    written_without_dtype = evaluate("shape_of(%x)", x=X)  # TVM's default: int32
    assert written_without_dtype.dtype == np.int32 and written_without_dtype.tolist() == [2, 3, 4]


def test_layout_transform(evaluate):
    data = np.arange(2 * 8 * 3 * 3, dtype=np.float32).reshape(2, 8, 3, 3)
    nhwc = evaluate('layout_transform(%d, src_layout="NCHW", dst_layout="NHWC")', d=data)
    np.testing.assert_array_equal(nhwc, data.transpose(0, 2, 3, 1))
    blocked = evaluate('layout_transform(%d, src_layout="NCHW", dst_layout="NCHW4c")', d=data)
    np.testing.assert_array_equal(blocked, data.reshape(2, 2, 4, 3, 3).transpose(0, 1, 3, 4, 2))
    back = evaluate('layout_transform(%b, src_layout="NCHW4c", dst_layout="NHWC")', b=blocked)
    np.testing.assert_array_equal(back, data.transpose(0, 2, 3, 1))


def test_layout_transform_of_weights_and_padding_to_a_block(evaluate):
    weight = np.arange(4 * 3 * 2 * 2, dtype=np.float32).reshape(4, 3, 2, 2)
    hwio = evaluate('layout_transform(%w, src_layout="OIHW", dst_layout="HWIO")', w=weight)
    np.testing.assert_array_equal(hwio, weight.transpose(2, 3, 1, 0))
    data = np.arange(6, dtype=np.float32).reshape(1, 6, 1, 1)
    blocked = evaluate('layout_transform(%d, src_layout="NCHW", dst_layout="NCHW4c")', d=data)
    assert blocked.shape == (1, 2, 1, 1, 4)
    assert blocked.ravel().tolist() == [0, 1, 2, 3, 4, 5, 0, 0]  # padded with zeros


def test_vm_reshape_tensor_and_shape_of(evaluate):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    shape = np.array([4, 6], np.int64)
    actual = evaluate("vm.reshape_tensor(%x, %shape, newshape=[4, 6])", x=x, shape=shape)
    np.testing.assert_array_equal(actual, torch.from_numpy(x).reshape(4, 6).numpy())
    assert evaluate('vm.shape_of(%x, dtype="int64")', x=x).tolist() == [2, 3, 4]


@pytest.mark.parametrize(
    ("newshape", "shape"),
    [("[0, -1]", (2, 12)), ("[-3, 4]", (6, 4)), ("[-4, 1, 2, -2]", (1, 2, 3, 4)), ("[-1]", (24,))],
)
def test_reshape_squeeze_and_reshape_like_against_torch(evaluate, newshape, shape):
    t = torch.from_numpy(X)
    result = evaluate(f"reshape(%x, newshape={newshape})", x=X)
    np.testing.assert_array_equal(result, t.reshape(shape).numpy())
    like = np.zeros(tuple(reversed(shape)), np.int8)
    reshaped = evaluate("reshape_like(%x, %l)", x=X, l=like)
    np.testing.assert_array_equal(reshaped, t.reshape(like.shape).numpy())
    y = X.reshape(2, 1, 3, 1, 4)
    np.testing.assert_array_equal(
        evaluate("squeeze(%y)", y=y), torch.from_numpy(y).squeeze().numpy()
    )
    np.testing.assert_array_equal(
        evaluate("squeeze(%y, axis=[-2])", y=y), torch.from_numpy(y).squeeze(-2).numpy()
    )


@pytest.mark.parametrize(
    ("sections", "axis"), [("3", 1), ("[1, 3]", 2), ("[1]", 0), ("[1, 3]", -1)]
)
def test_split_against_torch(evaluate, sections, axis):
    parts = evaluate(f"split(%x, indices_or_sections={sections}, axis={axis})", x=X)
    spec = int(sections) if sections.isdigit() else eval(sections)
    expected = torch.tensor_split(torch.from_numpy(X), spec, dim=axis)
    assert len(parts) == len(expected)
    for part, want in zip(parts, expected):
        np.testing.assert_array_equal(part, want.numpy())


def test_slice_like_and_broadcast_to_like_against_torch(evaluate):
    t = torch.from_numpy(X)
    like = np.zeros((1, 2, 3), np.float32)
    np.testing.assert_array_equal(
        evaluate("slice_like(%x, %l)", x=X, l=like), t[:1, :2, :3].numpy()
    )
    result = evaluate("slice_like(%x, %l, axes=[1, -1])", x=X, l=like)
    np.testing.assert_array_equal(result, t[:, :2, :3].numpy())
    v = np.arange(3, dtype=np.float32).reshape(3, 1)
    wide = np.zeros((2, 3, 4), np.float32)
    result = evaluate("broadcast_to_like(%v, %w)", v=v, w=wide)
    np.testing.assert_array_equal(
        result, torch.broadcast_to(torch.from_numpy(v), (2, 3, 4)).numpy()
    )


def test_layout_transform_against_torch(evaluate):
    """NCHW to NHWC is a permute; to NCHW4c a channel split moved last, zero-padded
    up to a multiple of the block; OIHW to HWIO a permute."""
    data = np.random.default_rng(7).standard_normal((2, 6, 3, 5)).astype(np.float32)
    t = torch.from_numpy(data)
    nhwc = evaluate('layout_transform(%d, src_layout="NCHW", dst_layout="NHWC")', d=data)
    np.testing.assert_array_equal(nhwc, t.permute(0, 2, 3, 1).numpy())
    blocked = evaluate('layout_transform(%d, src_layout="NCHW", dst_layout="NCHW4c")', d=data)
    padded = torch.nn.functional.pad(t, (0, 0, 0, 0, 0, 2))
    expected = padded.reshape(2, 2, 4, 3, 5).permute(0, 1, 3, 4, 2)
    np.testing.assert_array_equal(blocked, expected.numpy())
    hwio = evaluate('layout_transform(%d, src_layout="OIHW", dst_layout="HWIO")', d=data)
    np.testing.assert_array_equal(hwio, t.permute(2, 3, 1, 0).numpy())


STRIDED_SLICES = [
    # Relay attributes; Relax's axes, begin, end, strides for the same slice
    ("begin=[0, 1], end=[2, 3], strides=[1, 1]", [0, 1], [0, 1], [2, 3], [1, 1]),
    ("begin=[1, -1], end=[2, -4], strides=[1, -1]", [0, 1], [1, -1], [2, -4], [1, -1]),
    (
        "begin=[0, 0, 3], end=[2, 3, -5], strides=[1, 1, -2]",
        [0, 1, 2],
        [0, 0, 3],
        [2, 3, -5],
        [1, 1, -2],
    ),
    ("begin=[-100], end=[100], strides=[1]", [0], [-100], [100], [1]),
    ("begin=[1], end=[3], strides=[2], axes=[2]", [2], [1], [3], [2]),
    ("begin=[3, 2], end=[0, 0], strides=[-2, -1], axes=[2, 1]", [2, 1], [3, 2], [0, 0], [-2, -1]),
]


@pytest.mark.tvm
@pytest.mark.parametrize(("attrs", "axes", "begin", "end", "strides"), STRIDED_SLICES)
def test_strided_slice_against_tvm(evaluate, in_tvm, attrs, axes, begin, end, strides):
    """Negative strides and begins, out-of-range bounds: TVM 0.27's strided_slice."""
    from tvm import relax

    expected = in_tvm(lambda x: relax.op.strided_slice(x, axes, begin, end, strides), X)
    np.testing.assert_array_equal(evaluate(f"strided_slice(%x, {attrs})", x=X), expected)
