"""The bitwise and logical operators lowered, compiled and run against the
interpreter: each integer width, booleans, negative operands (arithmetic
right shifts), broadcasting."""

from __future__ import annotations

import numpy as np
import pytest

RNG = np.random.default_rng(3)
A = np.array([[-128, -7, -1, 0, 1, 5, 100, 127], [3, -3, 12, -12, 64, -64, 15, 85]])
B = np.array([[1, 2, 3, 0, 7, 1, 2, 6]])
P = RNG.integers(0, 2, (2, 8)).astype(bool)
Q = RNG.integers(0, 2, (1, 8)).astype(bool)


def program(operator: str, a: str, b: str | None = None) -> str:
    """``operator`` of tensors of the Relay types `a` (and `b`)."""
    if b is None:
        return f"def @main(%a: Tensor[{a}]) {{ {operator}(%a) }}"
    return f"def @main(%a: Tensor[{a}], %b: Tensor[{b}]) {{ {operator}(%a, %b) }}"


CASES = {}
for operator in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"):
    for dtype in ("int8", "int16", "int32", "int64"):
        CASES[f"{operator}_{dtype}"] = (
            program(operator, f"(2, 8), {dtype}", f"(1, 8), {dtype}"),
            {"a": A.astype(dtype), "b": B.astype(dtype)},
        )
for operator in ("bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor"):
    CASES[f"{operator}_bool"] = (
        program(operator, "(2, 8), bool", "(1, 8), bool"),
        {"a": P, "b": Q},
    )
for dtype in ("int8", "int32", "int64", "bool"):
    data = P if dtype == "bool" else A.astype(dtype)
    CASES[f"bitwise_not_{dtype}"] = (program("bitwise_not", f"(2, 8), {dtype}"), {"a": data})


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
