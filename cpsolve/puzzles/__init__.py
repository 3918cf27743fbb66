"""Puzzle families: each turns model-file data into a generic model and renders states.

A family never solves.  See :mod:`cpsolve.puzzles.base` for what a puzzle
offers and :mod:`cpsolve.puzzles.data` for how a family reads its file.
:data:`FAMILIES` is the registry that :func:`cpsolve.files.load` reads: the
``family = "..."`` key of a model file names one of its entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import csp, grid, pegs, sliding, tour, transition
from .base import Puzzle
from .data import Data


@dataclass(frozen=True)
class Family:
    """One family: its name in model files, what it builds and from what.

    ``build`` reads a file's :class:`~cpsolve.puzzles.data.Data` and returns
    a puzzle of type ``puzzle`` whose model is of ``kind`` (``"csp"`` or
    ``"planning"``).
    """

    name: str
    build: Callable[[Data], Puzzle]
    puzzle: type[Puzzle]
    kind: str
    summary: str
    many: Callable[[Data], Iterator[Puzzle]] | None = None
    """Every instance of a file that may hold a collection (one puzzle per line)."""


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("transition", transition.build, transition.TransitionPuzzle, "planning",
           "state variables and actions written in the file"),
    Family("csp", csp.build, csp.CspPuzzle, "csp",
           "variables and constraints written in the file"),
    Family("grid", grid.build, grid.GridPuzzle, "csp",
           "an N×N grid of symbols with all-different groups and givens",
           many=grid.build_many),
    Family("sliding", sliding.build, sliding.SlidingPuzzle, "planning",
           "sliding-block puzzles drawn as pictures"),
    Family("tour", tour.build, tour.TourPuzzle, "csp",
           "leaper tours (knight's tours) as a circuit"),
    Family("pegs", pegs.build, pegs.PegsPuzzle, "planning",
           "peg solitaire, with jumps or chain moves as the metric"),
)}
"""Family name -> :class:`Family`; the order is the one error messages list."""

__all__ = ["FAMILIES", "Family"]
