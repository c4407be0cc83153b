"""The dynamic kernels: shape-like values read at run time, against numpy."""

from __future__ import annotations

import numpy as np
import pytest

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
IMAGE = np.arange(2 * 3 * 4, dtype=np.float32).reshape(1, 2, 3, 4)


def _i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


@pytest.mark.parametrize(
    ("newshape", "shape"), [((6, 4), (6, 4)), ((0, -1), (2, 12)), ((-3, 4), (6, 4))]
)
def test_reshape(evaluate, newshape, shape):
    result = evaluate("dyn.reshape(%x, %s, newshape=[])", x=X, s=_i64(*newshape))
    np.testing.assert_array_equal(result, X.reshape(shape))


def test_broadcast_to_and_tile(evaluate):
    row = np.arange(3, dtype=np.float32)
    result = evaluate("dyn.broadcast_to(%r, %s)", r=row, s=_i64(2, 3))
    np.testing.assert_array_equal(result, np.broadcast_to(row, (2, 3)))
    tiled = evaluate("dyn.tile(%x, %s, reps=[])", x=X, s=_i64(2, 1, 3))
    np.testing.assert_array_equal(tiled, np.tile(X, (2, 1, 3)))


def test_full_zeros_ones(evaluate):
    full = evaluate('dyn.full(3f, %s, dtype="int32")', s=_i64(2, 5))
    np.testing.assert_array_equal(full, np.full((2, 5), 3, np.int32))
    zeros = evaluate('dyn.zeros(%s, dtype="float16")', s=_i64(4))
    assert zeros.dtype == np.float16 and zeros.shape == (4,) and not zeros.any()
    ones = evaluate('dyn.ones(%s, dtype="int64")', s=_i64(1, 2, 3))
    np.testing.assert_array_equal(ones, np.ones((1, 2, 3), np.int64))


def test_strided_slice(evaluate):
    begin, end, strides = _i64(1, 0), _i64(2, 3), _i64(1, 2)
    result = evaluate("dyn.strided_slice(%x, %b, %e, %s)", x=X, b=begin, e=end, s=strides)
    np.testing.assert_array_equal(result, X[1:2, 0:3:2])
    sizes = evaluate(
        'dyn.strided_slice(%x, %b, %e, %s, slice_mode="size")',
        x=X,
        b=begin,
        e=_i64(1, -1),
        s=strides,
    )
    np.testing.assert_array_equal(sizes, X[1:2, 0:])


def test_squeeze_and_expand_dims(evaluate):
    y = X.reshape(2, 1, 3, 1, 4)
    np.testing.assert_array_equal(
        evaluate("dyn.squeeze(%y, %a)", y=y, a=_i64(3)), X.reshape(2, 1, 3, 4)
    )
    expanded = evaluate("dyn.expand_dims(%x, %a, num_newaxis=2)", x=X, a=np.array(1, np.int32))
    np.testing.assert_array_equal(expanded, X.reshape(2, 1, 1, 3, 4))


def test_topk(evaluate):
    data = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]], np.float32)
    values, indices = evaluate("dyn.topk(%d, %k)", d=data, k=np.array(2, np.int32))
    np.testing.assert_array_equal(values, -np.sort(-data, axis=1)[:, :2])
    np.testing.assert_array_equal(indices, np.argsort(-data, axis=1, kind="stable")[:, :2])
    assert indices.dtype == np.int32


def test_one_hot(evaluate):
    indices = np.array([0, 2, 1], np.int32)
    result = evaluate(
        'dyn.one_hot(%i, 5f, 0f, %d, dtype="float32")', i=indices, d=np.array(4, np.int32)
    )
    np.testing.assert_array_equal(result, 5 * np.eye(4, dtype=np.float32)[indices])


def test_pad(evaluate):
    widths = np.array([[0, 0], [0, 0], [1, 2], [0, 1]], np.int64)
    result = evaluate("dyn.nn.pad(%x, %w, 7f, pad_width=[])", x=IMAGE, w=widths)
    np.testing.assert_array_equal(result, np.pad(IMAGE, widths, constant_values=7))


def test_upsampling_and_resize(evaluate):
    result = evaluate("dyn.nn.upsampling(%x, 2f, 3f)", x=IMAGE)
    np.testing.assert_array_equal(result, IMAGE.repeat(2, axis=2).repeat(3, axis=3))
    volume = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2)
    upsampled = evaluate("dyn.nn.upsampling3d(%v, 2f, 1f, 2f)", v=volume)
    static = evaluate("nn.upsampling3d(%v, scale_d=2f, scale_h=1f, scale_w=2f)", v=volume)
    assert upsampled.shape == (1, 1, 4, 2, 4)
    np.testing.assert_array_equal(upsampled, static)
    roi = np.zeros(4, np.float32)
    resized = evaluate(
        'dyn.image.resize2d(%x, %s, %r, method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor")',
        x=IMAGE,
        s=_i64(6, 8),
        r=roi,
    )
    np.testing.assert_array_equal(resized, IMAGE.repeat(2, axis=2).repeat(2, axis=3))


def test_sparse_to_dense(evaluate):
    indices = np.array([[0, 1], [2, 3]], np.int64)
    values = np.array([5, 6], np.float32)
    result = evaluate("dyn.sparse_to_dense(%i, %v, -1f, %s)", i=indices, v=values, s=_i64(3, 4))
    expected = np.full((3, 4), -1, np.float32)
    expected[0, 1], expected[2, 3] = 5, 6
    np.testing.assert_array_equal(result, expected)
    vector = evaluate("dyn.sparse_to_dense(%i, 1f, 0f, %s)", i=_i64(0, 3), s=_i64(5))
    np.testing.assert_array_equal(vector, [1, 0, 0, 1, 0])


def test_a_shape_the_data_does_not_fit_is_an_error(evaluate):
    from relay_xdsl.interpreter.errors import InterpreterError

    with pytest.raises(InterpreterError, match="reshape"):
        evaluate("dyn.reshape(%x, %s, newshape=[])", x=X, s=_i64(5, 5))
