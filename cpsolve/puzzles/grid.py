"""Family ``grid``: an N×N grid of symbols with all-different groups and givens.

    family = "grid"
    name = "5x5 X-sudoku"
    size = 5
    symbols = "12345"           # optional: a string of one-character symbols or a
                                # list of strings; default 1..size
    groups = ["rows", "columns", "diagonals"]   # and/or "boxes" with box = [R, C]
    extra = [[[0, 0], [1, 2], [2, 4]]]          # more groups, as lists of [row, col]
    givens = '''
    1 . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    '''
    constraints = ["cell[0][1] < cell[0][2]"]   # optional: conditions over the cells,
                                # with ``size`` and the ``[constants]`` table in scope

    [picture]                   # optional, drawn only: regions, notes, signs
    signs = [[0, 1, 0, 2]]      # "<" between cells (0, 1) and (0, 2)

Every top-level key comes before the first ``[table]`` header (TOML puts a
key written after a header inside that table); the reference is
``docs/families/grid.md``.
Cells are the variables ``cell[r][c]`` (0-based) with values 1..size;
value ``v`` is drawn as ``symbols[v - 1]``.  In the givens picture a cell is
``.``, ``_``, ``0`` or ``-`` when empty; cells are separated by spaces, or
written side by side when every symbol is one character.  ``|`` and lines
made only of ``-``/``+`` are ignored, so boxes can be drawn.  ``[picture]``
(:mod:`cpsolve.puzzles.grid_picture`) shows what the constraints state but the family
cannot read back: cages or regions, notes in cells, inequality signs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..language.expr import Const, Expr, conjuncts
from ..language.quoting import shown
from ..language.scope import variable_scope
from ..model import Csp
from .collection import instance_lines
from .constants import read_constants
from .data import Data, ModelFileError, key_part
from .file_expressions import condition_in
from .grid_board import Cell, GridPuzzle, cell, groups
from .grid_givens import EMPTY, read_givens, read_symbols
from .grid_picture import GridPicture, grid_picture

KEYS = {"family", "name", "description", "size", "symbols", "groups", "box", "extra", "givens",
        "instances", "instances_file", "constraints", "constants", "picture"}
GROUP_KINDS = ("rows", "columns", "diagonals", "boxes")


def build(data: Data) -> GridPuzzle:
    """Build the CSP of a ``grid`` file (the first instance of a collection)."""
    first = next(iter(build_many(data)))
    if isinstance(first, ModelFileError):
        raise first
    return first


def build_many(data: Data) -> Iterator[GridPuzzle | ModelFileError]:
    """Every puzzle of a ``grid`` file: one, or one per line of its ``instances``.

    ``instances`` holds one puzzle per line, as collections are published: the
    n×n cells row by row (``.`` or ``0`` for a blank), anything after them on
    the line (a label, a comment) ignored; ``instances_file`` names such a
    file, relative to the model file.  The board (size, groups, symbols) is
    read once.  A bad line of a collection of several is yielded as its
    :class:`ModelFileError` (an error row of a batch; the other lines are solved).
    """
    board = _board(data)
    lines = instance_lines(data)
    if lines is None:
        yield _puzzle(board, read_givens(data, board.size, list(board.symbols)), "")
        return
    for key, number, text in lines:
        try:
            givens = _line_givens(data, key, number, text, board)
        except ModelFileError as err:
            if len(lines) == 1:
                raise
            yield err
            continue
        yield _puzzle(board, givens, f"#{number}")


@dataclass(frozen=True)
class _Board:
    name: str
    description: str
    size: int
    symbols: tuple[str, ...]
    box: tuple[int, int] | None
    kinds: tuple[str, ...]
    groups: tuple[tuple[str, tuple[Cell, ...]], ...]
    rules: tuple[tuple[str, Expr], ...] = ()
    """The file's ``constraints``: (text, one conjunct) each."""
    picture: GridPicture = GridPicture()

    @cached_property
    def names(self) -> list[list[str]]:
        """The cells' variable names by row (shared by every instance of a collection)."""
        return [[cell(r, c) for c in range(self.size)] for r in range(self.size)]

    @cached_property
    def group_names(self) -> list[tuple[str, list[str]]]:
        """Each group's label and the variable names of its cells."""
        names = self.names
        return [(label, [names[r][c] for r, c in cells]) for label, cells in self.groups]


def _board(data: Data) -> _Board:
    data.top_level = KEYS
    data.unknown_keys(KEYS)
    n = data.get("size", int)
    if not 1 <= n <= 36:
        raise data.error("size", f"must be between 1 and 36, got {n}")
    symbols = read_symbols(data, n)
    kinds = data.get("groups", list, ["rows", "columns"])
    box = None
    for kind in kinds:
        if kind not in GROUP_KINDS:
            raise data.error("groups", f"unknown group kind {shown(kind)} (known: "
                             f"{', '.join(GROUP_KINDS)})")
    if "boxes" in kinds:
        box = _box(data, n)
    all_groups = [(label, tuple(cells)) for label, cells in groups(n, kinds, box)]
    for i, group in enumerate(data.get("extra", list, [])):
        cells = _cells(data, f"extra[{i}]", group, n)
        all_groups.append((f"extra group {i + 1}", tuple(cells)))
    scope = _constants(data, n)
    return _Board(data.get("name", str, f"{n}x{n} grid"), data.get("description", str, ""),
                  n, tuple(symbols), box, tuple(kinds), tuple(all_groups),
                  _rules(data, n, dict(scope)), grid_picture(data, n, scope))


def _constants(data: Data, n: int) -> dict[str, Any]:
    """The scope of ``size`` and the ``[constants]`` (of the constraints and the picture)."""
    constants = data.get("constants", dict, {})
    data.misplaced(constants, "constants.")
    for name in ("size", "cell"):
        if name in constants:
            raise data.error(f"constants.{key_part(name)}", f"{shown(name)} is already the grid's "
                             f"{'size' if name == 'size' else 'cells'}: choose another name")
    return read_constants(data, constants, {"size": Const(n)})


def _rules(data: Data, n: int, scope: dict[str, Any]) -> tuple[tuple[str, Expr], ...]:
    """The ``constraints`` over the cells ``cell[r][c]``, each split into its conjuncts;
    ``scope`` holds ``size`` and the ``[constants]`` (cages, clues and inequalities)."""
    cells = Csp("cells")
    for r in range(n):
        for c in range(n):
            cells.add_variable(cell(r, c), 1, n)
    scope.update(variable_scope(cells.names))
    out = []
    for i, text in enumerate(data.get("constraints", list, [])):
        key = f"constraints[{i}]"
        if not isinstance(text, str):
            raise data.error(key, "expected an expression string")
        out += [(text, part) for part in conjuncts(condition_in(data, key, text, scope, cells))]
    return tuple(out)


def _puzzle(board: _Board, givens: dict[Cell, int], suffix: str) -> GridPuzzle:
    name = f"{board.name} {suffix}".strip()
    n = board.size
    csp = Csp(name)
    names = board.names
    for row in names:
        for var in row:
            csp.add_variable(var, 1, n)
    for label, group in board.group_names:
        csp.all_different(group, label)
    for text, part in board.rules:
        csp.require(part, text)
    for (r, c), v in sorted(givens.items()):
        csp.fix(names[r][c], v)
    rules = " and every constraint holding" if board.rules else ""
    return GridPuzzle(name, "grid", csp, board.description,
                      "a grid filled with every group all-different" + rules,
                      size=n, symbols=board.symbols, givens=givens, box=board.box,
                      kinds=board.kinds, groups=tuple(cells for _, cells in board.groups),
                      picture=board.picture)


def _line_givens(data: Data, key: str, number: int, text: str,
                 board: _Board) -> dict[Cell, int]:
    n = board.size
    cells = text.split()[0] if text.split() else ""
    if len(cells) != n * n and len(text.replace(" ", "")) >= n * n:
        cells = text.replace(" ", "")[: n * n]
    if len(cells) != n * n:
        raise data.error(f"{key} line {number}", f"expected {n * n} cells, got {len(cells):,}")
    value_of = {s: i + 1 for i, s in enumerate(board.symbols)}
    givens = {}
    for i, t in enumerate(cells):
        if t in EMPTY:
            continue
        if t not in value_of:
            raise data.error(f"{key} line {number}", f"cell {i + 1}: {shown(t)} is not a symbol")
        givens[divmod(i, n)] = value_of[t]
    return givens


def _box(data: Data, n: int) -> tuple[int, int]:
    if "box" not in data.table:
        data.hidden_in_a_table("box")
        rows = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
        raise data.error("box", f"missing: groups lists \"boxes\", so add box = [R, C], the "
                         f"rows and columns of one box (R x C = {n}: [{rows}, {n // rows}] "
                         "for instance)")
    box = data.items("box", int)
    if len(box) != 2 or not all(isinstance(v, int) and v > 0 for v in box):
        raise data.error("box", f"expected [rows, columns], got {shown(box)}")
    if n % box[0] or n % box[1] or box[0] * box[1] != n:
        raise data.error("box", f"{box[0]}x{box[1]} boxes do not tile a {n}x{n} grid")
    return box[0], box[1]


def _cells(data: Data, key: str, group: Any, n: int) -> list[tuple[int, int]]:
    if not isinstance(group, list) or not group:
        raise data.error(key, "expected a list of [row, col] pairs")
    cells = []
    for i, item in enumerate(group):
        for j, v in enumerate(item if isinstance(item, list) else ()):
            data.checked(f"{key}[{i}][{j}]", v, int)
        if not (isinstance(item, list) and len(item) == 2
                and all(isinstance(v, int) and 0 <= v < n for v in item)):
            raise data.error(key, f"{shown(item)} is not a [row, col] inside the {n}x{n} grid")
        cells.append((item[0], item[1]))
    if len(set(cells)) != len(cells):
        raise data.error(key, "a cell is listed twice")
    return cells
