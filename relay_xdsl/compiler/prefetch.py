"""Software prefetches of the next packed panel in a product's reduction loops,
and of the next tile's input and residual in a conv's.

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
offset is ``r * K + k`` (``r`` the tile's first row).

A product of few rows (``PACKED_FEW_ROWS``), which runs its reduction in
blocks of ``PACKED_K_BLOCK`` panel rows, its row tiles inside each block,
gets none: the hardware's prefetchers keep up with a block's contiguous 48
KiB, and a prefetch a step of the row a block on made bert and gpt2 slower
(106.9 and 110.2 ms against 103.4 and 106.3, one thread, medians of
alternating calls).

A convolution reading its taps in place (packed_matmul.py's
``packed_conv2d``) passes each panel once per tile of an output row's
pixels: its loop of a tile's channel steps gets one prefetch an iteration,
in the next panel, of the line that the tile's output row selects among the
``CONV_LINES_A_STEP`` lines of the step, so that 8 rows' tiles fetch the
whole next panel.  That loop's weight offset is ``((p * (K * PANEL) + kh *
(KW * C * PANEL)) + kw * (C * PANEL)) + c * PANEL``, and the output row the
first term of its input's offset, which ends in ``+ c``.

A conv tiled from its epilogue (schedule.py's ``_epilogue_action``) adds, after
a tile's sums, an operand it was given (a residual block's input) at each of
the tile's pixels: 7 pixels of 128 bytes, a row of channels apart. Where that
operand is larger than the L2 (resnet50's at 56 pixels, 3.2 MB), its reads
came from L3 and waited: a quarter of such a conv's time, as long as its
1x1 conv of 64 channels. Each pixel's read there gets prefetches of the same
pixel of the next tile, `EPILOGUE_PIXELS_AHEAD` pixels on (along the row, or
the next row's first, whose column tiles the row's last one precedes), one per
line, so that they arrive while that tile sums (resnet50's such convs at 56
pixels about 14 % faster, at 28 about 5 %). Its offset is ``((y * (W * C) +
x * C) + f) + i * C``, and its pointer the function's argument.

A 1x1 conv's tile reads its input, 7 pixels of all the channels, contiguous
(7 KiB at 256 channels), 4 channels a step; where the input's rows are as
long, it comes from L3 too. Each step prefetches its share of the next
tile's 7 pixels, which follow the tile's own (`INPUT_LINES_A_STEP` lines:
resnet50's 1x1 convs from 56 pixels of 256 channels to 64, 18 % less time).
That loop's offset is ``(y * (W * C) + x * C) + c``, ``c`` its variable.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from relay_xdsl.compiler.schedule import CONV_TILE, MATMUL_TILE
from relay_xdsl.conversion.packed_matmul import PANEL

TILE_ROWS, _, STEPS = MATMUL_TILE
"""The rows of a product's register tile and the reduction steps of one
iteration of its loop."""
LINE_FLOATS = 16
"""The floats of a cache line (64 bytes)."""
LINES_A_STEP = STEPS * PANEL // LINE_FLOATS
"""The cache lines of a panel that one iteration of the reduction loop reads."""
CONV_LINES_A_STEP = CONV_TILE[-1] * PANEL // LINE_FLOATS
"""The cache lines of a panel that one iteration of a packed conv's loop reads."""
SHORTEST_REDUCTION = 64
"""Products of a shorter reduction (a panel of at most 8 KiB) get no prefetches."""
LOCALITY = 2
"""``llvm.prefetch`` 's locality: 2, into L2 (``prefetcht1``); 1 and 3 ran as fast."""

_DEFINITION = re.compile(r"^\s*(%[\w.]+) = (.*)$")
_ADD = re.compile(r"add i64 (%[\w.]+), (%[\w.]+)")
_SCALED = re.compile(r"mul nsw i64 (%[\w.]+), (\d+)")
DECLARATION = "declare void @llvm.prefetch.p0(ptr, i32, i32, i32)"
EPILOGUE_ROW_FLOATS = 8192
"""The fewest floats of an operand's row (32 KiB) for a conv's epilogue to
prefetch it: resnet50's residuals (rows of 56 pixels by 256 channels, 3.2 MB)
come from L3; resnet18's (56 by 64, 0.8 MB) are in L2, and gained nothing."""
EPILOGUE_PIXELS_AHEAD = CONV_TILE[2]
"""How many pixels on a conv's epilogue prefetches its operand: a tile's columns,
so that each tile fetches the next one's."""
EPILOGUE_LINES = CONV_TILE[3] // LINE_FLOATS
"""The lines of a pixel's operand that a conv's epilogue reads: a tile's filters."""
INPUT_LINES_A_STEP = -(-CONV_TILE[2] * CONV_TILE[-1] // LINE_FLOATS)
"""The lines of a 1x1 conv's input that a tile's channel step reads, 7 pixels of
4 channels together: the lines a step prefetches of the next tile's."""
PREFETCH_KEY = (
    f"{TILE_ROWS} {STEPS} {LINES_A_STEP} {SHORTEST_REDUCTION} {LOCALITY}"
    f" {CONV_LINES_A_STEP}"
    f" {EPILOGUE_ROW_FLOATS} {EPILOGUE_PIXELS_AHEAD} {EPILOGUE_LINES} {INPUT_LINES_A_STEP}"
)
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
    parameters = set(re.findall(r"ptr (%[\w.]+)", lines[start]))
    definitions: dict[str, tuple[int, str]] = {}
    for index in range(start, end):
        if match := _DEFINITION.match(lines[index]):
            definitions[match.group(1)] = (index, match.group(2))

    def scaled(name: str) -> tuple[str, int] | None:
        match = _SCALED.fullmatch(definitions.get(name, (0, ""))[1])
        return (match.group(1), int(match.group(2))) if match else None

    def added(name: str) -> re.Match[str] | None:
        return _ADD.fullmatch(definitions.get(name, (0, ""))[1])

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
        if conv := _conv_taps(scaled, added, definitions, add):
            weight = _descriptor_pointer(lines, definitions, index, offset)
            if weight is not None:
                name = f"%next_taps{count + len(prefetches)}"
                prefetches[index] = _conv_prefetch(name, weight, offset, *conv)
            continue
        if channels := _input_read(scaled, added, definitions, add):
            operand = _descriptor_pointer(lines, definitions, index, offset)
            if operand is not None and operand in parameters:
                name = f"%next_input{count + len(prefetches)}"
                prefetches[index] = _input_prefetch(name, operand, offset, add.group(2), channels)
            continue
        if channels := _epilogue_read(scaled, added, add):
            operand = _descriptor_pointer(lines, definitions, index, offset)
            if operand is not None and operand in parameters:
                name = f"%next_pixels{count + len(prefetches)}"
                prefetches[index] = _epilogue_prefetch(name, operand, offset, channels)
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


def _conv_taps(
    scaled: Callable[[str], tuple[str, int] | None],
    added: Callable[[str], re.Match[str] | None],
    definitions: dict[str, tuple[int, str]],
    add: re.Match[str],
) -> tuple[int, str] | None:
    """If `add` is a packed conv's weight offset ``((p * (K * PANEL) + kh *
    (KW * C * PANEL)) + kw * (C * PANEL)) + c * PANEL``: the panel's size ``K
    * PANEL`` and the tile's output row ``y``, the first term of its input's
    offset ``(((y * W + x) + kh * W) + kw * C) + c``."""
    taps, step = added(add.group(1)), scaled(add.group(2))
    if taps is None or step is None or step[1] != PANEL:
        return None
    rows, column = added(taps.group(1)), scaled(taps.group(2))
    if rows is None or column is None or column[1] % PANEL or column[1] == PANEL:
        return None
    panel, row = scaled(rows.group(1)), scaled(rows.group(2))
    if panel is None or row is None or panel[1] % row[1] or row[1] % column[1]:
        return None
    for _, expression in definitions.values():
        match = _ADD.fullmatch(expression)
        if match is None or match.group(2) != step[0]:
            continue
        first = match.group(1)
        while (inner := added(first)) is not None:
            first = inner.group(1)
        if (output_row := scaled(first)) is not None:
            return panel[1], output_row[0]
    return None


def _epilogue_read(
    scaled: Callable[[str], tuple[str, int] | None],
    added: Callable[[str], re.Match[str] | None],
    add: re.Match[str],
) -> int | None:
    """If `add` is the offset of a pixel of a conv tile's epilogue in an NHWC
    operand, ``((y * (W * C) + x * C) + f) + i * C`` (the tile's row, column and
    first filter, the pixel's index in the tile): the channels ``C``."""
    pixel, tile = scaled(add.group(2)), added(add.group(1))
    corner = added(tile.group(1)) if tile is not None else None
    if pixel is None or corner is None:
        return None
    row, column = scaled(corner.group(1)), scaled(corner.group(2))
    if row is None or column is None or column[1] != pixel[1] or row[1] % pixel[1]:
        return None
    return pixel[1] if row[1] >= EPILOGUE_ROW_FLOATS else None


def _input_read(
    scaled: Callable[[str], tuple[str, int] | None],
    added: Callable[[str], re.Match[str] | None],
    definitions: dict[str, tuple[int, str]],
    add: re.Match[str],
) -> int | None:
    """If `add` is the offset of a 1x1 conv tile's input at a channel step, ``(y *
    (W * C) + x * C) + c`` (the tile's row and first column, ``c`` its loop's
    variable), of rows of at least `EPILOGUE_ROW_FLOATS` floats: the channels ``C``."""
    corner = added(add.group(1))
    step = definitions.get(add.group(2), (0, ""))[1]
    if corner is None or not step.startswith("phi i64"):
        return None
    row, column = scaled(corner.group(1)), scaled(corner.group(2))
    if row is None or column is None or row[1] % column[1] or row[1] < EPILOGUE_ROW_FLOATS:
        return None
    return column[1]


def _input_prefetch(name: str, operand: str, offset: str, step: str, channels: int) -> list[str]:
    """The prefetches, named `name`, in a 1x1 conv tile's loop of channel steps
    (`step` its variable), of `INPUT_LINES_A_STEP` lines of the next tile's input
    in `operand` (the tile's 7 pixels' channels, contiguous, then the next 7's),
    the step's share: the next tile's input arrives while this one sums."""
    share = INPUT_LINES_A_STEP * LINE_FLOATS // CONV_TILE[-1]
    lines = [
        f"  {name}.rest = mul i64 {step}, {share - 1}",
        f"  {name}.next = add i64 {offset}, {CONV_TILE[2] * channels}",
        f"  {name}.at = add i64 {name}.next, {name}.rest",
    ]
    return lines + _line_prefetches(name, operand, INPUT_LINES_A_STEP)


def _epilogue_prefetch(name: str, operand: str, offset: str, channels: int) -> list[str]:
    """The prefetches, named `name`, in a conv tile's epilogue of a pixel of
    `operand` (an argument: the residual it adds) `EPILOGUE_PIXELS_AHEAD`
    pixels on, each of its `EPILOGUE_LINES` lines."""
    ahead = f"  {name}.at = add i64 {offset}, {EPILOGUE_PIXELS_AHEAD * channels}"
    return [ahead, *_line_prefetches(name, operand, EPILOGUE_LINES)]


def _line_prefetches(name: str, operand: str, count: int) -> list[str]:
    """Prefetches of `count` consecutive lines of `operand` from offset
    ``<name>.at`` on, the first named `name`."""
    lines = [f"  {name} = getelementptr float, ptr {operand}, i64 {name}.at"]
    for line in range(count):
        lines += [
            f"  {name}.{line} = getelementptr float, ptr {name}, i64 {line * LINE_FLOATS}",
            f"  call void @llvm.prefetch.p0(ptr {name}.{line}, i32 0, i32 {LOCALITY}, i32 1)",
        ]
    return lines


def _conv_prefetch(name: str, weight: str, offset: str, panel: int, row: str) -> list[str]:
    """The prefetch, named `name`, in a packed conv's loop of a tile's steps
    (see the module docstring): of line ``y % CONV_LINES_A_STEP`` of the
    lines the step reads, in the next panel of `weight` (`panel` floats on)."""
    return [
        f"  {name}.line = and i64 {row}, {CONV_LINES_A_STEP - 1}",
        f"  {name}.floats = mul i64 {name}.line, {LINE_FLOATS}",
        f"  {name}.step = add i64 {offset}, {panel}",
        f"  {name}.at = add i64 {name}.step, {name}.floats",
        f"  {name} = getelementptr float, ptr {weight}, i64 {name}.at",
        f"  call void @llvm.prefetch.p0(ptr {name}, i32 0, i32 {LOCALITY}, i32 1)",
    ]


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
