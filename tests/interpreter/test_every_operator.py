"""Every operator example of the dialect's reference file runs, where the operator
has a kernel, and gives a value of the declared result type (dispatch checks it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from relay_xdsl.dialects.relay.ops import GenericOperatorOp, RegisteredOperatorOp
from relay_xdsl.interpreter import run
from relay_xdsl.interpreter.errors import InterpreterError
from relay_xdsl.interpreter.random_values import random_inputs
from relay_xdsl.interpreter.registry import KERNELS
from relay_xdsl.tools.mlir_text import relay_context

OPS_MLIR = Path(__file__).resolve().parents[1] / "filecheck" / "dialect" / "ops.mlir"


def _examples() -> list[FuncOp]:
    module = Parser(relay_context(), OPS_MLIR.read_text(), str(OPS_MLIR)).parse_module()
    return [op for op in module.ops if isinstance(op, FuncOp)]


EXAMPLES = _examples()

_LANGUAGE_OPS = frozenset({"relay.call", "relay.global", "relay.function", "relay.if"})


@pytest.mark.parametrize("func", EXAMPLES, ids=[f.sym_name.data for f in EXAMPLES])
def test_example_runs(func: FuncOp):
    operators = [
        op for op in func.walk() if isinstance(op, RegisteredOperatorOp | GenericOperatorOp)
    ]
    if not operators or any(op.name in _LANGUAGE_OPS for op in func.walk()):
        pytest.skip("an example of the structural or language ops (test_runner.py runs those)")
    for op in operators:
        if not isinstance(op, RegisteredOperatorOp) or op.OPERATOR.name not in KERNELS:
            pytest.skip(f"{op.operator_name} has no kernel")
    types = [arg.type for arg in func.body.block.args]
    if any(not isinstance(t, TensorType) or DYNAMIC_INDEX in t.get_shape() for t in types):
        pytest.skip("a parameter that is not a tensor of static shape")
    clone = func.clone()
    module = ModuleOp([clone])
    names = [f"arg{i}" for i in range(len(types))]
    for arg, name in zip(clone.body.block.args, names):
        arg.name_hint = name
    inputs = random_inputs(zip(names, types), seed=0)
    # Small integers: valid indices into the examples' data (take, gather, one_hot, ...).
    inputs = {k: v % 3 if v.dtype.kind in "iu" else v for k, v in inputs.items()}
    try:
        outputs = run(module, inputs, func.sym_name.data, random_constants=0)
    except InterpreterError as error:
        # A random index may fall outside the data (crop_and_resize's box
        # indices into a batch of one): the kernel must refuse, not answer.
        assert "out of bounds" in str(error), error
        return
    assert all(isinstance(o, np.ndarray) for o in outputs)
