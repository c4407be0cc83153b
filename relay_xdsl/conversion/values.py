"""Relay values while they are lowered: tensors in a physical layout, or known contents.

A lowered tensor keeps its Relay (logical) type and says how its IR value
lays the logical dimensions out: ``perm[i]`` is the logical dimension that
physical dimension ``i`` holds. A 4-D NCHW activation held in NHWC has
``perm == (0, 2, 3, 1)``. Layout-insensitive operators (elementwise ones,
concatenation) work on the physical layout as it is, so the conversion to
NHWC happens once where a convolution first needs it and the transposes
back happen only where a layout-sensitive operator needs Relay's order.

A tensor whose contents are known when compiling (a constant, or a call
folded from constants) keeps them as a numpy array in logical layout;
layout changes and folding then happen on the array, and the IR sees the
result as a weight argument or a ``tosa.const`` only where an operator uses
it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, SSAValue


def identity(rank: int) -> tuple[int, ...]:
    """The permutation of Relay's own layout."""
    return tuple(range(rank))


NCHW_TO_NHWC = (0, 2, 3, 1)
"""Where an NCHW tensor's dimensions are when it is held in NHWC."""


def permuted_type(type_: TensorType, perm: tuple[int, ...]) -> TensorType:
    """`type_` with its dimensions in the order `perm` names."""
    shape = type_.get_shape()
    return TensorType(type_.get_element_type(), [shape[p] for p in perm])


@dataclass(eq=False)
class Tensor:
    """A lowered tensor: an IR value in layout `perm`, or contents known at compile time."""

    type: TensorType
    """The Relay type (logical layout)."""
    value: SSAValue | None = None
    """The IR value, laid out as `perm` says; None while only `array` is known."""
    perm: tuple[int, ...] = ()
    """Which logical dimension each physical dimension holds (see the module docstring)."""
    array: np.ndarray | None = None
    """The contents in logical layout, when known at compile time."""
    in_layout: dict[tuple[int, ...], SSAValue] = field(default_factory=dict)
    """The IR values of this tensor already made, by layout."""

    def __post_init__(self) -> None:
        if not self.perm:
            self.perm = identity(self.type.get_num_dims())
        if self.value is not None:
            self.in_layout[self.perm] = self.value

    @property
    def rank(self) -> int:
        return self.type.get_num_dims()

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.type.get_shape())

    @property
    def element_type(self) -> Attribute:
        return self.type.get_element_type()

    @property
    def is_identity(self) -> bool:
        return self.perm == identity(self.rank)


Lowered: TypeAlias = "Tensor | tuple[Lowered, ...]"
"""A lowered Relay value: a tensor, or a tuple of lowered values."""
