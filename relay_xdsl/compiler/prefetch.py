"""Software prefetches of the next packed panel in a product's reduction loops.

A product on packed panels (relay_xdsl/conversion/packed_matmul.py, tiled by
schedule.py's ``_packed_matmul_action``) passes each panel (``K`` rows of
``PANEL`` floats) once per 8-row tile.  The first tile of a panel reads it
from memory, where a model's weights are (vit_b_16's are 330 MB), at about
three times the bandwidth one core gets (96 KiB in the time of 196,608
multiply-adds), and waits; the other tiles find it in L2.  MLIR has no pass
and the transform dialect no op that emits prefetches, so this step adds
them to the LLVM IR that ``mlir-translate`` makes of a unit: in the body of
each such reduction loop, one ``llvm.prefetch`` of the next panel at the
same reduction step, of the line that the row tile's index selects among the
``LINES_A_STEP`` lines of that step, so that 16 row tiles together fetch the
whole next panel into L2 while they compute with this one.  A prefetch never
faults: the last panel's prefetches past the weight's end are harmless.

The loop is found by its address arithmetic, as ``mlir-translate`` writes
it: the panel's offset ``p * (K * PANEL) + k * PANEL`` (``mul nsw``, ``mul
nsw``, ``add``) stored as the offset of a memref descriptor, whose aligned
pointer is the packed weight, in the block of a loop whose left operand's
offset is ``r * K + k`` (``r`` the tile's first row).  A product of few rows
(``PACKED_FEW_ROWS``), whose reduction runs in blocks, does not have that
form and is left alone.
"""

from __future__ import annotations

import re

from relay_xdsl.compiler.schedule import MATMUL_TILE
from relay_xdsl.conversion.packed_matmul import PANEL

TILE_ROWS, _, STEPS = MATMUL_TILE
"""The rows of a product's register tile and the reduction steps of one
iteration of its loop."""
LINE_FLOATS = 16
"""The floats of a cache line (64 bytes)."""
LINES_A_STEP = STEPS * PANEL // LINE_FLOATS
"""The cache lines of a panel that one iteration of the reduction loop reads."""
SHORTEST_REDUCTION = 64
"""Products of a shorter reduction (a panel of at most 8 KiB) get no prefetches."""
LOCALITY = 2
"""``llvm.prefetch`` 's locality: 2, into L2 (``prefetcht1``); 1 and 3 ran as fast."""

_DEFINITION = re.compile(r"^\s*(%[\w.]+) = (.*)$")
_ADD = re.compile(r"add i64 (%[\w.]+), (%[\w.]+)")
_SCALED = re.compile(r"mul nsw i64 (%[\w.]+), (\d+)")
DECLARATION = "declare void @llvm.prefetch.p0(ptr, i32, i32, i32)"
PREFETCH_KEY = f"{TILE_ROWS} {STEPS} {LINES_A_STEP} {SHORTEST_REDUCTION} {LOCALITY}"
"""What the prefetches depend on, for the object cache's key (build.py)."""


def prefetch_next_panels(llvm_ir: str) -> str:
    """`llvm_ir` with a prefetch of the next panel in each packed product's
    reduction loop (see the module docstring); unchanged if it has none."""
    lines = llvm_ir.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("define ")]
    inserted: dict[int, list[str]] = {}
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        inserted.update(_function_prefetches(lines, start, end, len(inserted)))
    if not inserted:
        return llvm_ir
    result: list[str] = []
    for index, line in enumerate(lines):
        result.append(line)
        result += inserted.get(index, [])
    if DECLARATION not in llvm_ir:
        result.append(DECLARATION)
    return "\n".join(result)


def _function_prefetches(
    lines: list[str], start: int, end: int, count: int
) -> dict[int, list[str]]:
    """The prefetches of the function of ``lines[start:end]``, each after the
    line that computes its panel's offset; named from `count` on."""
    definitions: dict[str, tuple[int, str]] = {}
    for index in range(start, end):
        if match := _DEFINITION.match(lines[index]):
            definitions[match.group(1)] = (index, match.group(2))

    def scaled(name: str) -> tuple[str, int] | None:
        match = _SCALED.fullmatch(definitions.get(name, (0, ""))[1])
        return (match.group(1), int(match.group(2))) if match else None

    # the left operand's offsets r * K + k, by (k, K): r
    rows: dict[tuple[str, int], str] = {}
    for _, expression in definitions.values():
        if (add := _ADD.fullmatch(expression)) and (first := scaled(add.group(1))):
            rows[(add.group(2), first[1])] = first[0]
    prefetches: dict[int, list[str]] = {}
    for offset, (index, expression) in definitions.items():
        add = _ADD.fullmatch(expression)
        if add is None:
            continue
        panel, step = scaled(add.group(1)), scaled(add.group(2))
        if panel is None or step is None or step[1] != PANEL or panel[1] % PANEL:
            continue
        reduction = panel[1] // PANEL
        row = rows.get((step[0], reduction))
        weight = _descriptor_pointer(lines, definitions, index, offset)
        if reduction < SHORTEST_REDUCTION or row is None or weight is None:
            continue
        # the tile's index and its line by shift and mask: both powers of two
        name = f"%next_panel{count + len(prefetches)}"
        prefetches[index] = [
            f"  {name}.tile = lshr i64 {row}, {TILE_ROWS.bit_length() - 1}",
            f"  {name}.line = and i64 {name}.tile, {LINES_A_STEP - 1}",
            f"  {name}.floats = mul i64 {name}.line, {LINE_FLOATS}",
            f"  {name}.step = add i64 {offset}, {panel[1]}",
            f"  {name}.at = add i64 {name}.step, {name}.floats",
            f"  {name} = getelementptr float, ptr {weight}, i64 {name}.at",
            f"  call void @llvm.prefetch.p0(ptr {name}, i32 0, i32 {LOCALITY}, i32 1)",
        ]
    return prefetches


def _descriptor_pointer(
    lines: list[str], definitions: dict[str, tuple[int, str]], index: int, offset: str
) -> str | None:
    """The aligned pointer of the memref descriptor whose offset is `offset`
    (set within a few lines after line `index`), or None."""
    setter = re.compile(r"= insertvalue \{[^}]*\} (%[\w.]+), i64 " + re.escape(offset) + r", 2$")
    for line in lines[index + 1 : index + 8]:
        if match := setter.search(line):
            pointer = re.search(r", ptr (%[\w.]+), 1$", definitions.get(match.group(1), (0, ""))[1])
            return pointer.group(1) if pointer else None
    return None
