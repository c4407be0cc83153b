"""Division and remainder lowered, compiled and run against the interpreter:
every rounding on negative operands and zero divisors, each integer width
TOSA computes (8 and 16 bits widened), float32 and float16, broadcasting."""

from __future__ import annotations

import numpy as np
import pytest

OPERATORS = ("divide", "floor_divide", "trunc_divide", "mod", "floor_mod", "trunc_mod")
DIVIDENDS = np.array([[7, -7, 7, -7, 6, -6, 0, 5], [9, -9, 1, -1, 12, -13, 3, -4]])
DIVISORS = np.array([[2, 2, -2, -2, 3, 3, 5, 0], [4, 4, -4, -4, 0, 5, -3, 7]])
FLOAT_DIVIDENDS = np.array([[7.5, -7.5, 7.5, -7.5, 6.0, -6.0, 49.0, 0.3]])
FLOAT_DIVISORS = np.array([[2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 49.0, 0.1]])


def program(operator: str, a: str, b: str) -> str:
    """``operator(%a, %b)`` of tensors of the Relay types `a` and `b`."""
    return f"def @main(%a: Tensor[{a}], %b: Tensor[{b}]) {{ {operator}(%a, %b) }}"


CASES = {}
for operator in OPERATORS:
    for dtype in ("int8", "int16", "int32", "int64"):
        CASES[f"{operator}_{dtype}"] = (
            program(operator, f"(2, 8), {dtype}", f"(2, 8), {dtype}"),
            {"a": DIVIDENDS.astype(dtype), "b": DIVISORS.astype(dtype)},
        )
    for dtype in ("float32", "float16"):
        CASES[f"{operator}_{dtype}"] = (
            program(operator, f"(1, 8), {dtype}", f"(1, 8), {dtype}"),
            {"a": FLOAT_DIVIDENDS.astype(dtype), "b": FLOAT_DIVISORS.astype(dtype)},
        )
    CASES[f"{operator}_broadcast"] = (
        program(operator, "(2, 1, 8), int32", "(3, 1), int32"),
        {
            "a": DIVIDENDS.reshape(2, 1, 8).astype(np.int32),
            "b": np.array([[3], [-2], [0]], np.int32),
        },
    )

for dtype in ("int32", "int64"):
    lowest = np.iinfo(dtype).min
    for operator in ("divide", "floor_divide", "floor_mod"):
        CASES[f"{operator}_{dtype}_overflow"] = (
            program(operator, f"(3,), {dtype}", f"(3,), {dtype}"),
            {"a": np.array([lowest, lowest, 5], dtype), "b": np.array([-1, 1, -1], dtype)},
        )


@pytest.mark.parametrize("name", CASES)
def test_lowering(lowered_cases, name: str):
    lowered_cases.check(name)
