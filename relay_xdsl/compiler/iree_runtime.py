"""Call an IREE module (``.vmfb``, iree_build.py) from numpy, on IREE's CPU runtime.

`IreeModel` is `runtime.CompiledModel` 's counterpart: it takes the module,
its `Signature` and weights, and ``model(x)`` is the list of its outputs.
The weights go to the device once, when the model loads.

Threads: one thread runs on IREE's ``local-sync`` driver (no worker
threads); more run on its task runtime, the ``local-task`` driver, with
``--task_topology_group_count=N`` workers. The default, `default_threads`,
is the physical cores this process may run on, as PyTorch's is
(support/cores.py). The compiled module
fixes how each dispatch is split into workgroups, and the workers only
share them out, so the outputs do not depend on the thread count.

IREE creates the task runtime's workers once per process, when the
``local-task`` driver is first used: a process runs its models with one
thread count above one (a second one is a `CompileError`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from relay_xdsl.compiler.artifact import Signature, TensorSpec, read_artifact
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.iree_build import iree_package
from relay_xdsl.compiler.runtime import checked_array, checked_inputs, inputs_in_order
from relay_xdsl.support.cores import default_threads

_task_threads: int | None = None
"""The worker count of this process's ``local-task`` driver, once created."""
_task_lock = threading.Lock()


def cpu_device(threads: int | None = None) -> Any:
    """An IREE HAL device on this machine's CPU that runs `threads` threads (see the
    module docstring)."""
    global _task_threads
    runtime = iree_package("iree.runtime")
    count = default_threads() if threads is None else threads
    if count < 1:
        raise CompileError(f"a thread count must be at least 1, not {count}")
    try:
        if count == 1:
            return runtime.get_device("local-sync")
        with _task_lock:
            if _task_threads is None:
                runtime.flags.parse_flags(f"--task_topology_group_count={count}")
                _task_threads = count
            elif _task_threads != count:
                raise CompileError(
                    f"IREE's task runtime already runs {_task_threads} threads in this "
                    f"process; it cannot run {count} as well"
                )
            return runtime.get_device("local-task")
    except (RuntimeError, ValueError) as error:
        raise CompileError(f"IREE cannot create a CPU device: {error}") from None


class IreeModel:
    """A compiled IREE module, callable on numpy arrays: ``model(x)`` is the list of its
    outputs."""

    def __init__(
        self,
        vmfb: bytes,
        signature: Signature,
        weights: Sequence[np.ndarray],
        *,
        threads: int | None = None,
        device: Any = None,
    ):
        """`device` is an ``iree.runtime.HalDevice`` (default: `cpu_device` (`threads`))."""
        runtime = iree_package("iree.runtime")
        self.signature = signature
        if len(weights) != len(signature.weights):
            raise CompileError(
                f"the module takes {len(signature.weights)} weights, {len(weights)} given"
            )
        self.device = cpu_device(threads) if device is None else device
        try:
            config = runtime.Config(device=self.device)
            context = runtime.SystemContext(config=config)
            context.add_vm_module(runtime.VmModule.copy_buffer(config.vm_instance, vmfb))
            self._function = context.modules.module[signature.function]
        except (RuntimeError, ValueError, KeyError) as error:
            raise CompileError(f"IREE cannot load the module: {error}") from None
        self._weights = [
            runtime.asdevicearray(self.device, checked_array(weight, spec, f"weight {index}"))
            for index, (weight, spec) in enumerate(zip(weights, signature.weights))
        ]

    @staticmethod
    def load(path: Path | str, *, threads: int | None = None, device: Any = None) -> IreeModel:
        """The model compiled into `path` (a ``.vmfb``), with the signature and weights
        beside it."""
        path = Path(path)
        signature, weights = read_artifact(path)
        try:
            vmfb = path.read_bytes()
        except OSError as error:
            raise CompileError(f"cannot read {path}: {error.strerror}") from None
        return IreeModel(vmfb, signature, weights, threads=threads, device=device)

    def __call__(self, *inputs: np.ndarray) -> list[np.ndarray]:
        """The outputs for `inputs`, one array per input of the signature, in order."""
        arrays = checked_inputs(self.signature, inputs)
        try:
            results = self._function(*arrays, *self._weights)
        except (RuntimeError, ValueError) as error:
            raise CompileError(f"IREE failed to run @{self.signature.function}: {error}") from None
        if len(self.signature.outputs) == 1:
            results = (results,)
        elif not self.signature.outputs:
            results = ()
        return [_host_copy(r, spec) for r, spec in zip(results, self.signature.outputs)]

    def run(self, inputs: Mapping[str, np.ndarray]) -> list[np.ndarray]:
        """The outputs for the inputs given by name."""
        return self(*inputs_in_order(self.signature, inputs))


def _host_copy(result: Any, spec: TensorSpec) -> np.ndarray:
    """`result` (a device array) as a numpy array of `spec` (IREE returns booleans as bytes)."""
    array = np.asarray(result.to_host() if hasattr(result, "to_host") else result)
    if array.shape != spec.shape:
        raise CompileError(f"IREE returned shape {array.shape}, expected {spec.describe()}")
    return np.array(array, dtype=spec.dtype, copy=True)
