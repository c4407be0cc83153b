"""Relay data layouts and the conversion of shapes between them.

A layout names the axes of a shape, one letter each: an upper-case letter
is a primal axis (``N``, ``C``, ``H``, ``W``, ``O``, ``I``, ...); a block
size and a lower-case letter is a sub-axis of the primal axis of the same
letter (the ``4c`` of ``NCHW4c`` splits ``C`` into blocks of 4). Shapes are
converted between layouts with the same primal axes as by TVM's
``BijectiveLayout``: a blocked primal axis is the full extent divided by
its block, rounded up. Unknown dimensions (``DYNAMIC_INDEX``) stay unknown.

A malformed layout, or one that does not fit the shape or the other layout,
raises :class:`LayoutError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import DYNAMIC_INDEX

from relay_xdsl.support.memo import memoised


class LayoutError(ValueError):
    """A malformed layout, or a layout that does not fit a shape or another layout."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise LayoutError(message)


def parse_layout(name: str) -> list[tuple[str, int]]:
    """Layout axes as (letter, block): block 0 for a primal (upper-case) axis,
    the block size for a sub-axis such as the ``4c`` of ``NCHW4c``."""
    return list(_parsed_layout(name))


@memoised(maxsize=256)
def _parsed_layout(name: str) -> tuple[tuple[str, int], ...]:
    """`parse_layout`, read once per spelling (a model's every convolution
    names the same few layouts, several times each)."""
    axes: list[tuple[str, int]] = []
    block = 0
    for char in name:
        if char.isdigit():
            block = block * 10 + int(char)
        elif "A" <= char <= "Z":
            _check(block == 0, "a block size before a primal axis")
            axes.append((char, 0))
        elif "a" <= char <= "z":
            _check(block > 0, "a sub-axis without a block size")
            axes.append((char, block))
            block = 0
        else:
            raise LayoutError(f"{char!r} in a layout")
    primals = [a for a, b in axes if b == 0]
    _check(block == 0 and len(set(primals)) == len(primals), "a repeated primal axis")
    _check(all(a.upper() in primals for a, b in axes if b), "a sub-axis without its primal axis")
    return tuple(axes)


def primal_axes(layout: str) -> set[str]:
    """The letters of the primal axes of `layout`."""
    return {a for a, b in parse_layout(layout) if b == 0}


def _primal_extents(shape: Sequence[int], layout: str) -> dict[str, int]:
    """Full extent of each primal axis of `shape` in `layout` (``C`` of
    ``NCHW4c`` is the outer ``C`` times 4)."""
    axes = parse_layout(layout)
    _check(len(axes) == len(shape) and bool(axes), "a layout of another rank than the shape")
    extents = {}
    for (letter, block), dim in zip(axes, shape):
        if block:
            # TVM checks a static sub-axis against its block size.
            _check(dim in (block, DYNAMIC_INDEX), "a sub-axis of another size than its block")
        else:
            inner = prod(b for a, b in axes if b and a == letter.lower())
            extents[letter] = dim * inner if dim != DYNAMIC_INDEX else DYNAMIC_INDEX
    return extents


def convert_layout(shape: Sequence[int], src: str, dst: str) -> list[int]:
    """`shape` in layout `src` re-expressed in layout `dst` (``BijectiveLayout``).

    Both layouts must have the same primal axes. A blocked primal axis in
    `dst` is the full extent divided by its block, rounded up.
    """
    extents = _primal_extents(shape, src)
    axes = parse_layout(dst)
    _check(set(extents) == primal_axes(dst), "layouts with different primal axes")
    out = []
    for letter, block in axes:
        if block:
            out.append(block)
            continue
        extent = extents[letter]
        inner = prod(b for a, b in axes if b and a == letter.lower())
        out.append(-(-extent // inner) if extent != DYNAMIC_INDEX else DYNAMIC_INDEX)
    return out


def layout_index(layout: str, letter: str) -> int:
    """Position of primal axis `letter`, which must not be blocked."""
    letters = [a for a, _ in parse_layout(layout)]
    if letter not in letters or letter.lower() in letters:
        raise LayoutError(f"{layout!r} has no unblocked axis {letter!r}")
    return letters.index(letter)


def spatial_axes(dims: int) -> str:
    """The spatial axes of a `dims`-dimensional window or resize (1 to 3):
    ``W``, ``HW``, ``DHW``; the default layouts are ``NC`` and these."""
    if not 1 <= dims <= 3:
        raise LayoutError(f"{dims} spatial dimensions (1 to 3 supported)")
    return "DHW"[3 - dims :]
