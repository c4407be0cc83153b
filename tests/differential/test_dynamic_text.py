"""The ``dyn.*`` operators as TVM's frontends emit them, through Relay text and
``relay-xdsl run``: each dynamic case (its shape arguments constants) printed with
its constants in ``#[metadata]``, imported back (the importer infers its types)
and run by the interpreter, the compiled MLIR and TVM Relax, which must agree with
the interpreter's run of the case itself.

test_operators.py runs the same cases from the relay dialect; here the Relay text
and the command line are in the way too: the constants must come back from the
metadata, and compiling must make the calls static before it fuses them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from relay_xdsl.exporters.relay_text import print_relay
from relay_xdsl.interpreter import run
from relay_xdsl.tools.cli import main

from .cases import INTERPRETER_ONLY, disagreement, every_case

DYNAMIC = [
    case
    for case in every_case()
    if case.operator.startswith("dyn.") and case.operator not in INTERPRETER_ONLY
]


@pytest.mark.parametrize("case", DYNAMIC, ids=[case.name for case in DYNAMIC])
def test_runs_from_relay_text_on_every_backend(case, tmp_path: Path):
    program = tmp_path / "program.relay"
    program.write_text(print_relay(case.module()))
    inputs = case.inputs()
    arguments = ["run", str(program)]
    for name, array in inputs.items():
        np.save(tmp_path / f"{name}.npy", array)
        arguments += ["--input", f"{name}={tmp_path / f'{name}.npy'}"]
    expected = run(case.module(), inputs)
    for backend in ("interpreter", "mlir", "tvm"):
        saved = tmp_path / f"{backend}.npz"
        assert main([*arguments, "--backend", backend, "-o", str(saved)]) == 0, backend
        with np.load(saved) as outputs:
            actual = [outputs[f"output{i}"] for i in range(len(outputs))]
        assert len(actual) == len(expected), backend
        for index, (got, want) in enumerate(zip(actual, expected)):
            why = disagreement(case.operator, got, want)
            assert why is None, f"{backend}, output {index}: {why}"
