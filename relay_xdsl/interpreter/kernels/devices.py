"""Kernels of the device placement operators: the value is unchanged.

The interpreter has one device, so placing a value (``on_device``) or
copying it between virtual devices (``device_copy``) gives the value itself,
a tensor or a tuple.
"""

from __future__ import annotations

from typing import Any

from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.interpreter.registry import kernel


@kernel("on_device")
def on_device(call: Call, value: Any) -> Any:
    return value


@kernel("device_copy")
def device_copy(call: Call, value: Any) -> Any:
    return value
