"""Finding and running the upstream tools: overrides, missing tools, failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from relay_xdsl.compiler import toolchain
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.toolchain import (
    INSTALL_HINT,
    ToolchainError,
    ToolFailure,
    openmp_library,
    run_tool,
    runner_libraries,
    shared_libs_option,
    tool,
)


@pytest.fixture(autouse=True)
def fresh_lookup():
    toolchain._tool.cache_clear()
    yield
    toolchain._tool.cache_clear()


@pytest.mark.parametrize("name", sorted(toolchain.TOOLS))
def test_finds_each_tool(name: str):
    assert Path(tool(name)).name == toolchain.TOOLS[name][0]


def test_runs_a_tool():
    output = run_tool("mlir-opt", ["--pass-pipeline=builtin.module(canonicalize)"], "module {}")
    assert output.decode().strip() == "module {\n}"


def test_a_missing_tool_says_what_to_install(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ToolchainError, match="mlir-opt-22 is not installed") as error:
        tool("mlir-opt")
    assert INSTALL_HINT in str(error.value)
    assert isinstance(error.value, CompileError)


def test_an_override_names_the_tool(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    script = tmp_path / "my-opt"
    script.write_text("#!/bin/sh\necho overridden\n")
    script.chmod(0o755)
    monkeypatch.setenv("RELAY_XDSL_MLIR_OPT", str(script))
    assert run_tool("mlir-opt", []) == b"overridden\n"


def test_a_bad_override_is_an_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RELAY_XDSL_CLANG", "/nonexistent/clang")
    with pytest.raises(ToolchainError, match="RELAY_XDSL_CLANG=/nonexistent/clang"):
        tool("clang")


def test_a_failing_tool_reports_its_stderr():
    with pytest.raises(ToolFailure) as error:
        run_tool("mlir-opt", [], "func.func @f( {")
    message = str(error.value)
    assert message.startswith("mlir-opt-22 failed (exit status 1): ")
    assert "error: " in message and "<stdin>:1:" in message
    assert error.value.returncode == 1


def test_long_stderr_is_cut(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    script = tmp_path / "noisy"
    script.write_text("#!/bin/sh\nseq 1 100 >&2\nexit 3\n")
    script.chmod(0o755)
    monkeypatch.setenv("RELAY_XDSL_MLIR_OPT", str(script))
    with pytest.raises(ToolFailure) as error:
        run_tool("mlir-opt", [])
    lines = str(error.value).splitlines()
    assert lines[-1] == f"... ({100 - toolchain.MAX_STDERR_LINES} more lines)"
    assert "exit status 3" in lines[0]


def test_runner_libraries():
    libraries = runner_libraries()
    assert [Path(p).name for p in libraries] == list(toolchain.RUNNER_LIBRARIES)
    assert shared_libs_option() == "-shared-libs=" + ",".join(libraries)


def test_missing_runner_libraries_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    monkeypatch.setenv(toolchain.LIBRARY_DIR_VARIABLE, str(tmp_path))
    with pytest.raises(ToolchainError, match="runner libraries are missing") as error:
        runner_libraries()
    assert INSTALL_HINT in str(error.value)


def test_the_openmp_runtime_goes_to_the_runner_on_request():
    assert shared_libs_option(openmp=True) == f"{shared_libs_option()},{openmp_library()}"
    assert Path(openmp_library()).name == "libomp.so"


def test_a_missing_openmp_runtime_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    monkeypatch.setenv(toolchain.LIBRARY_DIR_VARIABLE, str(tmp_path))
    with pytest.raises(ToolchainError, match="OpenMP runtime is missing") as error:
        openmp_library()
    assert "apt-get install libomp-22-dev" in str(error.value)
