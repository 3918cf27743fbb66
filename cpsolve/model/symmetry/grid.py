"""Symmetries of a grid board: the square's symmetries that keep its groups.

The square has 8 symmetries (the dihedral group of order 8): the identity,
three rotations and four reflections.  A grid keeps those that map its set of
all-different groups (rows, columns, diagonals, boxes, extra groups) onto
itself: all 8 for Latin squares, 9×9 sudoku and 5×5 X-sudoku; only the
identity, the half turn and the two mirrors for 6×6 sudoku with 2×3 boxes
(a quarter turn or a diagonal mirror turns 2×3 boxes into 3×2 ones).

The symbols can always be renamed: a grid's constraints are all-different
groups over the values 1..size, so applying one permutation of the values to
every cell maps solutions to solutions.  Givens are not part of the board:
the symmetries belong to the rules, and the generator places givens itself.

A grid with constraints of its own (cages, inequalities, clues) keeps only the
square symmetries that map those conditions onto conditions of the rules
(:func:`cpsolve.model.symmetry.rules.breaks`), and renaming the symbols is
then not assumed: a cage's sum does not survive renaming.

Other symmetries some boards have (permuting sudoku bands, rows within a band,
transposing a Latin square's roles) are deliberately not included: "up to
symmetry" in cpsolve means the square's symmetries and renaming, nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..csp import Condition, Csp, CspSymmetry
from .boards import MOVES, cell_map
from .canonical import Symmetry
from .rules import breaks

Cell = tuple[int, int]


def preserved(n: int, groups: Iterable[Iterable[Cell]]) -> list[str]:
    """Names of the square symmetries that map the set of ``groups`` onto itself."""
    cells = {frozenset(g) for g in groups}
    keep = []
    for name, move in MOVES.items():  # a square has all of them (cpsolve.model.symmetry.boards)
        if {frozenset(move(n, n, r, c) for r, c in g) for g in cells} == cells:
            keep.append(name)
    return keep


def grid_symmetry(n: int, groups: Iterable[Iterable[Cell]],
                  variable: Callable[[int, int], str], rules: Csp | None = None) -> Symmetry:
    """The :class:`~cpsolve.model.symmetry.canonical.Symmetry` of an n×n board with these groups.

    Positions are cells in reading order (row by row); ``variable(r, c)``
    names the cell's variable.  ``rules`` is the board's model: when it has
    conditions besides givens, only the moves that keep them stay, without renaming.
    """
    groups = [list(g) for g in groups]
    names = preserved(n, groups)
    variables = tuple(variable(r, c) for r in range(n) for c in range(n))
    conditions = rules is not None and any(
        isinstance(c, Condition) and c.label != "given" for c in rules.constraints)
    if conditions:
        assert rules is not None
        names = [m for m in names if m == "identity" or not breaks(rules, CspSymmetry(
            m, dict(zip(variables, (variables[i] for i in cell_map(m, n, n)))), {}))]
    perms = tuple(tuple(cell_map(name, n, n)) for name in names)
    if len(names) == len(MOVES):
        summary = "all 8 symmetries of the square (rotations and mirrors)"
    elif len(names) == 1:
        summary = "no symmetry of the square but the identity"
    else:
        summary = f"{len(names)} of the square's 8 symmetries ({', '.join(names)})"
    return Symmetry(variables, perms, tuple(names), tuple(range(1, n + 1)), not conditions,
                    summary)
