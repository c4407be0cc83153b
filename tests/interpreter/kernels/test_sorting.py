"""The sorting kernels: stable order both ways, topk's k and ret_type."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(3)
X = RNG.permutation(24).reshape(2, 3, 4).astype(np.float32)
TIES = np.array([[3, 1, 3, 2, 1]], np.float32)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("ascend", [True, False])
def test_sort_and_argsort_against_torch(evaluate, axis, ascend):
    flag = "True" if ascend else "False"
    values, indices = torch.sort(torch.from_numpy(X), stable=True, dim=axis, descending=not ascend)
    sorted_ = evaluate(f"sort(%x, axis={axis}, is_ascend={flag})", x=X)
    order = evaluate(f'argsort(%x, axis={axis}, is_ascend={flag}, dtype="int32")', x=X)
    np.testing.assert_array_equal(sorted_, values.numpy())
    assert order.dtype == np.int32
    np.testing.assert_array_equal(order, indices.numpy())


def test_sorting_is_stable_both_ways(evaluate):
    assert evaluate('argsort(%t, dtype="int32")', t=TIES).tolist() == [[1, 4, 3, 0, 2]]
    descending = evaluate('argsort(%t, is_ascend=False, dtype="int32")', t=TIES)
    assert descending.tolist() == [[0, 2, 3, 1, 4]]
    order = evaluate('argsort(%t, dtype="int64")', t=TIES)
    assert evaluate("argsort(%t)", t=TIES).dtype == np.int32  # TVM's default dtype
    assert order.dtype == np.int64


@pytest.mark.parametrize("axis", [1, -1])
def test_topk_against_torch(evaluate, axis):
    values, indices = evaluate(f'topk(%x, k=2, axis={axis}, dtype="int32")', x=X)
    expected = torch.topk(torch.from_numpy(X), 2, axis)
    np.testing.assert_array_equal(values, expected.values.numpy())
    np.testing.assert_array_equal(indices, expected.indices.numpy())
    smallest = evaluate(
        f'topk(%x, k=2, axis={axis}, ret_type="values", is_ascend=True, dtype="int32")', x=X
    )
    expected = torch.topk(torch.from_numpy(X), 2, axis, largest=False).values.numpy()
    np.testing.assert_array_equal(smallest, expected)


def test_topk_k_below_one_keeps_the_axis(evaluate):
    indices = evaluate('topk(%t, k=0, ret_type="indices", dtype="int32")', t=TIES)
    assert indices.dtype == np.int32 and indices.tolist() == [[0, 2, 3, 1, 4]]
