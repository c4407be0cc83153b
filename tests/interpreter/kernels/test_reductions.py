"""The reduction kernels against PyTorch: axes, keepdims, exclude, argmax/argmin ties."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(2)
X = RNG.uniform(-2, 2, (2, 3, 4)).astype(np.float32)

# (Relay attributes, the axes they reduce, keepdims)
AXES = [
    ("", (0, 1, 2), False),
    ("axis=[1]", (1,), False),
    ("axis=[-1], keepdims=True", (2,), True),
    ("axis=[0, 2]", (0, 2), False),
    ("axis=[1], exclude=True", (0, 2), False),
    ("axis=[-3, 1], keepdims=True, exclude=True", (2,), True),
]

REDUCTIONS = [
    ("sum", lambda t, d, k: torch.sum(t, d, keepdim=k)),
    ("mean", lambda t, d, k: torch.mean(t, d, keepdim=k)),
    ("max", lambda t, d, k: torch.amax(t, d, keepdim=k)),
    ("min", lambda t, d, k: torch.amin(t, d, keepdim=k)),
    ("prod", lambda t, d, k: _prod(t, d, k)),
]


def _prod(t, dims, keepdim):
    for d in sorted(dims, reverse=True):
        t = torch.prod(t, d, keepdim=keepdim)
    return t


@pytest.mark.parametrize(("name", "reference"), REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
@pytest.mark.parametrize(("attrs", "dims", "keepdims"), AXES, ids=[a[0] or "all" for a in AXES])
def test_reduction_against_torch(evaluate, name, reference, attrs, dims, keepdims):
    body = f"{name}(%x, {attrs})" if attrs else f"{name}(%x)"
    actual = evaluate(body, x=X)
    expected = reference(torch.from_numpy(X), dims, keepdims).numpy()
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


def test_empty_axis_list_reduces_every_axis(evaluate):
    # TVM's GetReduceAxes: an empty list is every axis, exclude or not.
    np.testing.assert_allclose(evaluate("sum(%x, axis=[])", x=X), X.sum(), rtol=1e-5)
    np.testing.assert_allclose(evaluate("max(%x, axis=[], exclude=True)", x=X), X.max())


def test_all_and_any(evaluate):
    b = np.array([[True, False], [True, True]])
    assert evaluate("all(%b, axis=[1])", b=b).tolist() == [False, True]
    assert evaluate("any(%b, axis=[0])", b=b).tolist() == [True, True]
    assert evaluate("all(%b)", b=b).tolist() is False


def test_integer_mean_truncates(evaluate):
    n = np.array([[-3, -4], [3, 4]], np.int32)
    result = evaluate("mean(%n, axis=[1])", n=n)
    assert result.dtype == np.int32 and result.tolist() == [-3, 3]


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_arg_reduction_against_torch(evaluate, name, axis):
    actual = evaluate(f"{name}(%x, axis=[{axis}], keepdims=True)", x=X)
    expected = getattr(torch, name)(torch.from_numpy(X), axis, keepdim=True).numpy()
    assert actual.dtype == np.int32
    np.testing.assert_array_equal(actual, expected)


def test_arg_reduction_ties_and_several_axes(evaluate):
    t = np.array([[1, 5, 5], [5, 0, 5]], np.float32)
    assert evaluate("argmax(%t, axis=[1])", t=t).tolist() == [1, 0]
    assert evaluate("argmax(%t, axis=[1], select_last_index=True)", t=t).tolist() == [2, 2]
    assert evaluate("argmin(%t, axis=[0], select_last_index=True)", t=t).tolist() == [0, 1, 1]
    # Over all axes: the flat index (row-major) into the reduced axes.
    assert evaluate("argmax(%t)", t=t).tolist() == 1
    assert evaluate("argmax(%t, select_last_index=True)", t=t).tolist() == 5
    assert evaluate("argmin(%t, axis=[1], exclude=True)", t=t).tolist() == [0, 1, 0]


@pytest.mark.parametrize("unbiased", [False, True])
def test_variance_against_torch(evaluate, unbiased):
    mean = X.mean(axis=(0, 2), keepdims=True)
    flag = "True" if unbiased else "False"
    actual = evaluate(f"variance(%x, %m, axis=[0, 2], unbiased={flag})", x=X, m=mean)
    expected = torch.var(torch.from_numpy(X), (0, 2), correction=int(unbiased)).numpy()
    np.testing.assert_allclose(actual, expected, rtol=1e-5)


def test_float16_mean_sums_in_float32(evaluate):
    h = np.full((4096,), 1000, np.float16)  # the float16 sum would overflow to inf
    assert evaluate("mean(%h)", h=h).tolist() == 1000
    assert evaluate("variance(%h, %m)", h=h, m=np.float16([1000])).tolist() == 0


@pytest.mark.parametrize("like_shape", [(3, 1), (1, 4), (2, 3, 4), (4,), (1, 1, 1)])
def test_collapse_sum_like_against_torch_sum_to_size(evaluate, like_shape):
    like = np.zeros(like_shape, np.float32)
    actual = evaluate("collapse_sum_like(%x, %like)", x=X, like=like)
    expected = torch.from_numpy(X).sum_to_size(like_shape).numpy()
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("axis", "keepdims"), [([1], False), ([0, 2], True), ([-1], False), ([], True)]
)
def test_all_and_any_against_torch(evaluate, axis, keepdims):
    b = np.random.default_rng(6).uniform(size=(3, 4, 2)) < 0.7
    dims = tuple(axis) or (0, 1, 2)
    for name in ("all", "any"):
        spelled = f"{name}(%b, axis={list(axis)}, keepdims={keepdims})"
        reduce = getattr(torch, name)
        expected = torch.from_numpy(b)
        for dim in sorted((d % 3 for d in dims), reverse=True):
            expected = reduce(expected, dim=dim, keepdim=keepdims)
        np.testing.assert_array_equal(evaluate(spelled, b=b), expected.numpy())
    excluded = evaluate("all(%b, axis=[1], exclude=True)", b=b)
    np.testing.assert_array_equal(excluded, torch.from_numpy(b).all(2).all(0).numpy())
