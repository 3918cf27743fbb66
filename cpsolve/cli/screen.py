"""The screen the output is laid out for: its width (:func:`fit_columns`), and whether a
live display on stderr may take stdout's lines (:func:`shares_terminal`).

Standard library only: ``--help`` reads the width too (argparse, through ``COLUMNS``).
"""

from __future__ import annotations

import os

LEAST_COLUMNS = 40
"""The narrowest screen the output is laid out for: a narrower ``COLUMNS`` (or terminal)
is taken as this wide, and the terminal wraps what is wider than it really is — at 1 or
10 columns a title would come one letter a line, and at 0 rich would print nothing."""


def fit_columns(environ=os.environ) -> None:
    """``COLUMNS`` as every console of the command (and argparse's help) reads it: one
    that is not a whole number above 0 (``0``, ``-5``, ``wide``, empty) is dropped — the
    terminal's width then applies, else 80 —, and one under :data:`LEAST_COLUMNS` is
    raised to it.  A terminal narrower than that, with no ``COLUMNS``, sets it too."""
    given = environ.get("COLUMNS")
    columns = _whole(given)
    if given is not None and columns is None:
        del environ["COLUMNS"]
    if columns is None:
        columns = _terminal_columns()
    if columns is not None and columns < LEAST_COLUMNS:
        environ["COLUMNS"] = str(LEAST_COLUMNS)


def _whole(text: str | None) -> int | None:
    """``text`` as a whole number above 0 (ASCII digits only), else ``None``."""
    text = (text or "").strip()
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        return None
    return int(text)


def _terminal_columns() -> int | None:
    """The width of the first of stdin, stdout, stderr that is a terminal reporting one
    (as rich looks), else ``None`` (none is, or one reports 0: a bare pseudo-terminal)."""
    for fd in (0, 1, 2):
        try:
            columns = os.get_terminal_size(fd).columns
        except (OSError, ValueError):
            continue
        return columns or None
    return None


def shares_terminal() -> bool:
    """Whether stdout and stderr are one terminal: a live display drawn on stderr (a
    status line) may then take stdout's lines and print them above itself.  Otherwise
    they must not pass through it: stdout is a file or a pipe (``count --list --json >
    out.json``, with ``FORCE_COLOR`` too) and every line of it belongs there."""
    try:
        return os.isatty(1) and os.path.samestat(os.fstat(1), os.fstat(2))
    except OSError:
        return False
