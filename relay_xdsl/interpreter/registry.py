"""The kernels of the operators, by operator name.

A kernel registers itself with ``@kernel("nn.conv2d")``. It takes the call
(:class:`~relay_xdsl.dialects.relay.inference.Call`: argument types,
attributes with TVM's defaults, ``result_type``) and the argument arrays (a
tuple of arrays for a tuple argument), and returns the result array, or a
tuple of arrays for a tuple result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from relay_xdsl.support.registration import Registry

Kernel = Callable[..., Any]
"""``kernel(call, *arrays)``: the result array, or a tuple of arrays."""

KERNELS: Registry[Kernel] = Registry("kernel", "relay_xdsl.interpreter.kernels")
"""Every operator's kernel; importing :mod:`relay_xdsl.interpreter.kernels` fills it."""

kernel = KERNELS.register
