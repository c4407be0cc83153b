"""Lowered programs compiled by IREE into modules, with their signature and weights beside them."""

from __future__ import annotations

import io
import json
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from relay_xdsl.compiler.build import generic_text
from relay_xdsl.compiler.errors import CompileError
from relay_xdsl.compiler.iree_build import (
    DEVICES,
    INSTALL_HINT,
    IreeMissing,
    build_vmfb,
    compile_vmfb,
    iree_package,
)
from relay_xdsl.compiler.program import program_from_mlir

pytestmark = pytest.mark.heavy

pytest.importorskip("iree.compiler")


def is_vm_module(data: bytes) -> bool:
    """An IREE module: a zip archive holding the VM's flatbuffer, ``module.fb``."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return "module.fb" in archive.namelist()


def test_build_leaves_the_module_its_signature_and_weights(tmp_path: Path, tosa: SimpleNamespace):
    weights = tosa.dense_relu_weights()
    program = program_from_mlir(tosa.DENSE_RELU, function="dense_relu", weights=weights)
    path = tmp_path / "dense_relu.vmfb"
    signature = build_vmfb(program, path)
    assert is_vm_module(path.read_bytes())
    assert json.loads((tmp_path / "dense_relu.json").read_text()) == signature.to_json()
    with np.load(tmp_path / "dense_relu.npz") as saved:
        for index, weight in enumerate(weights):
            np.testing.assert_array_equal(saved[f"arr_{index}"], weight)


def test_iree_takes_the_tosa_upstream_takes(tosa: SimpleNamespace):
    """The text handed to IREE is `generic_text`, byte for byte what mlir-opt-22 gets."""
    program = program_from_mlir(tosa.MANY_RESULTS, function="many")
    text = generic_text(program)
    assert "bufferization.writable = false" in text and "llvm.emit_c_interface" in text
    assert is_vm_module(compile_vmfb(text))


def test_a_gpu_module_compiles_without_a_gpu(tosa: SimpleNamespace):
    program = program_from_mlir(tosa.DENSE_RELU, function="dense_relu")
    assert is_vm_module(compile_vmfb(generic_text(program), DEVICES["cuda"]))


def test_a_module_iree_rejects_is_a_short_error():
    wrong = """
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tosa.add"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<2x3xf32>
}
"""
    with pytest.raises(CompileError) as error:
        compile_vmfb(wrong)
    message = str(error.value)
    assert message.startswith("iree-compile failed (exit status 1):\n")
    assert "error:" in message and "Invoked with" not in message


def test_without_iree_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "iree.compiler", None)  # import fails
    with pytest.raises(IreeMissing) as error:
        iree_package("iree.compiler")
    assert (
        str(error.value)
        == f"IREE is not installed (iree.compiler); install it with: {INSTALL_HINT}"
    )
    assert INSTALL_HINT == "pip install 'relay-xdsl[iree]'"
