"""Removing a stopped engine's scratch directory once its answer is out.

A directory of thousands of small files (the on-disk analysis's layers: 2,300 layer
directories took 0.2 to 0.6 s to remove on a loaded machine) removed where an engine
stopped at the time limit returns would spend most of the 0.6 s it has to return what it
found (:meth:`.clock.Clock.grace`); past that, the command cuts the engine off with nothing
to show.  :func:`remove_at_exit` leaves it to the process's exit, after the answer is
printed (:func:`finish`).  Not a thread: one contending for the interpreter with the
printing of the answer took 4 to 5 s to remove the same directory, and the process waited
for it.
"""

from __future__ import annotations

import atexit
import shutil
from pathlib import Path

_pending: list[Path] = []


def remove_at_exit(path: str | Path) -> None:
    """Remove ``path`` and all it holds when the process exits (errors ignored)."""
    _pending.append(Path(path))


@atexit.register
def finish() -> None:
    """Remove every directory left for the exit (also what a caller may do sooner)."""
    while _pending:
        shutil.rmtree(_pending.pop(), ignore_errors=True)
