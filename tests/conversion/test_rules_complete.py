"""Every lowering rule a row names resolves; the models' operators all have one."""

from __future__ import annotations

import pytest

from relay_xdsl.conversion.lowering import resolve
from relay_xdsl.dialects.relay import operators
from relay_xdsl.dialects.relay.registry import NoLowering, Operator

ROWS = [row for group in operators.GROUPS for row in group.rows if row.lowering is not None]


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_rule_resolves(row: Operator):
    if isinstance(row.lowering, NoLowering):
        assert row.lowering.reason
        return
    assert callable(resolve(row.lowering))
