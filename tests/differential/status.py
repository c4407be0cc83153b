"""The operator × backend status of a differential run, as a table.

One line per operator row; a column per backend: ``ok`` where every case of the
operator agrees with the interpreter, else the worst outcome and how many of the
operator's cases had it (``unsupported 3/5``: not lowered or not exported;
``failed``: accepted but not compiled or run; ``differs``: results outside the
tolerance). The interpreter's column says whether it ran every case. VM-internal
rows are listed as ``skipped``.
"""

from __future__ import annotations

from relay_xdsl.dialects.relay import operators

from .backends import AGREES, BACKENDS, DIFFERS, FAILED, UNSUPPORTED, Results
from .cases import VM_INTERNAL

_WORST_FIRST = (DIFFERS, FAILED, UNSUPPORTED)


def _cell(verdicts: list[str]) -> str:
    if all(v == AGREES for v in verdicts):
        return "ok"
    worst = next(v for v in _WORST_FIRST if v in verdicts)
    return f"{worst} {verdicts.count(worst)}/{len(verdicts)}"


def status_rows(results: Results) -> list[tuple[str, ...]]:
    """(operator, interpreter, mlir, relax) for every row, in reference order."""
    rows = []
    for row in operators.ALL:
        if row.name in VM_INTERNAL:
            rows.append((row.name, *["skipped"] * (1 + len(BACKENDS))))
            continue
        names = [n for n, case in results.cases.items() if case.operator == row.name]
        references = [results.reference[n] for n in names]
        failed = sum(isinstance(r, str) for r in references)
        interpreter = "ok" if not failed else f"{FAILED} {failed}/{len(names)}"
        cells = [_cell([results.outcomes[b][n].verdict for n in names]) for b in BACKENDS]
        rows.append((row.name, interpreter, *cells))
    return rows


def status_table(results: Results) -> str:
    header = ("operator", "interpreter", *BACKENDS)
    rows = [header, *status_rows(results)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    totals = [
        f"{backend}: {sum(r[2 + i] == 'ok' for r in rows[1:])} ok"
        for i, backend in enumerate(BACKENDS)
    ]
    return "\n".join([*lines, f"of {len(rows) - 1} operators: " + ", ".join(totals), ""])
