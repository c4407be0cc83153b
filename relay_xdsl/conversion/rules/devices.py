"""Device placement: ``on_device`` and ``device_copy`` leave their argument as it is.

A lowered program runs on one device, so placing a value or copying it
between virtual devices gives the value itself, a tensor or a tuple.
"""

from __future__ import annotations

from relay_xdsl.conversion.lowering import RuleCall
from relay_xdsl.conversion.registry import lowering
from relay_xdsl.conversion.values import Lowered


@lowering("on_device", "device_copy")
def placed(call: RuleCall) -> Lowered:
    return call.args[0]
