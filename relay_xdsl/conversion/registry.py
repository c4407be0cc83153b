"""The lowering rules of the operators, by operator name.

A rule registers itself with ``@lowering("nn.conv2d")``. It takes the
:class:`~relay_xdsl.conversion.lowering.RuleCall` of one operator call and
returns the lowered result (a :class:`~relay_xdsl.conversion.values.Tensor`,
or a tuple of them for a tuple result).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from relay_xdsl.support.registration import Registry

if TYPE_CHECKING:
    from relay_xdsl.conversion.lowering import RuleCall
    from relay_xdsl.conversion.values import Lowered

Rule = Callable[["RuleCall"], "Lowered"]

RULES: Registry[Rule] = Registry("lowering rule", "relay_xdsl.conversion.rules")
"""Every operator's lowering rule; importing :mod:`relay_xdsl.conversion.rules` fills it."""

lowering = RULES.register
