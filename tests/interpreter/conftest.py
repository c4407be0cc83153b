"""The `evaluate` fixture: the value of a Relay expression over named numpy inputs."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.dialects.builtin import TupleType

from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import run
from relay_xdsl.interpreter.runner import function_named


def relay_type(array: np.ndarray) -> str:
    """The Relay tensor type of `array`: ``Tensor[(2, 3), float32]``."""
    dtype = "bool" if array.dtype == np.bool_ else str(array.dtype)
    comma = "," if array.ndim == 1 else ""
    return f"Tensor[({', '.join(map(str, array.shape))}{comma}), {dtype}]"


def evaluate_relay(body: str, **inputs: np.ndarray) -> np.ndarray | list[np.ndarray]:
    """The value of Relay expression `body` (a tuple's as a list) with `inputs` as parameters."""
    params = ", ".join(f"%{name}: {relay_type(a)}" for name, a in inputs.items())
    module = parse_relay(f'#[version = "0.0.5"]\ndef @main({params}) {{ {body} }}', "test")
    results = run(module, inputs)
    (result_type,) = function_named(module, "main").function_type.outputs.data
    return results if isinstance(result_type, TupleType) else results[0]


@pytest.fixture
def evaluate() -> Callable[..., np.ndarray | list[np.ndarray]]:
    return evaluate_relay
