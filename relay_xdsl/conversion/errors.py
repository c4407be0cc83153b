"""Why a Relay program does not lower: errors at the op that could not be lowered."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from relay_xdsl.transforms.diagnostics import source_position


class LoweringError(PassFailedException):
    """An op the conversion cannot lower, with the reason; ``file:line:col: error:``
    first when the op came from a known place of the input."""

    def __init__(self, message: str, op: Operation | None = None):
        position = source_position(op) if op is not None else None
        prefix = f"{position[0]}:{position[1]}:{position[2]}: error: " if position else ""
        super().__init__(f"{prefix}{message}")
        self.message = message
