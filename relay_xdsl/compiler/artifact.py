"""What the compiler takes (a `Program`) and what it leaves (a library and its `Signature`).

A `Program` is the shape of ``relay_xdsl.conversion.program.LoweredProgram``:
a module holding one ``func.func`` on tensors marked
``llvm.emit_c_interface``, whose arguments are the model's inputs then its
weights, and whose results are its outputs.

A compiled model is three files side by side: the shared library
(``model.so``), its signature (``model.json``: the function, and the shape
and dtype of each input, weight and output) and its weights (``model.npz``,
``arr_0``, ``arr_1``, ...; absent when there are none). `artifact_paths`
names them, `write_artifact` writes the last two and `read_artifact` reads them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.ir import Attribute

from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.interpreter.arrays import numpy_dtype
from relay_xdsl.interpreter.errors import InterpreterError


class Program(Protocol):
    """A lowered program (``LoweredProgram``): the module and how to call its function."""

    @property
    def module(self) -> ModuleOp: ...
    @property
    def function(self) -> str: ...
    @property
    def inputs(self) -> list[tuple[str, TensorType[Any]]]: ...
    @property
    def weights(self) -> list[np.ndarray]: ...
    @property
    def outputs(self) -> list[TensorType[Any]]: ...


@dataclass(frozen=True)
class TensorSpec:
    """A static tensor type as numpy sees it: a shape and a dtype."""

    shape: tuple[int, ...]
    dtype: np.dtype

    @staticmethod
    def of(type_: Attribute, what: str) -> TensorSpec:
        if not isinstance(type_, TensorType):
            raise CompileError(f"{what} is not a ranked tensor ({type_})")
        shape = tuple(type_.get_shape())
        if DYNAMIC_INDEX in shape:
            raise CompileError(f"{what} has a dynamic shape ({type_}): only static shapes compile")
        try:
            dtype = numpy_dtype(type_.get_element_type())
        except InterpreterError as error:
            raise CompileError(f"{what}: {error}") from None
        return TensorSpec(shape, dtype)

    def describe(self) -> str:
        """``(1, 3) float32``, as the interpreter's messages write types."""
        comma = "," if len(self.shape) == 1 else ""
        return f"({', '.join(map(str, self.shape))}{comma}) {self.dtype}"

    def to_json(self) -> dict[str, Any]:
        return {"shape": list(self.shape), "dtype": str(self.dtype)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> TensorSpec:
        return TensorSpec(tuple(int(d) for d in data["shape"]), np.dtype(data["dtype"]))


@dataclass(frozen=True)
class Signature:
    """How to call a compiled function: its name, its inputs (named), weights and outputs."""

    function: str
    inputs: tuple[tuple[str, TensorSpec], ...]
    weights: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]

    @staticmethod
    def of(program: Program) -> Signature:
        """The signature of `program`, checked against its function's type."""
        inputs = tuple(
            (name, TensorSpec.of(type_, f"input {name}")) for name, type_ in program.inputs
        )
        weights = tuple(
            TensorSpec(tuple(w.shape), np.dtype(w.dtype)) for w in map(np.asarray, program.weights)
        )
        outputs = tuple(
            TensorSpec.of(type_, f"output {i}") for i, type_ in enumerate(program.outputs)
        )
        signature = Signature(program.function, inputs, weights, outputs)
        signature.check(program.module)
        return signature

    def check(self, module: ModuleOp) -> None:
        """That `module` has the function, with arguments and results as this signature says."""
        from xdsl.dialects.func import FuncOp

        function = next(
            (
                op
                for op in module.ops
                if isinstance(op, FuncOp) and op.sym_name.data == self.function
            ),
            None,
        )
        if function is None:
            raise CompileError(f"the module has no function @{self.function}")
        arguments = function.function_type.inputs.data
        results = function.function_type.outputs.data
        expected = [spec for _, spec in self.inputs] + list(self.weights)
        if len(arguments) != len(expected):
            raise CompileError(
                f"@{self.function} takes {len(arguments)} arguments, but the program has "
                f"{len(self.inputs)} inputs and {len(self.weights)} weights"
            )
        for index, (type_, spec) in enumerate(zip(arguments, expected)):
            if TensorSpec.of(type_, f"argument {index} of @{self.function}") != spec:
                raise CompileError(
                    f"argument {index} of @{self.function} is {type_}, "
                    f"but the program gives {spec.describe()}"
                )
        if [TensorSpec.of(t, "result") for t in results] != list(self.outputs):
            raise CompileError(f"the results of @{self.function} are not the program's outputs")

    def to_json(self) -> dict[str, Any]:
        return {
            "function": self.function,
            "inputs": [{"name": name, **spec.to_json()} for name, spec in self.inputs],
            "weights": [spec.to_json() for spec in self.weights],
            "outputs": [spec.to_json() for spec in self.outputs],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Signature:
        return Signature(
            data["function"],
            tuple((item["name"], TensorSpec.from_json(item)) for item in data["inputs"]),
            tuple(TensorSpec.from_json(item) for item in data["weights"]),
            tuple(TensorSpec.from_json(item) for item in data["outputs"]),
        )


def artifact_paths(library: Path) -> tuple[Path, Path]:
    """The signature (``.json``) and weights (``.npz``) beside `library`."""
    return library.with_suffix(".json"), library.with_suffix(".npz")


def write_artifact(library: Path, signature: Signature, weights: list[np.ndarray]) -> None:
    """Write the signature and weights of `library` beside it."""
    signature_path, weights_path = artifact_paths(library)
    try:
        signature_path.write_text(json.dumps(signature.to_json(), indent=1) + "\n")
        if weights:
            np.savez(weights_path, *weights)  # named arr_0, arr_1, ...
        else:
            weights_path.unlink(missing_ok=True)
    except OSError as error:
        raise CompileError(f"cannot write {error.filename}: {error.strerror}") from None


def read_artifact(library: Path) -> tuple[Signature, list[np.ndarray]]:
    """The signature and weights of the compiled `library`."""
    signature_path, weights_path = artifact_paths(library)
    try:
        signature = Signature.from_json(json.loads(signature_path.read_text()))
    except OSError as error:
        raise CompileError(
            f"cannot read {signature_path}, the signature of {library}: {error.strerror}"
        ) from None
    except (ValueError, KeyError, TypeError) as error:
        raise CompileError(f"{signature_path} is not a signature: {error}") from None
    weights: list[np.ndarray] = []
    if signature.weights:
        try:
            with np.load(weights_path, allow_pickle=False) as saved:
                weights = [saved[f"arr_{i}"] for i in range(len(signature.weights))]
        except (OSError, KeyError, ValueError) as error:
            raise CompileError(f"cannot read the weights of {library} ({weights_path}): {error}")
    for index, (weight, spec) in enumerate(zip(weights, signature.weights)):
        if TensorSpec(tuple(weight.shape), weight.dtype) != spec:
            raise CompileError(f"weight {index} in {weights_path} is not {spec.describe()}")
    return signature, weights
