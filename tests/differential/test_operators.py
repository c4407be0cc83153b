"""Every operator, differentially: the reference interpreter against the compiled
MLIR (TOSA, mlir-opt-22, clang-22) and against TVM Relax 0.27 (``relax.build`` for
LLVM, the Relax VM), on each operator's example and edge cases (cases.py,
edge_cases.py), within the tolerances cases.py states.

This is a cross-backend test, so it sits in its own folder rather than under one
layer's mirror (tests/interpreter, tests/conversion, tests/exporters): the cases,
the batched runs (backends.py), the status table (status.py) and the TVM 0.19
record (test_tvm019.py) belong together. For speed, all cases run in one
session-scoped fixture (conftest.py): one compilation for every MLIR case and one
``relax.build`` for every Relax case (split only where a batch fails to build).

Each operator row is a test, ``test_operator_agrees[nn.conv2d]``; its failure lists
which backend fails or disagrees on which case, and why. Rows that lack a lowering
or a Relax export fail here until they get one: the table printed at the end of the
run (``pytest tests/differential``) shows the operator × backend status. Only the
VM-internal rows (memory.*, vm.*) are skipped, with the reason their row states.
"""

from __future__ import annotations

import pytest

from relay_xdsl.conversion.registry import RULES
from relay_xdsl.dialects.relay import operators
from relay_xdsl.dialects.relay.registry import NoKernel, NoLowering, NoRelax, Operator
from relay_xdsl.dialects.relay.relax_mapping import RelaxOp
from relay_xdsl.exporters.relax_compositions.registry import RELAX_EXPORTS
from relay_xdsl.interpreter.registry import KERNELS

from .backends import Results
from .cases import VM_INTERNAL, every_case

ROWS = operators.ALL
CASES = every_case()


def _vm_reason(row: Operator) -> str:
    reasons = [
        r.reason
        for r in (row.kernel, row.lowering, row.relax)
        if r is not None and hasattr(r, "reason")
    ]
    return f"VM-internal: {reasons[0]}" if reasons else "VM-internal"


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_operator_agrees(differential: Results, row: Operator):
    if row.name in VM_INTERNAL:
        pytest.skip(_vm_reason(row))
    problems = differential.problems(row.name)
    if problems:  # the message says it all: no traceback
        pytest.fail(
            f"{row.name}: {len(problems)} failures or disagreements with the interpreter\n"
            + "\n".join(problems),
            pytrace=False,
        )


def _missing(row: Operator) -> list[str]:
    """The backends `row` lacks without stating why."""
    missing = []
    if row.name not in KERNELS and not (isinstance(row.kernel, NoKernel) and row.kernel.reason):
        missing.append("an interpreter kernel (@kernel) and a reason for none (no_kernel)")
    if row.name not in RULES and not (isinstance(row.lowering, NoLowering) and row.lowering.reason):
        missing.append("a lowering rule (@lowering) and a reason for none (no_lowering)")
    exported = isinstance(row.relax, RelaxOp) or row.name in RELAX_EXPORTS
    # A NoRelax reason says why Relax has no operator of the same meaning; it
    # excuses the lack of an export only for the VM's own rows and the dynamic
    # ones, which export as the static operator relay-dynamic-to-static makes.
    excused = (
        (row.name in VM_INTERNAL or row.name.startswith("dyn."))
        and isinstance(row.relax, NoRelax)
        and row.relax.reason
    )
    if not exported and not excused:
        missing.append("a Relax export (a RelaxOp mapping or @relax_export)")
    return missing


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_row_has_every_backend(row: Operator):
    missing = _missing(row)
    if missing:
        pytest.fail(f"{row.name} lacks " + "; ".join(missing), pytrace=False)


def test_every_operator_has_cases():
    covered = {case.operator for case in CASES}
    assert {row.name for row in ROWS} - VM_INTERNAL <= covered
    assert covered <= {row.name for row in ROWS}


def test_case_names_are_unique():
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
