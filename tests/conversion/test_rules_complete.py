"""Every lowering rule belongs to an operator; an operator has a rule or a reason for none."""

from __future__ import annotations

import pytest

from relay_xdsl.conversion.registry import RULES
from relay_xdsl.dialects.relay import operators
from relay_xdsl.dialects.relay.registry import NoLowering, Operator

ROWS = [row for group in operators.GROUPS for row in group.rows]


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_rule_or_reason(row: Operator):
    if row.name in RULES:
        assert row.lowering is None, f"{row.name} has a rule and a reason for none"
    elif row.lowering is not None:
        assert isinstance(row.lowering, NoLowering) and row.lowering.reason


def test_every_rule_belongs_to_an_operator():
    assert set(RULES.names()) <= {row.name for row in ROWS}
