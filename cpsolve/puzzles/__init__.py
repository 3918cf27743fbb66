"""Puzzle families: each turns model-file data into a generic model and renders states.

A family never solves.  See :mod:`cpsolve.puzzles.base` for what a puzzle
offers and :mod:`cpsolve.puzzles.data` for how a family reads its file.
:data:`FAMILIES` is the registry that :func:`cpsolve.puzzles.files.load` reads: the
``family = "..."`` key of a model file names one of its entries.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType

from .base import Puzzle
from .data import Data


@dataclass(frozen=True)
class Family:
    """One family: its name in model files, what it builds and from what.

    ``build`` reads a file's :class:`~cpsolve.puzzles.data.Data` and returns
    a puzzle of type ``puzzle`` whose model is of ``kind`` (``"csp"`` or
    ``"planning"``).  The family's module (``cpsolve.puzzles.<name>``) is
    imported on first use: a command loads the one family its file names.
    """

    name: str
    puzzle_class: str
    kind: str
    summary: str
    collections: bool = False
    """Whether a file may hold a collection (one puzzle per line): see :attr:`many`."""

    @property
    def module(self) -> ModuleType:
        """``cpsolve.puzzles.<name>``, imported now if it was not yet."""
        return importlib.import_module(f"{__name__}.{self.name}")

    @property
    def keys(self) -> set[str]:
        """The top-level keys of its model files (the module's ``KEYS``)."""
        return set(self.module.KEYS)

    @property
    def build(self) -> Callable[[Data], Puzzle]:
        """The module's ``build(data)``: the puzzle of a file."""
        return self.module.build

    @property
    def puzzle(self) -> type[Puzzle]:
        """The class of the puzzles it builds."""
        return getattr(self.module, self.puzzle_class)

    @property
    def many(self) -> Callable[[Data], Iterator[Puzzle]] | None:
        """Every instance of a file that may hold a collection (``None``: one puzzle)."""
        return self.module.build_many if self.collections else None


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("transition", "TransitionPuzzle", "planning",
           "state variables and actions written in the file"),
    Family("csp", "CspPuzzle", "csp", "variables and constraints written in the file"),
    Family("grid", "GridPuzzle", "csp",
           "an N×N grid of symbols with all-different groups and givens", collections=True),
    Family("sliding", "SlidingPuzzle", "planning", "sliding-block puzzles drawn as pictures"),
    Family("tour", "TourPuzzle", "csp", "leaper tours (knight's tours) as a circuit"),
    Family("pegs", "PegsPuzzle", "planning",
           "peg solitaire, with jumps or chain moves as the metric"),
    Family("sokoban", "SokobanPuzzle", "planning",
           "pushing puzzles (Sokoban) from the usual map, moves or pushes as the metric"),
)}
"""Family name -> :class:`Family`; the order is the one error messages list."""

__all__ = ["FAMILIES", "Family"]
