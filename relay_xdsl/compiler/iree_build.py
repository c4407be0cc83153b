"""A lowered program to an IREE module (``.vmfb``), with IREE's compiler from PyPI.

IREE is the second compiled backend: it takes the TOSA that
`build.generic_text` hands upstream MLIR (``relay-xdsl compile --emit
tosa``), with ``--iree-input-type=tosa``, lowered with one choice made
otherwise: its convolutions by packed panels copy their taps side by side
(``in_place_taps=False`` in ``relay_xdsl.compiler.frontend.lower``), as IREE
compiles a product well, where IREE's code for the in-place form's
``linalg.generic`` with its epilogue fused ran resnet18 four times slower
(44 against 178 ms, one thread). ``relay-xdsl compile --target iree --emit
tosa`` shows what IREE gets.
`build_vmfb` compiles it for a `Device` and writes the model's signature
and weights beside the module, as `build.build` does beside a library
(artifact.py): ``model.vmfb``, ``model.json``, ``model.npz``. The weights
stay arguments, so that the module is small and compiles fast.

The packages are the optional extra ``iree`` (``iree-base-compiler``,
``iree-base-runtime``); without them, `iree_package` says how to install
them. IREE's compiler runs in its own process (``iree.compiler.compile_str``
starts ``iree-compile``), whose diagnostics become a `CompileError`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from relay_xdsl.compiler.artifact import Program, Signature, write_artifact
from relay_xdsl.compiler.build import ProgressStep, generic_text, no_progress
from relay_xdsl.compiler.errors import CompileError

INSTALL_HINT = "pip install 'relay-xdsl[iree]'"
"""What installs IREE's compiler and runtime."""


class IreeMissing(CompileError):
    """IREE's Python packages are not installed; the message says how to install them."""


def iree_package(name: str) -> ModuleType:
    """``iree.compiler`` or ``iree.runtime``, or an `IreeMissing` naming `INSTALL_HINT`."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise IreeMissing(f"IREE is not installed ({name}); install it with: {INSTALL_HINT}")


@dataclass(frozen=True)
class Device:
    """What IREE compiles for: a HAL target device and its flags."""

    name: str
    flags: tuple[str, ...]


DEVICES = {
    "cpu": Device(
        "cpu",
        (
            "--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            # As clang's -march=native for the library: a module runs on CPUs like this one.
            "--iree-llvmcpu-target-cpu=host",
        ),
    ),
    # Compiles anywhere; running needs an NVIDIA GPU and its driver (docs/compiler.md).
    "cuda": Device("cuda", ("--iree-hal-target-device=cuda",)),
}
"""The devices ``relay-xdsl compile --target iree --iree-device`` offers."""

MAX_DIAGNOSTIC_LINES = 40
"""Lines of iree-compile's diagnostics kept in its error (it may print a whole backtrace)."""


def compile_vmfb(
    text: str,
    device: Device = DEVICES["cpu"],
    *,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> bytes:
    """The IREE module of the TOSA module `text` (generic MLIR), compiled for `device`."""
    compiler = iree_package("iree.compiler")
    if log is not None:
        log(f"running: iree-compile - --iree-input-type=tosa {' '.join(device.flags)}")
    with step(f"compiling with IREE for {device.name}"):
        try:
            return compiler.compile_str(text, input_type="tosa", extra_args=list(device.flags))
        except compiler.CompilerToolError as error:
            raise CompileError(_diagnostics(str(error))) from None


def _diagnostics(message: str) -> str:
    """The diagnostics of a ``CompilerToolError`` 's `message`, shortened, without its
    command line and advice."""
    _, _, rest = message.partition("Error code: ")
    status, _, rest = rest.partition("\n")
    diagnostics = rest.removeprefix("Diagnostics:\n").split("\n\nInvoked with:")[0]
    lines = diagnostics.strip().splitlines()
    shown = "\n".join(lines[:MAX_DIAGNOSTIC_LINES])
    if len(lines) > MAX_DIAGNOSTIC_LINES:
        shown += f"\n... ({len(lines) - MAX_DIAGNOSTIC_LINES} more lines)"
    what = (
        f"crashed (signal {-int(status)})"
        if status.lstrip("-").isdigit() and int(status) < 0
        else f"failed (exit status {status.strip() or '?'})"
    )
    return f"iree-compile {what}:\n{shown or '(no message)'}"


def build_vmfb(
    program: Program,
    module_path: Path,
    device: Device = DEVICES["cpu"],
    *,
    step: ProgressStep = no_progress,
    log: Callable[[str], None] | None = None,
) -> Signature:
    """Compile `program` into `module_path` (a ``.vmfb``) for `device`, its signature and
    weights beside it."""
    signature = Signature.of(program)
    with step("printing the module as generic MLIR"):
        text = generic_text(program)
    vmfb = compile_vmfb(text, device, step=step, log=log)
    try:
        module_path.write_bytes(vmfb)
    except OSError as error:
        raise CompileError(f"cannot write {module_path}: {error.strerror}") from None
    write_artifact(module_path, signature, list(program.weights))
    return signature
