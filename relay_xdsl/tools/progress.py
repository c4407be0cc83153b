"""Progress of the ``relay-xdsl`` command's long steps, on stderr.

`step` shows a step that is still running after a second as a tqdm line on
stderr (``relay-xdsl: exporting resnet18 ... 3.2s``), kept up to date by a
thread while the step blocks in TVM or PyTorch; with ``total=`` it is a bar
that the step advances through the callback it is given. When the step ends
the line stays with its final time. Nothing is shown when stderr is not a
terminal (pipes, files, tests) or when tqdm is not installed (it comes with
the ``tvm`` extra, which the long steps need anyway).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator

DELAY = 1.0
"""Seconds a step runs before its progress appears."""

REFRESH = 0.2
"""Seconds between updates of the elapsed time."""


def _shown() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _terminal_size() -> tuple[int, int]:
    """Columns and lines of the terminal; 80 × 24 where it reports none (tqdm,
    given a size of 0, prints nothing)."""
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, ValueError, OSError):
        return 80, 24
    return size.columns or 80, size.lines or 24


@contextlib.contextmanager
def step(what: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """Show `what` on stderr while it runs, if it takes more than `DELAY` seconds.

    Yields ``advance(n)``, which moves the bar of a step of known `total` size.
    """
    if not _shown():
        yield lambda n: None
        return
    try:
        from tqdm import tqdm
    except ImportError:
        yield lambda n: None
        return
    bar_format = (
        "relay-xdsl: {desc} {elapsed}"
        if total is None
        else "relay-xdsl: {desc} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} {elapsed}"
    )
    columns, lines = _terminal_size()
    bar = tqdm(
        total=total,
        desc=what,
        file=sys.stderr,
        delay=DELAY,
        bar_format=bar_format,
        ncols=columns,
        nrows=lines,
        leave=True,
    )
    lock = threading.Lock()
    done = threading.Event()
    start = time.monotonic()

    def refresh() -> None:
        # A blocked step updates nothing: this keeps its elapsed time current,
        # once it is shown (tqdm's `delay` holds back only what tqdm prints itself).
        while not done.wait(REFRESH):
            if time.monotonic() - start >= DELAY:
                with lock:
                    bar.refresh()

    def advance(n: int) -> None:
        with lock:
            bar.update(n)

    thread = threading.Thread(target=refresh, name="relay-xdsl progress", daemon=True)
    thread.start()
    try:
        yield advance
    finally:
        done.set()
        thread.join()
        with lock:
            if time.monotonic() - start >= DELAY:
                bar.refresh()
            bar.close()
