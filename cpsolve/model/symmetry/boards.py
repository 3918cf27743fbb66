"""Named symmetries of a rectangular board: rotations and reflections.

A board of ``rows × cols`` cells numbered row by row.  Each symmetry maps a
cell ``(r, c)`` to the cell its content moves to.  A square has 8 (the
dihedral group of order 8); a rectangle that is not square keeps only the 4
that do not swap its sides.  Used by :meth:`cpsolve.model.csp.Csp.board_symmetries`
for an array of variables laid out as a board, and by :mod:`cpsolve.model.symmetry.grid`
for the grid family's square boards.
"""

from __future__ import annotations

from collections.abc import Callable

Move = Callable[[int, int, int, int], tuple[int, int]]

MOVES: dict[str, Move] = {
    "identity": lambda h, w, r, c: (r, c),
    "quarter turn clockwise": lambda h, w, r, c: (c, h - 1 - r),
    "half turn": lambda h, w, r, c: (h - 1 - r, w - 1 - c),
    "quarter turn anticlockwise": lambda h, w, r, c: (w - 1 - c, r),
    "left-right mirror": lambda h, w, r, c: (r, w - 1 - c),
    "top-bottom mirror": lambda h, w, r, c: (h - 1 - r, c),
    "main-diagonal mirror": lambda h, w, r, c: (c, r),
    "anti-diagonal mirror": lambda h, w, r, c: (w - 1 - c, h - 1 - r),
}
"""``(rows, cols, r, c) -> (r', c')``: where the content of cell ``(r, c)`` goes."""

SWAPS_SIDES = {"quarter turn clockwise", "quarter turn anticlockwise", "main-diagonal mirror",
               "anti-diagonal mirror"}
"""The symmetries a board has only when it is square."""


def names(rows: int, cols: int) -> list[str]:
    """The symmetries a ``rows × cols`` board has, identity first."""
    return [n for n in MOVES if rows == cols or n not in SWAPS_SIDES]


def cell_map(name: str, rows: int, cols: int) -> list[int]:
    """Symmetry ``name`` as a map of cell numbers: cell ``i`` goes to ``out[i]``."""
    if name not in MOVES:
        raise ValueError(f"unknown board symmetry {name!r} (known: {', '.join(MOVES)})")
    if name not in names(rows, cols):
        raise ValueError(f"a {rows}×{cols} board has no {name} (it is not square)")
    move = MOVES[name]
    out = []
    for i in range(rows * cols):
        r, c = move(rows, cols, i // cols, i % cols)
        out.append(r * cols + c)
    return out
