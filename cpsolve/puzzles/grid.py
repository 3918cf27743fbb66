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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from ..answers.words import plural
from ..language.expr import Const, Expr, conjuncts
from ..language.quoting import shown
from ..language.scope import variable_scope
from ..model import Csp
from . import widths
from .base import Puzzle, indices
from .collection import instance_lines
from .constants import read_constants
from .data import Data, ModelFileError, key_part
from .file_expressions import condition_in
from .grid_picture import GridPicture, grid_picture

if TYPE_CHECKING:
    from ..model.symmetry.canonical import Symmetry

KEYS = {"family", "name", "description", "size", "symbols", "groups", "box", "extra", "givens",
        "instances", "instances_file", "constraints", "constants", "picture"}
GROUP_KINDS = ("rows", "columns", "diagonals", "boxes")
EMPTY = {".", "_", "0", "-"}
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
        return name if at is None or len(at) != 2 else f"r{at[0] + 1}c{at[1] + 1}"

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
        rows = board_rows(lines, self.size, value_of)
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


def board_rows(lines: list[str], n: int, value_of: Mapping[str, int]) -> list[list[str]]:
    """The first ``n`` lines of symbols in a row (text: the first board; box lines and
    frames skipped), each of ``n`` symbols.  ``ValueError`` says what is wrong: which row
    holds what is not a symbol, or how many symbols a row has, or how many rows there are."""
    symbols = f"{' '.join(value_of)} or ."
    rows: list[list[str]] = []
    wrong = ""  # the first row of a board that did not read, and why
    for line in lines:
        tokens = [t for t in line.replace("|", " ").replace("\u2502", " ").split()
                  if t in value_of or t not in SIGNS]  # a Futoshiki's signs between cells
        if tokens and all(t in value_of or t == "." for t in tokens):
            rows.append(tokens)
        elif rows and len(rows) < n and not set(line.strip()) <= set("-+| \u2502") | SIGNS:
            bad = next(t for t in tokens if t not in value_of and t != ".")
            wrong = wrong or f"row {len(rows) + 1}, column {tokens.index(bad) + 1}: " \
                f"{bad[:20]!r} is not one of them"
            rows = []
        if len(rows) == n:
            break
    short = next((f"row {r} has {len(row)} symbols" for r, row in enumerate(rows, start=1)
                  if len(row) != n), "")
    if len(rows) == n and not short:
        return rows
    raise ValueError(f"expected {n} rows of {n} symbols ({symbols}): "
                     + (short or wrong or f"found {len(rows)} such rows"))


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
        yield _puzzle(board, _givens(data, board.size, list(board.symbols)), "")
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
    symbols = _symbols(data, n)
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


def _symbols(data: Data, n: int) -> list[str]:
    raw = data.get("symbols", (str, list), None)
    if raw is None:
        return [str(i) for i in range(1, n + 1)]
    symbols = list(raw) if isinstance(raw, str) else raw
    if len(symbols) != n or not all(isinstance(s, str) and s.strip() == s and s
                                    for s in symbols):
        raise data.error("symbols", f"expected {n} non-blank symbols, got {shown(raw)}")
    if len(set(symbols)) != n or set(symbols) & EMPTY:
        raise data.error("symbols", "symbols must differ from each other and from . _ 0 -")
    return symbols


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


def _givens(data: Data, n: int, symbols: list[str]) -> dict[tuple[int, int], int]:
    text = data.get("givens", str, "")
    value_of = {s: i + 1 for i, s in enumerate(symbols)}
    rows = []
    for line in text.splitlines():
        line = line.replace("|", " ").strip()
        if not line or set(line) <= {"-", "+", " "} and ("+" in line or "--" in line):
            continue
        tokens = line.split()
        if len(tokens) != n and all(len(s) == 1 for s in symbols):
            tokens = list(line.replace(" ", ""))
        rows.append(tokens)
    if not rows:
        return {}
    if len(rows) != n:
        raise data.error("givens", f"the picture has {len(rows)} rows, expected {n}")
    givens = {}
    for r, tokens in enumerate(rows):
        if len(tokens) != n:
            raise data.error("givens",
                             f"row {r + 1} has {plural(len(tokens), 'cell')}, expected {n}")
        for c, t in enumerate(tokens):
            if t in EMPTY:
                continue
            if t not in value_of:
                raise data.error("givens", f"row {r + 1}, column {c + 1}: {shown(t)} is not a "
                                 f"symbol (symbols: {' '.join(symbols)})")
            givens[(r, c)] = value_of[t]
    return givens
