"""A program as a module that ``mlir-runner`` runs, printing its outputs.

`runner_module` adds to a program's module an entry ``@main()`` that calls
the program's function on constant inputs and weights (dense attributes:
for small programs, as in lit tests) and prints each result with the
runner library's ``printMemref<T>``::

    func.func private @printMemrefF32(tensor<*xf32>)
    func.func @main() {
      %0 = arith.constant dense<...> : tensor<2x3xf32>
      %1 = func.call @model(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %2 = tensor.cast %1 : tensor<2x3xf32> to tensor<*xf32>
      func.call @printMemrefF32(%2) : (tensor<*xf32>) -> ()
      func.return
    }

The declaration on tensors bufferizes (``bufferize-function-boundaries``)
to ``memref<*xf32>``, the ``(rank, descriptor)`` pair that
``printMemrefF32`` takes. Elements the library cannot print (``i1``,
``i8``, ``i16``; ``f16``, ``bf16``) are cast (``tosa.cast``) to ``i32`` or
``f32`` first. A program function called ``main`` is renamed ``main_model``.

Run the lowered module with::

    mlir-runner-22 -O3 -e main -entry-point-result=void -shared-libs=LIBS

(``-O3``: mlir-runner's default optimisation level is several times slower.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    BFloat16Type,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FunctionType,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnrankedTensorType,
    UnregisteredOp,
    f32,
    i32,
)
from xdsl.ir import Attribute, Block, Region, SSAValue

from relay_xdsl.compiler.artifact import Program, TensorSpec
from relay_xdsl.compiler.errors import CompileError

ENTRY = "main"
"""The entry point ``mlir-runner -e`` calls."""

RENAMED = "main_model"
"""The name of a program function called `ENTRY`."""


def runner_module(program: Program, inputs: Sequence[np.ndarray] = ()) -> ModuleOp:
    """`program` 's module with an ``@main()`` that runs it on `inputs` and prints the results."""
    module = program.module.clone()
    model = _function(module, program.function)
    if program.function == ENTRY:
        _rename(module, model, RENAMED)
    argument_types = list(model.function_type.inputs.data)
    result_types = list(model.function_type.outputs.data)
    values = [*inputs, *program.weights]
    if len(inputs) != len(program.inputs):
        raise CompileError(
            f"@{program.function} takes {len(program.inputs)} inputs, {len(inputs)} given"
        )
    block = Block()
    arguments: list[SSAValue] = []
    for index, (value, type_) in enumerate(zip(values, argument_types, strict=True)):
        what = program.inputs[index][0] if index < len(inputs) else f"weight {index - len(inputs)}"
        constant = arith.ConstantOp(_dense(value, type_, what))
        block.add_op(constant)
        arguments.append(constant.result)
    call = func.CallOp(model.sym_name.data, arguments, result_types)
    block.add_op(call)
    printers: dict[str, Attribute] = {}
    for result, type_ in zip(call.results, result_types):
        if not isinstance(type_, TensorType):
            raise CompileError(f"@{program.function} returns {type_}, not a tensor")
        element, name = _printed_element(type_.get_element_type())
        if element != type_.get_element_type():
            cast_type = TensorType(element, type_.get_shape())
            cast = UnregisteredOp.with_name("tosa.cast").create(
                operands=[result], result_types=[cast_type]
            )
            block.add_op(cast)
            result = cast.results[0]
        unranked = UnrankedTensorType(element)
        erased = tensor.CastOp.create(operands=[result], result_types=[unranked])
        block.add_op(erased)
        block.add_op(func.CallOp(name, [erased.results[0]], []))
        printers[name] = unranked
    block.add_op(func.ReturnOp())
    for name, printed in printers.items():
        module.body.block.add_op(func.FuncOp.external(name, [printed], []))
    module.body.block.add_op(func.FuncOp(ENTRY, FunctionType.from_lists([], []), Region(block)))
    return module


def _function(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise CompileError(f"the module has no function @{name}")


def _rename(module: ModuleOp, function: func.FuncOp, name: str) -> None:
    """@`function` renamed `name`, and the calls of it."""
    old = function.sym_name.data
    if any(isinstance(op, func.FuncOp) and op.sym_name.data == name for op in module.ops):
        raise CompileError(f"the module has both @{old} and @{name}")
    function.sym_name = StringAttr(name)
    for op in module.walk():
        if isinstance(op, func.CallOp) and op.callee.string_value() == old:
            op.callee = SymbolRefAttr(name)


def _dense(value: np.ndarray, type_: Attribute, what: str) -> DenseIntOrFPElementsAttr[Any]:
    """`value` as a dense attribute of the argument type `type_`."""
    spec = TensorSpec.of(type_, what)
    array = np.asarray(value)
    if TensorSpec(tuple(array.shape), array.dtype) != spec:
        given = TensorSpec(tuple(array.shape), array.dtype).describe()
        raise CompileError(f"{what} is {given}, the function takes {spec.describe()}")
    assert isinstance(type_, TensorType)
    data = np.ascontiguousarray(array, dtype=np.uint8 if array.dtype == np.bool_ else None)
    return DenseIntOrFPElementsAttr(type_, BytesAttr(data.tobytes()))


def _printed_element(element: Attribute) -> tuple[Attribute, str]:
    """The element type a result is printed as, and the runner library's function that prints it."""
    if isinstance(element, Float32Type):
        return element, "printMemrefF32"
    if isinstance(element, Float64Type):
        return element, "printMemrefF64"
    if isinstance(element, Float16Type | BFloat16Type):
        return f32, "printMemrefF32"
    if isinstance(element, IntegerType):
        if element.width.data == 64:
            return element, "printMemrefI64"
        if element.width.data == 32:
            return element, "printMemrefI32"
        if element.width.data < 32:
            return i32, "printMemrefI32"
    raise CompileError(f"mlir-runner cannot print tensors of {element}")
