"""The registry rows of every operator, grouped by family.

Each module holds the rows of one family of operators; :data:`GROUPS` lists
them in the order of the dialect's reference (docs/dialect.md), the Relay
operators first and the Relax-only ones last.
"""

from __future__ import annotations

from typing import NamedTuple

from relay_xdsl.dialects.relay.operators import (
    broadcasting,
    devices,
    dynamic,
    elementwise,
    image,
    memory,
    nn,
    pooling,
    reductions,
    relax_only,
    shape,
)
from relay_xdsl.dialects.relay.registry import Operator


class Group(NamedTuple):
    """A family of operators, under the title the reference gives it."""

    title: str
    rows: tuple[Operator, ...]


RELAY_GROUPS: tuple[Group, ...] = (
    Group("Neural network: convolution and dense layers", nn.CONVOLUTION_AND_DENSE),
    Group("Neural network: activations", nn.ACTIVATIONS),
    Group("Neural network: pooling", pooling.POOLING),
    Group("Neural network: normalization and dropout", nn.NORMALIZATION),
    Group("Neural network: data movement", nn.DATA_MOVEMENT),
    Group("Binary elementwise arithmetic (broadcasting)", broadcasting.ARITHMETIC),
    Group("Comparisons (broadcasting, bool result)", broadcasting.COMPARISONS),
    Group("Logical and bitwise (broadcasting)", broadcasting.LOGICAL_AND_BITWISE),
    Group("Unary elementwise", elementwise.UNARY),
    Group("Clipping, casts and tensor creation", elementwise.CLIP_CAST_AND_CREATION),
    Group("Shape manipulation", shape.SHAPE_MANIPULATION),
    Group("Gathering, repetition and layout", shape.GATHER_REPEAT_AND_LAYOUT),
    Group("Reductions", reductions.REDUCTIONS),
    Group("Image", image.IMAGE),
    Group("Sorting", reductions.SORTING),
    Group("Devices", devices.DEVICES),
    Group("Memory and VM", memory.MEMORY),
    Group("Dynamic shapes", dynamic.DYNAMIC),
)
"""The Relay operators."""

RELAX_GROUP = Group("Relax-only operators", relax_only.RELAX_ONLY)
"""Relax operators without an exact Relay counterpart."""

GROUPS: tuple[Group, ...] = (*RELAY_GROUPS, RELAX_GROUP)

RELAY_OPERATORS: tuple[Operator, ...] = tuple(row for group in RELAY_GROUPS for row in group.rows)
RELAX_ONLY_OPERATORS: tuple[Operator, ...] = RELAX_GROUP.rows
ALL: tuple[Operator, ...] = (*RELAY_OPERATORS, *RELAX_ONLY_OPERATORS)
"""Every row, in reference order."""

BY_NAME: dict[str, Operator] = {row.name: row for row in ALL}
"""Every row by operator name: how each generated op class
(:mod:`relay_xdsl.dialects.relay.operator_ops`) reaches its row."""
