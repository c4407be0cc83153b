"""The gathering kernels: take's modes and batch_dims, gather, gather_nd, one_hot."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize(
    ("mode", "indices", "expected"),
    [
        ("clip", [-1, -3, 2, 3, 5], [0, 0, 2, 3, 3]),  # a negative index gives element 0
        ("wrap", [-1, -3, 2, 3, 5], [3, 1, 2, 3, 1]),
        ("fast", [-1, -3, 2, 3, -4], [3, 1, 2, 3, 0]),  # negative counts from the end
    ],
)
def test_take_modes(evaluate, mode, indices, expected):
    data = np.arange(4, dtype=np.float32)
    i = np.array(indices, np.int32)
    assert evaluate(f'take(%d, %i, mode="{mode}")', d=data, i=i).tolist() == expected


def test_take_along_an_axis_and_flattened(evaluate):
    indices = np.array([[2, 0], [1, 1]], np.int32)
    np.testing.assert_array_equal(
        evaluate("take(%x, %i, axis=-1)", x=X, i=indices), np.take(X, indices, -1)
    )
    np.testing.assert_array_equal(evaluate("take(%x, %i)", x=X, i=indices), X.ravel()[indices])


def test_take_with_batch_dims(evaluate):
    indices = np.array([[0, 3, 1], [2, 2, 0]], np.int32)  # one row of indices per batch
    result = evaluate("take(%x, %i, axis=2, batch_dims=1)", x=X, i=indices)
    expected = np.stack([np.take(X[b], indices[b], axis=1) for b in range(2)])
    np.testing.assert_array_equal(result, expected)


def test_gather_against_torch(evaluate):
    indices = np.array([[[0, 2], [1, 1]], [[2, 0], [0, 0]]], np.int64)
    result = evaluate("gather(%x, %i, axis=-1)", x=X[:, :2, :], i=indices.astype(np.int32))
    expected = torch.gather(torch.from_numpy(X[:, :2, :]), -1, torch.from_numpy(indices)).numpy()
    np.testing.assert_array_equal(result, expected)


def test_gather_nd(evaluate):
    indices = np.array([[1, 0], [2, 0]], np.int32)  # two lookups of (data[1][2], data[0][0])
    np.testing.assert_array_equal(evaluate("gather_nd(%x, %i)", x=X, i=indices), X[[1, 0], [2, 0]])
    batched = np.array([[2, 1]], np.int32)  # per batch b: data[b][idx[0][b]]
    result = evaluate("gather_nd(%x, %i, batch_dims=1)", x=X, i=batched)
    np.testing.assert_array_equal(result, np.stack([X[0, 2], X[1, 1]]))


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_one_hot_against_torch(evaluate, axis):
    indices = np.array([[0, 2], [1, 3]], np.int32)
    on, off = np.array(5.0, np.float32), np.array(-1.0, np.float32)
    result = evaluate(
        f'one_hot(%i, %on, %off, depth=3, axis={axis}, dtype="float32")', i=indices, on=on, off=off
    )
    hot = torch.nn.functional.one_hot(torch.from_numpy(indices).long(), 4)[..., :3].numpy()
    expected = np.moveaxis(np.where(hot == 1, 5.0, -1.0), -1, axis).astype(np.float32)
    np.testing.assert_array_equal(result, expected)


def test_an_index_out_of_range_in_fast_mode_is_an_error_naming_the_operator(evaluate):
    from relay_xdsl.interpreter import InterpreterError

    data = np.arange(4, dtype=np.float32)
    with pytest.raises(InterpreterError, match="^take: an index out of range for an axis of 4$"):
        evaluate('take(%d, %i, mode="fast")', d=data, i=np.array([4], np.int32))


def test_gather_nd_against_torch(evaluate):
    """The first M axes indexed by the M rows of `indices`: PyTorch's advanced indexing."""
    rng = np.random.default_rng(5)
    data = rng.standard_normal((4, 3, 5)).astype(np.float32)
    for m, shape in ((1, (2, 3)), (2, (7,)), (3, (2, 2))):
        indices = np.stack([rng.integers(0, data.shape[k], shape) for k in range(m)]).astype(
            "int32"
        )
        expected = torch.from_numpy(data)[tuple(torch.from_numpy(indices).long())].numpy()
        np.testing.assert_array_equal(evaluate("gather_nd(%d, %i)", d=data, i=indices), expected)
