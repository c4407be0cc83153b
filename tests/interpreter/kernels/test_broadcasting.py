"""The broadcasting kernels against PyTorch, and TVM's integer division and remainder."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(1)

# Operand shapes of every broadcast kind: same rank, size-1 dims, fewer dims, scalars.
SHAPES = [((2, 3, 4), (2, 3, 4)), ((2, 1, 4), (3, 1)), ((4,), (2, 3, 4)), ((), (2, 3)), ((5,), ())]

TORCH_BINARY = [
    ("add", torch.add),
    ("subtract", torch.sub),
    ("multiply", torch.mul),
    ("divide", torch.div),
    ("maximum", torch.maximum),
    ("minimum", torch.minimum),
    ("equal", torch.eq),
    ("not_equal", torch.ne),
    ("less", torch.lt),
    ("less_equal", torch.le),
    ("greater", torch.gt),
    ("greater_equal", torch.ge),
]


@pytest.mark.parametrize(("name", "reference"), TORCH_BINARY, ids=[t[0] for t in TORCH_BINARY])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_binary_against_torch(evaluate, name, reference, shapes):
    a = RNG.integers(-3, 4, shapes[0]).astype(np.float32)
    b = RNG.integers(1, 4, shapes[1]).astype(np.float32)
    actual = evaluate(f"{name}(%a, %b)", a=a, b=b)
    expected = reference(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    np.testing.assert_allclose(actual, expected, rtol=1e-6)


def test_power_against_torch(evaluate):
    a = RNG.uniform(0.5, 2, (3, 4)).astype(np.float32)
    b = RNG.uniform(-2, 2, (4,)).astype(np.float32)
    expected = torch.pow(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    np.testing.assert_allclose(evaluate("power(%a, %b)", a=a, b=b), expected, rtol=1e-6)


A = np.array([-7, 7, -7, 7, 0, -8], np.int32)
B = np.array([2, 2, -2, -2, 3, 3], np.int32)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("divide", [-3, 3, 3, -3, 0, -2]),  # truncated, C's `/`
        ("trunc_divide", [-3, 3, 3, -3, 0, -2]),
        ("floor_divide", [-4, 3, 3, -4, 0, -3]),
        ("mod", [-1, 1, -1, 1, 0, -2]),  # the dividend's sign, C's `%`
        ("trunc_mod", [-1, 1, -1, 1, 0, -2]),
        ("floor_mod", [1, 1, -1, -1, 0, 1]),  # the divisor's sign
    ],
)
def test_integer_division_and_remainder(evaluate, name, expected):
    result = evaluate(f"{name}(%a, %b)", a=A, b=B)
    assert result.dtype == np.int32 and result.tolist() == expected


def test_integer_division_is_exact_for_int64(evaluate):
    a = np.array([2**62 + 1, -(2**62) - 1], np.int64)
    b = np.array([3, 3], np.int64)
    assert evaluate("divide(%a, %b)", a=a, b=b).tolist() == [(2**62 + 1) // 3, -((2**62 + 1) // 3)]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("floor_divide", [-4.0, 3.0, 3.0, -4.0]),
        ("trunc_divide", [-3.0, 3.0, 3.0, -3.0]),
        ("mod", [-1.5, 1.5, -1.5, 1.5]),
        ("floor_mod", [0.5, 1.5, -1.5, -0.5]),
        ("trunc_mod", [-1.5, 1.5, -1.5, 1.5]),
    ],
)
def test_float_division_and_remainder(evaluate, name, expected):
    a = np.array([-7.5, 7.5, -7.5, 7.5], np.float32)
    b = np.array([2, 2, -2, -2], np.float32)
    assert evaluate(f"{name}(%a, %b)", a=a, b=b).tolist() == expected


def test_logical_and_bitwise(evaluate):
    p = np.array([True, True, False, False])
    q = np.array([True, False, True, False])
    assert evaluate("logical_and(%p, %q)", p=p, q=q).tolist() == [True, False, False, False]
    assert evaluate("logical_or(%p, %q)", p=p, q=q).tolist() == [True, True, True, False]
    assert evaluate("logical_xor(%p, %q)", p=p, q=q).tolist() == [False, True, True, False]
    m = np.array([12, -8], np.int32)
    n = np.array([10, 2], np.int32)
    assert evaluate("bitwise_and(%m, %n)", m=m, n=n).tolist() == [8, 0]
    assert evaluate("bitwise_or(%m, %n)", m=m, n=n).tolist() == [14, -6]
    assert evaluate("bitwise_xor(%m, %n)", m=m, n=n).tolist() == [6, -6]
    assert evaluate("left_shift(%m, %n)", m=m, n=n).tolist() == [12 << 10, -32]
    assert evaluate("right_shift(%m, %n)", m=m, n=n).tolist() == [0, -2]  # arithmetic


def test_integer_arithmetic_wraps(evaluate):
    a = np.array([127], np.int8)
    assert evaluate("add(%a, %a)", a=a).tolist() == [-2]


TORCH_DIVISION = [
    ("trunc_divide", lambda a, b: torch.div(a, b, rounding_mode="trunc")),
    ("floor_divide", lambda a, b: torch.div(a, b, rounding_mode="floor")),
    ("mod", torch.fmod),  # truncated: the dividend's sign
    ("trunc_mod", torch.fmod),
    ("floor_mod", torch.remainder),  # floored: the divisor's sign
]


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
@pytest.mark.parametrize(("name", "reference"), TORCH_DIVISION, ids=[d[0] for d in TORCH_DIVISION])
def test_division_and_remainder_against_torch(evaluate, name, reference, dtype):
    """Random signs on both sides, the divisor broadcast from a lower rank."""
    rng = np.random.default_rng(3)
    a = rng.integers(-50, 50, (3, 4, 5)).astype(dtype)
    b = (rng.integers(1, 7, (4, 5)) * rng.choice([-1, 1], (4, 5))).astype(dtype)
    if dtype == "float32":
        a, b = a / np.float32(3), b / np.float32(2)
    expected = reference(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    result = evaluate(f"{name}(%a, %b)", a=a, b=b)
    assert result.dtype == expected.dtype
    np.testing.assert_allclose(result, expected, rtol=1e-6, atol=1e-6)
