"""Every operator row has a kernel that resolves, or documents why it has none."""

from __future__ import annotations

import pytest

from relay_xdsl.dialects.relay import operators
from relay_xdsl.dialects.relay.registry import NoKernel, Operator
from relay_xdsl.interpreter.dispatch import resolve

ROWS = [(group.title, row) for group in operators.GROUPS for row in group.rows]


@pytest.mark.parametrize(("family", "row"), ROWS, ids=[row.name for _, row in ROWS])
def test_row_has_a_kernel(family: str, row: Operator):
    assert row.kernel is not None, f"{row.name} has neither a kernel nor no_kernel(reason)"
    if isinstance(row.kernel, NoKernel):
        assert row.kernel.reason, f"{row.name}: no_kernel needs a reason"
        return
    assert callable(resolve(row.kernel))
