"""The puzzle's own argument that no answer exists, given before any engine runs."""

from __future__ import annotations

from ..answers.result import Result
from ..engines.proofs import argued
from ..puzzles.base import Puzzle


def by_invariant(puzzle: Puzzle, task: str, keep: bool = False) -> Result | None:
    """The answer to ``task`` when the puzzle's own argument proves that none exists
    (:meth:`~cpsolve.puzzles.base.Puzzle.impossibility`), before any engine runs: for a solve
    and for a count of optimal plans alike.  It is given by
    :func:`cpsolve.engines.proofs.argued`, and checked there as every engine's answer is
    (a wrong argument raises :class:`~cpsolve.answers.result.EngineBug`)."""
    return argued(puzzle.model, task, puzzle.impossibility(), keep)
