"""The unary, clipping, cast and creation kernels against PyTorch and exact references."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


X = RNG.uniform(-3, 3, (2, 3, 4)).astype(np.float32)
POSITIVE = RNG.uniform(0.1, 3, (2, 3, 4)).astype(np.float32)
UNIT = RNG.uniform(-0.99, 0.99, (2, 3, 4)).astype(np.float32)

TORCH_UNARY = [
    ("negative", X, torch.neg),
    ("exp", X, torch.exp),
    ("fast_exp", X, torch.exp),
    ("log", POSITIVE, torch.log),
    ("log2", POSITIVE, torch.log2),
    ("log10", POSITIVE, torch.log10),
    ("sqrt", POSITIVE, torch.sqrt),
    ("rsqrt", POSITIVE, torch.rsqrt),
    ("erf", X, torch.erf),
    ("fast_erf", X, torch.erf),
    ("tanh", X, torch.tanh),
    ("fast_tanh", X, torch.tanh),
    ("sigmoid", X, torch.sigmoid),
    ("cos", X, torch.cos),
    ("sin", X, torch.sin),
    ("tan", UNIT, torch.tan),
    ("cosh", X, torch.cosh),
    ("sinh", X, torch.sinh),
    ("acos", UNIT, torch.acos),
    ("acosh", POSITIVE + 1, torch.acosh),
    ("asin", UNIT, torch.asin),
    ("asinh", X, torch.asinh),
    ("atan", X, torch.atan),
    ("atanh", UNIT, torch.atanh),
    ("floor", X, torch.floor),
    ("ceil", X, torch.ceil),
    ("trunc", X, torch.trunc),
    ("abs", X, torch.abs),
    ("sign", X, torch.sign),
    ("copy", X, torch.clone),
    ("isnan", X, torch.isnan),
    ("isinf", X, torch.isinf),
    ("isfinite", X, torch.isfinite),
    ("zeros_like", X, torch.zeros_like),
    ("ones_like", X, torch.ones_like),
]


@pytest.mark.parametrize(("name", "x", "reference"), TORCH_UNARY, ids=[t[0] for t in TORCH_UNARY])
def test_unary_against_torch(evaluate, name, x, reference):
    actual = evaluate(f"{name}(%x)", x=x)
    expected = reference(torch.from_numpy(x)).numpy()
    assert actual.dtype == expected.dtype
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=2e-6)


def test_round_halves_away_from_zero(evaluate):
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997, -0.7], np.float32)
    assert evaluate("round(%x)", x=x).tolist() == [-3, -2, -1, 1, 2, 3, 0, -1]


def test_erf_is_accurate_everywhere(evaluate):
    x = np.linspace(-6, 6, 1001)
    expected = np.array([math.erf(v) for v in x])
    np.testing.assert_allclose(evaluate("erf(%x)", x=x), expected, atol=2e-7)


def test_sign_of_nan_and_integers(evaluate):
    x = np.array([np.nan, -0.0, 3.0], np.float32)
    assert evaluate("sign(%x)", x=x).tolist() == [0.0, 0.0, 1.0]
    n = np.array([-4, 0, 9], np.int32)
    assert evaluate("sign(%n)", n=n).tolist() == [-1, 0, 1]


def test_logical_and_bitwise_not(evaluate):
    b = np.array([True, False])
    assert evaluate("logical_not(%b)", b=b).tolist() == [False, True]
    n = np.array([0, 5], np.int8)
    assert evaluate("bitwise_not(%n)", n=n).tolist() == [-1, -6]


def test_clip_casts_its_bounds_to_the_dtype(evaluate):
    x = np.array([-5, 0, 2, 9], np.int32)
    assert evaluate("clip(%x, a_min=-1.5f, a_max=3.7f)", x=x).tolist() == [-1, 0, 2, 3]
    f = np.array([-5, 0.25, 9], np.float32)
    assert evaluate("clip(%f, a_min=-1.5f, a_max=3.5f)", f=f).tolist() == [-1.5, 0.25, 3.5]


def test_casts(evaluate):
    x = np.array([-2.7, -0.2, 0.0, 1.9], np.float32)
    assert evaluate('cast(%x, dtype="int32")', x=x).tolist() == [-2, 0, 0, 1]
    assert evaluate('cast(%x, dtype="bool")', x=x).tolist() == [True, True, False, True]
    like = np.zeros(1, np.int8)
    result = evaluate("cast_like(%x, %like)", x=x, like=like)
    assert result.dtype == np.int8 and result.tolist() == [-2, 0, 0, 1]
    bits = evaluate('reinterpret(%x, dtype="int32")', x=x)
    np.testing.assert_array_equal(bits, x.view(np.int32))


def test_creation(evaluate):
    fill = np.array(2.5, np.float32)
    full = evaluate('full(%v, shape=[2, 3], dtype="int32")', v=fill)
    assert full.dtype == np.int32 and full.tolist() == [[2, 2, 2]] * 2
    like = evaluate("full_like(%x, %v)", x=X, v=fill)
    assert like.shape == X.shape and np.all(like == 2.5)
    zeros = evaluate('zeros(shape=[2], dtype="float16")')
    assert zeros.dtype == np.float16 and zeros.tolist() == [0, 0]
    assert evaluate('ones(shape=[], dtype="int64")').tolist() == 1


def test_where_broadcasts_all_three(evaluate):
    c = np.array([[True], [False]])
    a = np.arange(3, dtype=np.float32)
    b = np.float32(-1) * np.ones((2, 1, 1), np.float32)
    expected = np.where(c, a, b)
    np.testing.assert_array_equal(evaluate("where(%c, %a, %b)", c=c, a=a, b=b), expected)


def test_casts_and_creation_against_torch(evaluate):
    x = np.random.default_rng(4).uniform(-100, 100, (3, 5)).astype(np.float32)
    t = torch.from_numpy(x)
    for dtype, torch_dtype in (("int8", torch.int8), ("int32", torch.int32), ("bool", torch.bool)):
        like = np.zeros((1,), dtype)
        if dtype == "int8":
            t_in, x_in = (t / 2).clamp(-127, 127), np.clip(x / 2, -127, 127)  # no overflow
        else:
            t_in, x_in = t, x
        result = evaluate("cast_like(%x, %like)", x=x_in, like=like)
        np.testing.assert_array_equal(result, t_in.to(torch_dtype).numpy())
    for dtype, torch_dtype in (("int32", torch.int32), ("uint32", torch.uint32)):
        bits = evaluate(f'reinterpret(%x, dtype="{dtype}")', x=x)
        np.testing.assert_array_equal(bits, t.view(torch_dtype).numpy())
    fill = np.array(-2.75, np.float32)
    full = evaluate('full(%v, shape=[2, 3, 1], dtype="float32")', v=fill)
    np.testing.assert_array_equal(full, torch.full((2, 3, 1), -2.75).numpy())
    zeros = evaluate('zeros(shape=[4, 2], dtype="int64")')
    np.testing.assert_array_equal(zeros, torch.zeros((4, 2), dtype=torch.int64).numpy())
    assert zeros.dtype == np.int64
    ones = evaluate('ones(shape=[3], dtype="float16")')
    np.testing.assert_array_equal(ones, torch.ones(3, dtype=torch.float16).numpy())
    assert ones.dtype == np.float16
