"""The structural ops' custom syntax: what xDSL's own printing would write."""

from __future__ import annotations

import io
import random

import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    TensorType,
    i32,
)
from xdsl.printer import Printer

from relay_xdsl.dialects import relay


def _printed(op: relay.ConstantOp) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(op)
    return stream.getvalue()


def _xdsl_printed(value: DenseIntOrFPElementsAttr) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(value)
    return stream.getvalue()


@pytest.mark.parametrize("element", [Float16Type(), BFloat16Type(), Float32Type(), Float64Type()])
@pytest.mark.parametrize("shape", [[2], [1, 8, 1, 1], [2, 3], [4, 2, 2], [16]])
def test_a_small_float_constant_prints_as_xdsl_prints_it(element, shape):
    rng = random.Random(f"{element} {shape}")
    count = 1
    for size in shape:
        count *= size
    samples = [rng.uniform(-1, 1) for _ in range(count - 3)]
    samples += [rng.choice([0.5, 1e-3, 3.0e4, -2.0, 0.1])] + [1.0, 0.0][: count - len(samples)]
    value = DenseIntOrFPElementsAttr.from_list(TensorType(element, shape), samples[:count])
    if value.is_splat():
        pytest.skip("a splat is xDSL's own printing")
    printed = _printed(relay.ConstantOp(value.type, value))
    assert printed == "%0 = relay.constant " + _xdsl_printed(value)


@pytest.mark.parametrize("element", [Float32Type(), Float64Type()])
def test_floats_that_need_every_digit_print_as_xdsl_prints_them(element):
    """Values whose short spelling does not read back, or that sit at the ends
    of the type's range, among ordinary ones."""
    rng = random.Random(str(element))
    edges = [3.4028234663852886e38, 1.17549435e-38, 1e-45, -0.0, 16777217.0, 0.1, 1 / 3]
    samples = [rng.uniform(-1e6, 1e6) for _ in range(5)] + [rng.random() * 1e-30 for _ in range(2)]
    for chunk in (edges, samples):
        value = DenseIntOrFPElementsAttr.from_list(TensorType(element, [len(chunk)]), chunk)
        printed = _printed(relay.ConstantOp(value.type, value))
        assert printed == "%0 = relay.constant " + _xdsl_printed(value)


def test_other_constants_are_printed_by_xdsl():
    ints = DenseIntOrFPElementsAttr.from_list(TensorType(i32, [2, 2]), [1, -2, 3, 4])
    splat = DenseIntOrFPElementsAttr.from_list(TensorType(Float32Type(), [2, 2]), [0.5] * 4)
    resource = DenseResourceAttr.from_params("bias", TensorType(Float32Type(), [4]))
    for value in (ints, splat, resource):
        printed = _printed(relay.ConstantOp(value.type, value))
        assert printed == "%0 = relay.constant " + _xdsl_printed(value)
