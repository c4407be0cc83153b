"""Every operator row has a registered kernel, or documents why it has none."""

from __future__ import annotations

import pytest

from relay_xdsl.dialects.relay import operators
from relay_xdsl.dialects.relay.registry import NoKernel, Operator
from relay_xdsl.interpreter.registry import KERNELS

ROWS = [(group.title, row) for group in operators.GROUPS for row in group.rows]


@pytest.mark.parametrize(("family", "row"), ROWS, ids=[row.name for _, row in ROWS])
def test_row_has_a_kernel(family: str, row: Operator):
    kernel = KERNELS.get(row.name)
    if kernel is None:
        assert isinstance(row.kernel, NoKernel), f"{row.name} has neither a kernel nor a reason"
        assert row.kernel.reason, f"{row.name}: no_kernel needs a reason"
    else:
        assert callable(kernel)
        assert row.kernel is None, f"{row.name} has a kernel and a reason for none"


def test_every_kernel_belongs_to_an_operator():
    names = {row.name for _, row in ROWS}
    assert set(KERNELS.names()) <= names
