"""The upstream tools the compiler drives: LLVM 22's mlir-opt, mlir-translate, mlir-runner, clang.

Each tool is looked up once per process: the environment variable named in
`TOOLS` (``RELAY_XDSL_MLIR_OPT=/opt/llvm/bin/mlir-opt``, say) if set, else
its Debian name on ``PATH``. The runner libraries that ``mlir-runner`` and
compiled models' printing need are Debian's versioned files in
``/usr/lib/llvm-22/lib`` (``libmlir-22`` has only those; ``libmlir-22-dev``
adds the plain names), or the directory ``RELAY_XDSL_MLIR_LIB_DIR`` names.
Libraries whose loops run on several threads link LLVM's OpenMP runtime,
``libomp.so`` in the same directory (``libomp-22-dev``).

A missing tool is a `ToolchainError` saying what to install; a tool that
fails is a `ToolchainError` carrying its command line and stderr.
`tool_identity` and `native_target` say what a cached object was made with.
"""

from __future__ import annotations

import functools
import itertools
import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from relay_xdsl.compiler.errors import CompileError

INSTALL_HINT = "apt-get install mlir-22-tools clang-22"
"""What installs the tools on Debian (as root)."""

TOOLS = {
    "mlir-opt": ("mlir-opt-22", "RELAY_XDSL_MLIR_OPT"),
    "mlir-translate": ("mlir-translate-22", "RELAY_XDSL_MLIR_TRANSLATE"),
    "mlir-runner": ("mlir-runner-22", "RELAY_XDSL_MLIR_RUNNER"),
    "clang": ("clang-22", "RELAY_XDSL_CLANG"),
}
"""Each tool: its Debian executable, and the environment variable that overrides it."""

LIBRARY_DIR = Path("/usr/lib/llvm-22/lib")
LIBRARY_DIR_VARIABLE = "RELAY_XDSL_MLIR_LIB_DIR"
RUNNER_LIBRARIES = ("libmlir_runner_utils.so.22.1", "libmlir_c_runner_utils.so.22.1")
"""The libraries ``mlir-runner -shared-libs=`` needs for ``printMemref*`` and friends."""
OPENMP_LIBRARY = "libomp.so"
OPENMP_INSTALL_HINT = "apt-get install libomp-22-dev"
"""LLVM's OpenMP runtime, which code lowered from the OpenMP dialect calls
(``__kmpc_fork_call``...), and what installs it on Debian (as root)."""


class ToolchainError(CompileError):
    """A tool or library that is missing, or a tool that failed; the message says which and why."""


class ToolFailure(ToolchainError):
    """A tool that exited with an error: its command line, exit status and stderr."""

    def __init__(self, command: tuple[str, ...], returncode: int, stderr: str):
        super().__init__(command, returncode, stderr)
        self.command = command
        self.returncode = returncode
        self.stderr = stderr

    def __str__(self) -> str:
        tool = Path(self.command[0]).name
        lines = self.stderr.strip().splitlines()
        shown = "\n".join(lines[:MAX_STDERR_LINES])
        if len(lines) > MAX_STDERR_LINES:
            shown += f"\n... ({len(lines) - MAX_STDERR_LINES} more lines)"
        return (
            f"{tool} failed (exit status {self.returncode}): {shlex.join(self.command)}\n"
            f"{shown or '(no message)'}"
        )


MAX_STDERR_LINES = 40
"""Lines of a failed tool's stderr kept in its error (mlir-opt may dump a whole module)."""


def tool(name: str) -> str:
    """The path of tool `name` (a key of `TOOLS`), or a `ToolchainError` saying what to install."""
    return _tool(name)


@functools.cache
def _tool(name: str) -> str:
    executable, variable = TOOLS[name]
    override = os.environ.get(variable)
    if override:
        found = shutil.which(override)
        if found is None:
            raise ToolchainError(f"{variable}={override} is not an executable")
        return found
    found = shutil.which(executable)
    if found is None:
        raise ToolchainError(
            f"{executable} is not installed (needed to compile with upstream MLIR); "
            f"install it with: {INSTALL_HINT}"
        )
    return found


def tool_identity(name: str) -> str:
    """Tool `name` as a cached result depends on it: its real path, size and modification time
    (a reinstalled or upgraded tool differs)."""
    path = Path(tool(name)).resolve()
    status = path.stat()
    return f"{path} {status.st_size} {status.st_mtime_ns}"


@functools.cache
def native_target() -> str:
    """The CPU and features that clang's ``-march=native`` stands for on this machine."""
    command = (
        tool("clang"),
        "-march=native",
        "-###",
        "-c",
        "-x",
        "c",
        os.devnull,
        "-o",
        os.devnull,
    )
    try:
        completed = subprocess.run(command, capture_output=True, check=False)
    except OSError as error:
        raise ToolchainError(f"cannot run {command[0]}: {error.strerror or error}") from None
    words = shlex.split(completed.stderr.decode(errors="replace").strip().splitlines()[-1])
    return " ".join(
        f"{word} {value}"
        for word, value in itertools.pairwise(words)
        if word in ("-target-cpu", "-target-feature")
    )


def runner_libraries() -> tuple[str, ...]:
    """The paths of `RUNNER_LIBRARIES`, or a `ToolchainError` saying what to install."""
    paths = tuple(library_directory() / name for name in RUNNER_LIBRARIES)
    missing = [str(path) for path in paths if not path.is_file()]
    if missing:
        raise ToolchainError(
            f"MLIR's runner libraries are missing ({', '.join(missing)}); "
            f"install them with: {INSTALL_HINT}"
        )
    return tuple(str(path) for path in paths)


def library_directory() -> Path:
    """Where the runner libraries and the OpenMP runtime are (`LIBRARY_DIR` unless overridden)."""
    return Path(os.environ.get(LIBRARY_DIR_VARIABLE) or LIBRARY_DIR)


def openmp_library() -> str:
    """The path of `OPENMP_LIBRARY`, or a `ToolchainError` saying what to install."""
    path = library_directory() / OPENMP_LIBRARY
    if not path.is_file():
        raise ToolchainError(
            f"LLVM's OpenMP runtime is missing ({path}; needed to run on several threads); "
            f"install it with: {OPENMP_INSTALL_HINT}"
        )
    return str(path)


def shared_libs_option(openmp: bool = False) -> str:
    """``-shared-libs=A,B``: the option that gives ``mlir-runner`` the runner libraries
    (and, if `openmp`, the OpenMP runtime, for modules whose loops run on several threads)."""
    libraries = [*runner_libraries(), *([openmp_library()] if openmp else [])]
    return "-shared-libs=" + ",".join(libraries)


def run_tool(name: str, arguments: Sequence[str], input: str | bytes | None = None) -> bytes:
    """Run tool `name` with `arguments`, `input` on stdin; its stdout, or a `ToolFailure`."""
    command = (tool(name), *arguments)
    data = input.encode() if isinstance(input, str) else input
    try:
        completed = subprocess.run(
            command,
            input=data,
            stdin=subprocess.DEVNULL if data is None else None,
            capture_output=True,
            check=False,
        )
    except OSError as error:
        raise ToolchainError(f"cannot run {command[0]}: {error.strerror or error}") from None
    if completed.returncode != 0:
        raise ToolFailure(command, completed.returncode, completed.stderr.decode(errors="replace"))
    return completed.stdout
