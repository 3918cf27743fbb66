"""Arguments a family states that no plan exists, carried by the model
(:attr:`cpsolve.model.planning.Planning.unsolvable`) and re-derived by the independent
checker before any answer rests on them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Parity:
    """A permutation-parity invariant, as a family argues it (the sliding puzzles' classic
    proof): the ``cells`` (state variables) hold distinct values that every action only
    rearranges, and the parity of the permutation they form (its inversions, in the order
    of ``cells``) plus the ``colours`` entry (0 or 1) of the cell holding ``blank`` is the
    same in every state reached from the start.  It is ``start`` at the start and ``goal``
    (the other value) in every goal state, so no plan exists.

    Nothing here derives it: a family states it (with ``words``, its argument for people)
    and the independent checker (:func:`cpsolve.answers.check.proofs.parity_problem`) re-derives
    every part of it from the model before a result carrying it is shown.
    """

    cells: tuple[str, ...]
    colours: tuple[int, ...]
    blank: int
    start: int
    goal: int
    words: str = ""
