"""Device placement operators: ``on_device`` and ``device_copy``.

Their virtual devices are ``meta[VirtualDevice][i]`` references
(``#relay.meta``, meta.py), kept as written.
"""

from __future__ import annotations

from xdsl.ir import Attribute

from relay_xdsl.dialects.relay.attributes import OpPattern, anything, boolean
from relay_xdsl.dialects.relay.inference import Call
from relay_xdsl.dialects.relay.registry import Operator, no_relax


def _identity(call: Call) -> Attribute:
    """The result has the argument's type (tensor or tuple)."""
    return call.args[0]


# fmt: off
DEVICES: tuple[Operator, ...] = (
    Operator("on_device",
        "Annotates its argument as placed on `virtual_device`; the value is unchanged.",
        # TVM's OnDeviceAttrs
        attrs=(anything("virtual_device", required=True), boolean("constrain_result", False),
               boolean("constrain_body", True)),
        returns_tuple=None, operands=("body",), pattern=OpPattern.OPAQUE, infer=_identity,
        relax=no_relax("Relax places values with R.hint_on_device, which has no attributes")),
    Operator("device_copy",
        "Copies its argument from `src_virtual_device` to `dst_virtual_device`.",
        # TVM's DeviceCopyAttrs
        attrs=(anything("src_virtual_device", required=True),
               anything("dst_virtual_device", required=True)),
        returns_tuple=None, pattern=OpPattern.OPAQUE, infer=_identity,
        relax=no_relax("Relax's to_vdevice takes a VDevice, not a pair of virtual devices")),
)
# fmt: on
