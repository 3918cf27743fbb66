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

Other symmetries some boards have (permuting sudoku bands, rows within a band,
transposing a Latin square's roles) are deliberately not included: "up to
symmetry" in cpsolve means the square's symmetries and renaming, nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .boards import MOVES, cell_map
from .canonical import Symmetry

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
                  variable: Callable[[int, int], str]) -> Symmetry:
    """The :class:`~cpsolve.model.symmetry.canonical.Symmetry` of an n×n board with these groups.

    Positions are cells in reading order (row by row); ``variable(r, c)``
    names the cell's variable.
    """
    groups = [list(g) for g in groups]
    names = preserved(n, groups)
    perms = tuple(tuple(cell_map(name, n, n)) for name in names)
    variables = tuple(variable(r, c) for r in range(n) for c in range(n))
    if len(names) == len(MOVES):
        summary = "all 8 symmetries of the square (rotations and mirrors)"
    elif len(names) == 1:
        summary = "no symmetry of the square but the identity"
    else:
        summary = f"{len(names)} of the square's 8 symmetries ({', '.join(names)})"
    return Symmetry(variables, perms, tuple(names), tuple(range(1, n + 1)), True, summary)
