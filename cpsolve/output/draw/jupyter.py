"""Jupyter: puzzles display as pictures and results as one line, through IPython's formatters.

Puzzles and results do not draw themselves (the families and the answers sit below the
output layer); :func:`register` tells an IPython shell how to show them.  The package's
front door calls it when ``cpsolve`` is imported inside IPython.
"""

from __future__ import annotations

from ...answers.result import Result
from ...puzzles.base import Puzzle
from . import picture
from .results import summary_html


def puzzle_svg(puzzle: Puzzle) -> str:
    """The puzzle drawn: its start state, or its givens."""
    return picture(puzzle).svg


def result_html(result: Result, puzzle: Puzzle | None = None) -> str:
    """The status and the answer in one line, the message in ``puzzle``'s words when it is
    given (a notebook's formatter has the result alone; :func:`~.show.shown` draws the
    answer with its puzzle)."""
    return summary_html(result, puzzle)


def register(shell) -> None:
    """Show puzzles (every family: subclasses too) and results in ``shell``'s front end."""
    formatters = shell.display_formatter.formatters
    formatters["image/svg+xml"].for_type_by_name(Puzzle.__module__, Puzzle.__name__,
                                                 puzzle_svg)
    formatters["text/html"].for_type_by_name(Result.__module__, Result.__name__, result_html)
