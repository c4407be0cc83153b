"""The `relay` dialect: TVM Relay programs as MLIR operations (see ops.py)."""

from relay_xdsl.dialects.relay.ops import *
from relay_xdsl.dialects.relay.ops import attr_value as attr_value
