"""Call a compiled model from Python: ctypes and MLIR's C interface.

A function marked ``llvm.emit_c_interface`` gets a wrapper
``_mlir_ciface_<function>`` that takes each memref argument as a pointer
to its descriptor::

    struct { T *allocated; T *aligned; int64_t offset; int64_t sizes[N]; int64_t strides[N]; }

(rank 0: no sizes nor strides) and returns its results through a first
pointer argument: to the result's descriptor, or, with several results, to
a struct of their descriptors, in order (MLIR 22; for one result the two
are the same layout). The results' buffers are the library's own (it
``malloc`` s them, and clones what it would otherwise return of an argument
or a global), so `CompiledModel` copies them into numpy arrays and frees
each allocated pointer once with libc's ``free``.

The library never writes into the arrays it is given (build.py marks the
arguments read-only), so the weights are passed as they are, every call:
copied once, when the model is made, into memory backed by huge pages
(huge_pages.py).
A library is loaded once per path and process (``dlopen``): rebuilding a
library at the same path needs a new process to take effect.

A library built for several threads runs its parallel loops on LLVM's OpenMP
runtime, which reads its settings from the environment when the first loop
runs: `OPENMP_DEFAULTS` are put there, unless already set, before a library loads.
"""

from __future__ import annotations

import ctypes
import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from relay_xdsl.compiler.artifact import Signature, TensorSpec, read_artifact
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.huge_pages import huge_page_copies

_GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer MLIR gives a memref of a global (``memref.get_global``): not to free."""


@functools.cache
def descriptor_type(rank: int) -> type[ctypes.Structure]:
    """The ctypes struct of a rank-`rank` memref descriptor."""
    return type(
        f"MemRefDescriptor{rank}D",
        (ctypes.Structure,),
        {
            "_fields_": [
                ("allocated", ctypes.c_void_p),
                ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64),
                ("sizes", ctypes.c_int64 * rank),
                ("strides", ctypes.c_int64 * rank),
            ]
        },
    )


def descriptor(array: np.ndarray) -> ctypes.Structure:
    """A descriptor of `array` (C-contiguous and aligned), which must outlive it."""
    if not array.flags.c_contiguous or not array.flags.aligned:
        raise ValueError("a memref descriptor needs a C-contiguous, aligned array")
    result = descriptor_type(array.ndim)()
    address = array.ctypes.data
    result.allocated = result.aligned = address
    result.offset = 0
    for axis, (size, stride) in enumerate(zip(array.shape, array.strides)):
        result.sizes[axis] = size
        result.strides[axis] = stride // array.itemsize if array.itemsize else 0
    return result


def results_type(outputs: Sequence[TensorSpec]) -> type[ctypes.Structure]:
    """The struct the C interface returns `outputs` through: their descriptors, in order."""
    return type(
        "Results",
        (ctypes.Structure,),
        {"_fields_": [(f"r{i}", descriptor_type(len(o.shape))) for i, o in enumerate(outputs)]},
    )


def copy_result(result: Any, spec: TensorSpec) -> np.ndarray:
    """A numpy copy of the memref `result` (a descriptor) of type `spec`, whatever its strides."""
    shape = tuple(int(result.sizes[axis]) for axis in range(len(spec.shape)))
    if shape != spec.shape:
        raise CompileError(f"the library returned shape {shape}, expected {spec.describe()}")
    if 0 in shape:
        return np.zeros(shape, spec.dtype)
    strides = [int(result.strides[axis]) for axis in range(len(shape))]
    if any(s < 0 for s in strides):
        raise CompileError(f"the library returned negative strides {strides}")
    itemsize = spec.dtype.itemsize
    count = 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    start = int(result.aligned) + int(result.offset) * itemsize
    buffer = (ctypes.c_char * (count * itemsize)).from_address(start)
    flat = np.frombuffer(memoryview(buffer), dtype=spec.dtype, count=count)
    view = np.lib.stride_tricks.as_strided(
        flat, shape=shape, strides=[s * itemsize for s in strides], writeable=False
    )
    return np.array(view, copy=True)


OPENMP_DEFAULTS = {"KMP_BLOCKTIME": "1"}
"""LLVM's OpenMP runtime keeps a parallel loop's idle threads spinning for 200 ms by
default, taking the cores of a shared machine from the threads at work (a model on
one thread in the same process ran up to twice as slow); 1 ms still covers the gap
between one op's loops and the next's. Set in the environment, they win."""

_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None


class CompiledModel:
    """A compiled model, callable on numpy arrays: ``model(x)`` is the list of its outputs."""

    def __init__(self, library: Path | str, signature: Signature, weights: Sequence[np.ndarray]):
        self.library = Path(library)
        self.signature = signature
        if len(weights) != len(signature.weights):
            raise CompileError(
                f"{self.library} takes {len(signature.weights)} weights, {len(weights)} given"
            )
        self._weights = huge_page_copies(
            [
                checked_array(weight, spec, f"weight {index}")
                for index, (weight, spec) in enumerate(zip(weights, signature.weights))
            ]
        )
        # the weights' arguments, made once: mobilenet_v2's 105 took 21 us of
        # Python a call to make, the rest of a call's 9
        weight_descriptors = [descriptor(w) for w in self._weights]
        self._weight_arguments = [ctypes.byref(d) for d in weight_descriptors]
        self._weight_buffers = {d.allocated for d in weight_descriptors}
        for name, value in OPENMP_DEFAULTS.items():
            os.environ.setdefault(name, value)
        try:
            handle = ctypes.CDLL(str(self.library.resolve()))
        except OSError as error:
            raise CompileError(f"cannot load {self.library}: {error}") from None
        symbol = f"_mlir_ciface_{signature.function}"
        try:
            self._function = getattr(handle, symbol)
        except AttributeError:
            raise CompileError(
                f"{self.library} has no {symbol} (is @{signature.function} marked "
                "llvm.emit_c_interface?)"
            ) from None
        self._function.restype = None
        self._results_type = results_type(signature.outputs)

    @staticmethod
    def load(library: Path | str) -> CompiledModel:
        """The model compiled into `library`, with the signature and weights beside it."""
        signature, weights = read_artifact(Path(library))
        return CompiledModel(library, signature, weights)

    def __call__(self, *inputs: np.ndarray) -> list[np.ndarray]:
        """The outputs for `inputs`, one array per input of the signature, in order."""
        arrays = checked_inputs(self.signature, inputs)
        descriptors = [descriptor(a) for a in arrays]
        results = self._results_type()
        arguments = [ctypes.byref(d) for d in descriptors] + self._weight_arguments
        if self.signature.outputs:
            arguments.insert(0, ctypes.byref(results))
        self._function(*arguments)
        return self._collect(results, {d.allocated for d in descriptors} | self._weight_buffers)

    def run(self, inputs: Mapping[str, np.ndarray]) -> list[np.ndarray]:
        """The outputs for the inputs given by name."""
        return self(*inputs_in_order(self.signature, inputs))

    def _collect(self, results: ctypes.Structure, given: set[int | None]) -> list[np.ndarray]:
        """Copy the results out, then free their buffers, each once."""
        descriptors = [getattr(results, f"r{i}") for i in range(len(self.signature.outputs))]
        try:
            return [copy_result(d, spec) for d, spec in zip(descriptors, self.signature.outputs)]
        finally:
            freed: set[int] = set()
            for d in descriptors:
                pointer = d.allocated
                if pointer and pointer not in freed | given and pointer != _GLOBAL_MARKER:
                    _libc.free(pointer)
                    freed.add(pointer)


def checked_inputs(signature: Signature, inputs: Sequence[object]) -> list[np.ndarray]:
    """`inputs` as the arrays `signature` takes, in order, or an error saying how they differ."""
    expected = signature.inputs
    if len(inputs) != len(expected):
        names = ", ".join(name for name, _ in expected) or "none"
        raise CompileError(
            f"@{signature.function} takes {len(expected)} inputs ({names}), {len(inputs)} given"
        )
    return [
        checked_array(array, spec, f"input {name}") for array, (name, spec) in zip(inputs, expected)
    ]


def inputs_in_order(signature: Signature, inputs: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    """The arrays of `inputs` (by name) in `signature` 's order."""
    missing = [name for name, _ in signature.inputs if name not in inputs]
    if missing:
        raise CompileError(f"missing input {missing[0]}")
    unknown = sorted(set(inputs) - {name for name, _ in signature.inputs})
    if unknown:
        raise CompileError(f"@{signature.function} has no input {unknown[0]}")
    return [inputs[name] for name, _ in signature.inputs]


def checked_array(array: object, spec: TensorSpec, what: str) -> np.ndarray:
    """`array` as a C-contiguous numpy array of `spec`, or an error saying how it differs."""
    if not isinstance(array, np.ndarray):
        array = np.asarray(array)
    given = TensorSpec(tuple(array.shape), array.dtype)
    if given != spec:
        raise CompileError(f"{what} is {given.describe()}, the model takes {spec.describe()}")
    return np.require(array, requirements=["C_CONTIGUOUS", "ALIGNED"])
