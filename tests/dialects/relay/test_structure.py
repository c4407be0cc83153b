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
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

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


def _fn_module(use_outer: bool, nested: bool = False) -> ModuleOp:
    """``func.func`` of one ``relay.fn`` whose body adds its parameter to
    itself, or (`use_outer`) to the function's argument; (`nested`) inside a
    ``relay.fn`` of its own."""
    t = TensorType(Float32Type(), [2])
    func = FuncOp("f", ((t,), (t,)))
    outer = func.body.block.args[0]
    inner = Block(arg_types=(t,))
    other = outer if use_outer else inner.args[0]
    add = relay.AddOp([inner.args[0], other], t)
    inner.add_ops([add, relay.ReturnOp(add.results[0])])
    if nested:
        wrapper = Block(arg_types=(t,))
        fn = relay.FnOp([wrapper.args[0]], t, Region(inner))
        wrapper.add_ops([fn, relay.ReturnOp(fn.result)])
        inner = wrapper
    fn = relay.FnOp([outer], t, Region(inner))
    func.body.block.add_ops([fn, ReturnOp(fn.result)])
    return ModuleOp([func])


@pytest.mark.parametrize("nested", [False, True])
def test_a_fn_body_that_uses_an_outer_value_does_not_verify(nested: bool):
    _fn_module(use_outer=False, nested=nested).verify()
    with pytest.raises(VerifyException, match="IsolatedFromAbove parent"):
        _fn_module(use_outer=True, nested=nested).verify()


def test_a_return_is_checked_where_it_stands_each_time():
    t = TensorType(Float32Type(), [2])
    _fn_module(use_outer=False).verify()  # a relay.return of this type in a relay.fn
    func = FuncOp("g", ((t,), (t,)))
    func.body.block.add_ops([relay.ReturnOp(func.body.block.args[0])])
    with pytest.raises(VerifyException, match="expects parent op 'relay.fn'"):
        ModuleOp([func]).verify()


def test_a_return_that_does_not_end_its_block_is_an_error_each_time():
    module = _fn_module(use_outer=False)
    module.verify()  # a relay.return of this type ending a relay.fn body
    fn = next(op for op in module.walk() if isinstance(op, relay.FnOp))
    block = fn.body.block
    block.add_op(relay.NegativeOp([block.args[0]], block.args[0].type))
    with pytest.raises(VerifyException, match="must be the last operation in its parent block"):
        module.verify()
