"""Pictures of puzzles: SVG boards for every family, HTML pages for plans, counts, analyses.

Standard library only.  Engines never import this package and families do
not draw pictures themselves: :func:`picture` dispatches on the puzzle's
class and draws from the family's own typed fields.  Modules:

* :mod:`.svg` — the tiny SVG writer (escaping, deterministic numbers), and a picture
  nested under a caption (what a run without an answer found instead);
* :mod:`.grid`, :mod:`.tour`, :mod:`.pegs`, :mod:`.sliding`, :mod:`.sokoban` — one board
  each;
* :mod:`.transition` — a transition file's declared ``[draw]``: a board, stacks, levels;
* :mod:`.table` — any other model: its variables as a table, under the
  family's ``show`` text, or the family's lines of text (``Puzzle.state_lines``);
* :mod:`.results` — the one place that reads results (answer types);
* :mod:`.chart` — bars of states per distance;
* :mod:`.page` — self-contained HTML: the plan player, galleries, analyses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ...answers.kinds import Step
from ...model import Csp, Planning
from ...puzzles.base import Puzzle
from ...puzzles.csp import CspPuzzle
from ...puzzles.grid_board import GridPuzzle
from ...puzzles.pegs import PegsPuzzle
from ...puzzles.sliding import SlidingPuzzle
from ...puzzles.sokoban import SokobanPuzzle
from ...puzzles.tour import TourPuzzle
from ...puzzles.transition import TransitionPuzzle
from .grid import grid_svg
from .pegs import pegs_svg
from .sliding import sliding_svg
from .sokoban import sokoban_svg
from .table import lines_svg, table_svg
from .tour import tour_svg
from .transition import drawing_svg

State = tuple[int, ...]


@dataclass(frozen=True)
class Picture:
    """An SVG picture: shown inline by Jupyter, written with :meth:`save`."""

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> None:
        """Write the picture as a standalone ``.svg`` file."""
        from ...engines.runtime.output_files import write_output

        write_output(path, '<?xml version="1.0" encoding="UTF-8"?>\n' + self.svg)


def picture(puzzle: Puzzle, what: State | Mapping[str, int] | None = None,
            step: Step | None = None, title: str | None = None) -> Picture:
    """``puzzle`` drawn: its start (``what=None``), a state (a tuple) or an assignment.

    The start is the initial state of a planning puzzle, or the givens (an
    empty board) of a csp puzzle.  ``step`` is the plan step that led to
    ``what``; boards that can show it (the piece moved, the jump) do.
    """
    model = puzzle.model
    if isinstance(model, Planning):
        state = model.initial_state() if what is None else what
        assert isinstance(state, tuple), "a planning puzzle is drawn in a state (a tuple)"
        return Picture(_state_svg(puzzle, state, step, title or _title(puzzle, step)))
    assert what is None or isinstance(what, Mapping), "a csp puzzle is drawn from an assignment"
    return Picture(_assignment_svg(puzzle, what, title or _title(puzzle, None, what)))


def _title(puzzle: Puzzle, step: Step | None, values: Mapping | None = None) -> str:
    if step is not None:
        return f"{puzzle.name}: after {puzzle.step_text(step)}"
    if isinstance(puzzle.model, Csp):
        return f"{puzzle.name}: {'a solution' if values is not None else 'the puzzle'}"
    return f"{puzzle.name}: start"


def _state_svg(puzzle: Puzzle, state: State, step: Step | None, title: str) -> str:
    if isinstance(puzzle, PegsPuzzle):
        return pegs_svg(puzzle, state, step, title)
    if isinstance(puzzle, SlidingPuzzle):
        return sliding_svg(puzzle, state, step, title)
    if isinstance(puzzle, SokobanPuzzle):
        return sokoban_svg(puzzle, state, step, title)
    model = puzzle.model
    assert isinstance(model, Planning)
    env = model.assignment(state)
    if isinstance(puzzle, TransitionPuzzle) and puzzle.drawing is not None:
        return drawing_svg(puzzle.drawing, env, puzzle.template.render(env)
                           if puzzle.template.show else "", title, puzzle.template.label)
    if isinstance(puzzle, TransitionPuzzle):
        return table_svg(env, puzzle.template.render(env) if puzzle.template.show else "",
                         title, puzzle.template.label)
    lines = puzzle.state_lines(state)
    return table_svg(env, "", title) if lines is None else lines_svg(lines, title)


def _assignment_svg(puzzle: Puzzle, values: Mapping[str, int] | None, title: str) -> str:
    if isinstance(puzzle, GridPuzzle):
        return grid_svg(puzzle, values, title)
    if isinstance(puzzle, TourPuzzle):
        return tour_svg(puzzle, values, title)
    model = puzzle.model
    assert isinstance(model, Csp)
    env: dict[str, int | None] = {n: (values or {}).get(n) for n in model.names}
    if isinstance(puzzle, CspPuzzle) and values is not None and puzzle.template.show:
        return table_svg(env, puzzle.template.render(values), title, puzzle.template.label)
    if isinstance(puzzle, CspPuzzle):  # unsolved: the rules under the unknowns
        return table_svg(env, "", title, puzzle.template.label,
                         rules=puzzle.rules if values is None else ())
    return table_svg(env, "", title)


__all__ = ["Picture", "picture"]
