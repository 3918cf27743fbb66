"""A ``grid`` puzzle's board: its cells' variable names (``cell[r][c]``), its
all-different groups, the board drawn as text (box lines, the picture's signs between
cells) and read back from such text; :mod:`cpsolve.puzzles.grid` reads the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from . import widths
from .base import Puzzle, cell_name, indices
from .board_text import board_rows
from .grid_picture import GridPicture

if TYPE_CHECKING:
    from ..model.symmetry.canonical import Symmetry

SIGNS = frozenset("<>\u2227\u2228^v")
"""The signs a text board draws between cells (``<`` ``>`` in a row, ``∧`` ``∨`` in a column,
``^`` ``v`` on a console that cannot write those: :data:`cpsolve.cli.charset.STAND_INS`)."""
Cell = tuple[int, int]


def cell(r: int, c: int) -> str:
    """The variable name of a cell."""
    return f"cell[{r}][{c}]"


@cache
def cells(n: int) -> tuple[tuple[str, ...], ...]:
    """The variable names of an ``n`` × ``n`` board's cells, row by row (made once: boards
    are drawn by the ten thousand when generated puzzles are written out)."""
    return tuple(tuple(cell(r, c) for c in range(n)) for r in range(n))


@dataclass(frozen=True, kw_only=True)
class GridPuzzle(Puzzle):
    """A grid puzzle: draws boards with box lines.

    ``symbols[v - 1]`` is drawn for value ``v``; ``givens`` maps ``(row, col)``
    to a value; ``box`` is ``(rows, columns)`` of a box when the grid has
    boxes; ``kinds`` are the group kinds named in the file and ``groups``
    every all-different group (extra groups included) as cells.
    """

    size: int
    symbols: tuple[str, ...]
    givens: Mapping[Cell, int]
    box: tuple[int, int] | None
    kinds: tuple[str, ...]
    groups: tuple[tuple[Cell, ...], ...]
    picture: GridPicture = GridPicture()
    """The file's ``[picture]``: regions, notes and signs drawn with the board."""

    def rows(self, solution: Mapping[str, int] | None) -> list[list[str]]:
        """The board as rows of symbols (``.`` for an empty cell)."""
        symbols = self.symbols
        if solution is None:
            n = self.size
            return [[symbols[v - 1] if (v := self.givens.get((r, c))) else "."
                     for c in range(n)] for r in range(n)]
        return [[symbols[v - 1] if (v := solution.get(name)) else "." for name in row]
                for row in cells(self.size)]

    def draw(self, solution: Mapping[str, int] | None) -> str:
        """The board as text, with box separators when the grid has boxes and the
        picture's signs between cells (``<`` ``>`` in a row, ``∧`` ``∨`` in a column)."""
        box, n, marks = self.box, self.size, self.picture.marks()
        width = max(widths.cells(s) for s in self.symbols)
        lines = []
        for r, row in enumerate(self.rows(solution)):
            rule = bool(box and r and r % box[0] == 0)
            if rule or any(((r - 1, c), (r, c)) in marks for c in range(n)):
                lines.append(_between_rows(r, n, width, box, marks, rule))
            lines.append(_row_text([widths.rjust(s, width) for s in row], r, box, marks))
        return "\n".join(lines)

    def render_solution(self, solution: Mapping[str, int]) -> str:
        return self.draw(solution)

    def variable_text(self, name: str) -> str:
        """A cell as people name it, counted from 1 as the groups are: ``r3c3``."""
        at = indices(name, "cell")
        return name if at is None or len(at) != 2 else cell_name(at)

    def value_text(self, name: str, value: int) -> str:
        """A cell's value as its symbol."""
        return self.symbols[value - 1] if 1 <= value <= len(self.symbols) else str(value)

    def symmetry(self) -> Symmetry:
        """The board's symmetries: square symmetries keeping the groups, and renaming."""
        from ..model.symmetry.grid import grid_symmetry

        return grid_symmetry(self.size, self.groups, cell, self.model)

    def json_solution(self, solution: Mapping[str, int]) -> Any:
        return [" ".join(row) for row in self.rows(solution)]

    def read_solution(self, written: Any) -> dict[str, int]:
        """A JSON assignment, or the board as rows of symbols (text, or the rows of
        ``--json``; box lines and frames are skipped; ``.`` is an empty cell)."""
        if isinstance(written, dict):
            return super().read_solution(written)
        lines = written.splitlines() if isinstance(written, str) else written
        if not isinstance(lines, list) or not all(isinstance(ln, str) for ln in lines):
            raise ValueError("expected the board as rows of symbols")
        value_of = {s: v for v, s in enumerate(self.symbols, start=1)}
        rows = board_rows(lines, (self.size, self.size), lambda t: t in value_of or t == ".",
                          f"{' '.join(value_of)} or .", ignored=SIGNS)
        return {cell(r, c): value_of[t] for r, row in enumerate(rows)
                for c, t in enumerate(row) if t != "."}


Marks = Mapping[tuple[Cell, Cell], str]


def _row_text(cells: list[str], r: int, box: tuple[int, int] | None, marks: Marks) -> str:
    """Row ``r`` of a text board: between two cells their sign, a box wall ``|`` or a
    space, with a space either side of a wall, and of every gap when the board has signs."""
    out = [cells[0]]
    for c in range(1, len(cells)):
        wall = bool(box and c % box[1] == 0)
        mark = marks.get(((r, c - 1), (r, c))) or ("|" if wall else " ")
        out += [f" {mark} " if marks or wall else " ", cells[c]]
    return "".join(out)


def _between_rows(r: int, n: int, width: int, box: tuple[int, int] | None, marks: Marks,
                  rule: bool) -> str:
    """The line above row ``r`` of a text board: a box rule (``-`` and ``+``) or blank,
    with the signs between rows ``r - 1`` and ``r`` under their cells."""
    fill = "-" if rule else " "
    out = []
    for c in range(n):
        if c:
            wall = bool(box and c % box[1] == 0)
            out.append(("-+-" if rule else " | ") if wall else fill * (3 if marks else 1))
        out.append(widths.rjust(marks.get(((r - 1, c), (r, c)), fill), width, fill))
    return "".join(out).rstrip()


def groups(n: int, kinds: list[str], box: tuple[int, int] | None) -> list[tuple[str, list]]:
    """The all-different groups of the named kinds, as ``(label, cells)``."""
    out: list[tuple[str, list]] = []
    if "rows" in kinds:
        out += [(f"row {r + 1}", [(r, c) for c in range(n)]) for r in range(n)]
    if "columns" in kinds:
        out += [(f"column {c + 1}", [(r, c) for r in range(n)]) for c in range(n)]
    if "diagonals" in kinds:
        out.append(("main diagonal", [(i, i) for i in range(n)]))
        out.append(("anti-diagonal", [(i, n - 1 - i) for i in range(n)]))
    if box:
        h, w = box
        for br in range(0, n, h):
            for bc in range(0, n, w):
                cells = [(br + i, bc + j) for i in range(h) for j in range(w)]
                out.append((f"box {br // h * (n // w) + bc // w + 1}", cells))
    return out
