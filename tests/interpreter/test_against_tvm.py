"""Each kernel against TVM 0.27: every operator example of the dialect's reference file
whose operator maps to Relax, exported through the Relax bridge, built for LLVM and run
on the Relax VM, on the same random inputs as the interpreter."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, StringAttr, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from relay_xdsl.dialects.relay.ops import RegisteredOperatorOp
from relay_xdsl.dialects.relay.relax_mapping import RelaxOp
from relay_xdsl.interpreter import run
from relay_xdsl.interpreter.random_values import random_inputs
from relay_xdsl.interpreter.registry import KERNELS
from relay_xdsl.tools.mlir_text import relay_context

tvm = pytest.importorskip("tvm")
pytestmark = [pytest.mark.tvm, pytest.mark.slow]

OPS_MLIR = Path(__file__).resolve().parents[1] / "filecheck" / "dialect" / "ops.mlir"


def _examples() -> list[FuncOp]:
    """The single-operator examples whose operator has a kernel and a Relax mapping."""
    module = Parser(relay_context(), OPS_MLIR.read_text(), str(OPS_MLIR)).parse_module()
    found = []
    for func in module.ops:
        if not isinstance(func, FuncOp):
            continue
        ops = [op for op in func.walk() if isinstance(op, RegisteredOperatorOp)]
        if len(ops) != 1 or func.sym_name.data != ops[0].name:
            continue
        row = ops[0].OPERATOR
        if row.name in KERNELS and isinstance(row.relax, RelaxOp):
            found.append(func)
    return found


EXAMPLES = _examples()


def _run_in_tvm(module: ModuleOp, inputs: list[np.ndarray]) -> list[np.ndarray]:
    from tvm import relax

    from relay_xdsl.exporters.relax import RelaxExportError, export_relax

    try:
        exported = export_relax(module)
    except (RelaxExportError, ValueError) as error:  # the bridge's limits, not the kernel's
        pytest.skip(f"the Relax bridge does not export this example: {str(error)[:120]}")
    executable = relax.build(exported, target="llvm")
    vm = relax.VirtualMachine(executable, tvm.cpu())
    result = vm["main"](*(tvm.runtime.tensor(x) for x in inputs))
    if isinstance(result, tvm.runtime.Tensor):
        return [result.numpy()]
    return [r.numpy() for r in result]


@pytest.mark.parametrize("func", EXAMPLES, ids=[f.sym_name.data for f in EXAMPLES])
def test_kernel_matches_tvm(func: FuncOp):
    types = [arg.type for arg in func.body.block.args]
    if any(not isinstance(t, TensorType) or DYNAMIC_INDEX in t.get_shape() for t in types):
        pytest.skip("a parameter that is not a tensor of static shape")
    clone = func.clone()
    clone.sym_name = StringAttr("main")
    module = ModuleOp([clone])
    names = [f"arg{i}" for i in range(len(types))]
    for arg, name in zip(clone.body.block.args, names):
        arg.name_hint = name
    inputs = random_inputs(zip(names, types), seed=0)
    # Integers 1 or 2: valid indices into the examples' data (take, one_hot, ...),
    # and divisors that do not trap (an integer division by zero kills TVM's process).
    inputs = {k: v % 2 + 1 if v.dtype.kind in "iu" else v for k, v in inputs.items()}
    ours = run(module, inputs)
    theirs = _run_in_tvm(module, list(inputs.values()))
    assert len(ours) == len(theirs)
    for actual, expected in zip(ours, theirs):
        assert actual.shape == expected.shape and actual.dtype == expected.dtype
        # Sums over many products (convolutions, matmuls) round differently in
        # TVM's loop order: an absolute error scaled by the result's magnitude.
        scale = float(np.max(np.abs(expected), initial=1.0)) if expected.size else 1.0
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6 * max(1.0, scale))
