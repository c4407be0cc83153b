"""Every operator exports to Relax and computes there what the interpreter computes.

The examples are the dialect reference's: one function per operator in
tests/filecheck/dialect/ops.mlir. They are exported to Relax together as one
module, built once with ``relax.build(target="llvm")``, and each is run on
TVM's VM and by the reference interpreter on the same random inputs.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tvm
from tvm import relax
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute
from xdsl.parser import Parser

from relay_xdsl.dialects import relay
from relay_xdsl.dialects.relay.names import relay_name, set_relay_name
from relay_xdsl.dialects.relay.operators import ALL
from relay_xdsl.dialects.relay.registry import Operator
from relay_xdsl.dialects.relay.relax_mapping import RelaxOp
from relay_xdsl.exporters.relax import export_relax
from relay_xdsl.exporters.relax_compositions.registry import RELAX_EXPORTS
from relay_xdsl.exporters.relax_compositions.widening import WIDENED
from relay_xdsl.importers.relay_text import parse_relay
from relay_xdsl.interpreter import parameters, run
from relay_xdsl.interpreter.random_values import random_inputs
from relay_xdsl.interpreter.registry import KERNELS
from relay_xdsl.tools.mlir_text import relay_context

pytestmark = pytest.mark.tvm

OPS_MLIR = Path(__file__).resolve().parents[1] / "filecheck" / "dialect" / "ops.mlir"

WITHOUT_RELAX = {"memory.alloc_storage", "memory.alloc_tensor", "memory.kill"}
"""Rows with neither a Relax export nor a kernel: Relax manages memory itself."""
DYNAMIC = {row.name for row in ALL if row.name.startswith("dyn.")}
"""Rows whose shapes are run-time values: they export as the static operator that
``relay-dynamic-to-static`` makes of them where those values are constants
(tests/dialects/relay/test_dynamic_to_static.py), and not otherwise."""

# Absolute and relative tolerance per dtype: the kernels compute in numpy, TVM in
# LLVM code with its own math functions and summation order.
TOLERANCES = {"float16": (2e-2, 2e-2), "float32": (1e-4, 1e-4), "float64": (1e-9, 1e-9)}

INDEXINGS = {"gather", "gather_nd", "image.crop_and_resize"}
"""Operators whose integer arguments index the first one's smallest axis at most."""

DIVISIONS = {"divide", "floor_divide", "trunc_divide", "mod", "floor_mod", "trunc_mod"}
"""Operators whose integer divisor must not be 0 (TVM's code traps on it)."""
EXPORTED = [row.name for row in ALL if row.name not in WITHOUT_RELAX | DYNAMIC]


def _function_name(operator: str) -> str:
    return "op_" + operator.replace(".", "_")


@cache
def _examples() -> ModuleOp:
    """One function per operator (``op_nn_conv2d``), returning one value (a tuple
    for several)."""
    parsed = Parser(relay_context(), OPS_MLIR.read_text()).parse_module()
    module = ModuleOp([])
    for func in parsed.ops:
        if not isinstance(func, FuncOp):
            continue
        operator = func.sym_name.data.removeprefix("relay.")
        if operator not in EXPORTED:
            continue
        clone = func.clone()
        clone.sym_name = StringAttr(_function_name(operator))
        _untuple_parameters(clone)
        terminator = clone.body.block.last_op
        assert isinstance(terminator, ReturnOp)
        if len(terminator.arguments) != 1:
            values = list(terminator.arguments)
            fields = relay.TupleOp(values)
            clone.body.block.insert_op_before(fields, terminator)
            terminator.detach()
            terminator.erase()
            clone.body.block.add_op(ReturnOp(fields.results[0]))
            clone.function_type = FunctionType.from_lists(
                clone.function_type.inputs.data, [fields.results[0].type]
            )
        clone.function_type = FunctionType.from_lists(
            [a.type for a in clone.body.block.args], clone.function_type.outputs.data
        )
        module.body.block.add_op(clone)
    module.verify()
    return module


def _untuple_parameters(func: FuncOp) -> None:
    """Replace each tuple parameter by its fields, tupled again in the body (the
    interpreter's inputs are tensors)."""
    block = func.body.block
    for arg in list(block.args):
        if not isinstance(arg.type, TupleType):
            continue
        fields = [block.insert_arg(t, arg.index + i + 1) for i, t in enumerate(arg.type.types)]
        for i, field in enumerate(fields):
            set_relay_name(field, f"{relay_name(arg)}_{i}")
        tupled = relay.TupleOp(fields)
        block.insert_op_before(tupled, block.first_op)
        arg.replace_all_uses_with(tupled.results[0])
        block.erase_arg(arg)


@cache
def _virtual_machine() -> relax.VirtualMachine:
    mod = export_relax(_examples(), random_constants=0)
    return relax.VirtualMachine(relax.build(mod, target="llvm"), tvm.cpu())


def _inputs(params: list[tuple[str, Attribute]]) -> dict[str, np.ndarray]:
    """Random values of the parameters, an unknown dimension taken as 2."""
    concrete = []
    for name, type_ in params:
        assert isinstance(type_, TensorType)
        shape = [2 if d == DYNAMIC_INDEX else d for d in type_.get_shape()]
        concrete.append((name, TensorType(type_.element_type, shape)))
    return random_inputs(concrete, seed=0)


def _tvm_value(value: np.ndarray) -> Any:
    return tvm.runtime.tensor(np.array(value))  # np.ascontiguousarray makes 0-d arrays 1-d


def _flatten(value: Any) -> list[np.ndarray]:
    if isinstance(value, tvm.runtime.Tensor):
        return [value.numpy()]
    return [array for field in value for array in _flatten(field)]


def test_every_operator_has_an_example():
    names = {f.sym_name.data for f in _examples().ops if isinstance(f, FuncOp)}
    assert names == {_function_name(name) for name in EXPORTED}


@pytest.mark.parametrize("operator", EXPORTED)
def test_relax_computes_what_the_interpreter_computes(operator: str):
    function = _function_name(operator)
    module = _examples()
    inputs = _inputs(parameters(module, function))
    if operator in INDEXINGS:
        data, *rest = inputs
        bound = min(inputs[data].shape)
        for name in rest:
            if inputs[name].dtype.kind in "iu":
                inputs[name] = inputs[name] % bound
    if operator in DIVISIONS:
        divisor = list(inputs)[1]
        inputs[divisor] = np.where(inputs[divisor] == 0, 1, inputs[divisor]).astype(
            inputs[divisor].dtype
        )
    expected = run(module, inputs, function, random_constants=0)
    arguments = [_tvm_value(x) for x in inputs.values()]
    got = _flatten(_virtual_machine()[function](*arguments))
    assert len(got) == len(expected)
    for actual, wanted in zip(got, expected):
        assert actual.shape == wanted.shape
        assert actual.dtype == wanted.dtype
        atol, rtol = TOLERANCES.get(str(wanted.dtype), (0, 0))
        np.testing.assert_allclose(actual, wanted, rtol=rtol, atol=atol)


COMPOSED_BESIDE_MAPPING = {"split", "take", "broadcast_to", *WIDENED}
"""Mapped operators with a composition too, for attributes the mapping cannot express
(``split`` at indices known only by reference, ``take`` with ``batch_dims`` or
without an axis, ``broadcast_to`` with a ``dtype``) or dtypes TVM cannot compile it for."""


def _exports(row: Operator) -> bool:
    return isinstance(row.relax, RelaxOp) or row.name in RELAX_EXPORTS


@pytest.mark.parametrize("row", ALL, ids=lambda row: row.name)
def test_every_operator_the_interpreter_runs_exports_to_relax(row: Operator):
    """A row exports by its mapping or a registered composition, exactly when
    it has a kernel (the memory operators have neither). A composition beside
    a mapping serves only attributes or dtypes the mapping cannot handle."""
    assert not (isinstance(row.relax, RelaxOp) and row.name in RELAX_EXPORTS) or row.name in (
        COMPOSED_BESIDE_MAPPING
    )
    assert _exports(row) == (row.name in KERNELS and row.name not in DYNAMIC), row.name
    if not _exports(row):
        assert row.relax.reason


FALLBACKS = {
    "take with batch_dims": (
        """def @main(%x: Tensor[(2, 3, 4), float32], %i: Tensor[(2, 2), int32]) {
  take(%x, %i, axis=1, batch_dims=1)
}""",
        "take",
    ),
    "broadcast_to with a dtype": (
        """def @main(%x: Tensor[(1, 4), float32]) {
  broadcast_to(%x, shape=[3, 4], dtype="float32")
}""",
        "broadcast_to",
    ),
    "reduction with exclude": (
        """def @main(%x: Tensor[(2, 3, 4), float32]) {
  sum(%x, axis=[1], exclude=True)
}""",
        "sum",
    ),
}


@pytest.mark.parametrize("case", FALLBACKS, ids=str)
def test_attributes_beyond_the_mapping_export_and_compute_the_same(case: str):
    body, _ = FALLBACKS[case]
    module = parse_relay(f'#[version = "0.0.5"]\n{body}\n', "fallback.relay")
    inputs = _inputs(parameters(module, "main"))
    expected = run(module, inputs)
    exported = export_relax(module)
    vm = relax.VirtualMachine(relax.build(exported, target="llvm"), tvm.cpu())
    got = _flatten(vm["main"](*(_tvm_value(x) for x in inputs.values())))
    for actual, wanted in zip(got, expected, strict=True):
        np.testing.assert_allclose(actual, wanted, rtol=1e-5, atol=1e-6)


CAST_FOR_TVM = """#[version = "0.0.5"]
def @main(%h: Tensor[(2, 3), float16], %i: Tensor[(2, 3), int32], %b: Tensor[(2, 3), bool],
          %c: Tensor[(2, 3), bool], %t: Tensor[(3), int32], %k: Tensor[(2, 2), int32]) {
  (cosh(%h), atan(%h), power(%i, %i), equal(%b, %c), not_equal(%b, %c),
   take(%i, %t), gather_nd(%i, %k))
}"""
"""Operators on dtypes or arguments TVM 0.27 refuses or cannot compile as mapped:
float16 cosh/atan, integer power, bool (in)equality, take from flattened data,
gather_nd with int32 indices."""


def test_what_tvm_cannot_compile_as_mapped_exports_and_computes_the_same():
    module = parse_relay(CAST_FOR_TVM, "cast.relay")
    inputs = {
        "h": np.linspace(-0.9, 0.9, 6, dtype="float16").reshape(2, 3),
        "i": np.arange(6, dtype="int32").reshape(2, 3) % 4,
        "b": np.array([[True, False, True], [False, True, False]]),
        "c": np.array([[True, True, False], [False, False, False]]),
        "t": np.array([5, 0, 4], dtype="int32"),
        "k": np.array([[0, 1], [1, 2]], dtype="int32"),
    }
    expected = run(module, inputs)
    exported = export_relax(module)
    vm = relax.VirtualMachine(relax.build(exported, target="llvm"), tvm.cpu())
    got = _flatten(vm["main"](*(_tvm_value(x) for x in inputs.values())))
    for actual, wanted in zip(got, expected, strict=True):
        assert actual.dtype == wanted.dtype
        np.testing.assert_allclose(actual, wanted, rtol=2e-2, atol=2e-2)
