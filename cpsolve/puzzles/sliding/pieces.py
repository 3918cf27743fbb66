"""Pieces of a sliding picture: which cells form one piece, its shape, its state values.

A *piece* is a set of cells carrying one token that moves as a whole; its
*shape* is the offsets of its cells from its first cell (row-major order).
Pieces with the same token and the same shape are interchangeable: they form
one :class:`Kind`, whose cell ``k`` (in shape order) holds the state value
``base + k`` wherever a piece of the kind lies.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...language.quoting import shown
from .. import data as _data

EMPTY, WALL, ANY = "_", "#", "?"
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


def where(cell: Cell) -> str:
    """A cell in words, 1-based: ``row 2, column 3``."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


@dataclass(frozen=True)
class Board:
    """Board geometry: rows, columns and the playable cells in row-major order."""

    rows: int
    cols: int
    cells: tuple[Cell, ...]

    def var(self, cell: Cell) -> str:
        """State variable of a cell."""
        return f"c[{self.index[cell]}]"

    @cached_property
    def index(self) -> dict[Cell, int]:
        """The position of each cell in :attr:`cells`."""
        return {cell: i for i, cell in enumerate(self.cells)}


@dataclass(frozen=True)
class Piece:
    """One piece of a picture: its token and its cells in row-major order."""

    token: str
    cells: tuple[Cell, ...]

    @property
    def shape(self) -> Shape:
        """Offsets of the cells from the first one."""
        r0, c0 = self.cells[0]
        return tuple((r - r0, c - c0) for r, c in self.cells)


@dataclass(frozen=True)
class Kind:
    """Interchangeable pieces (one token, one shape); shape cell ``k`` holds ``base + k``."""

    token: str
    shape: Shape
    base: int

    def at(self, anchor: Cell) -> list[Cell]:
        """The cells a piece of this kind covers when its first cell is ``anchor``."""
        return [(anchor[0] + dr, anchor[1] + dc) for dr, dc in self.shape]


def read_picture(data: _data.Data, key: str) -> list[list[str]]:
    """Rows of tokens of a board picture."""
    text = data.get(key, str)
    rows = [line.split() for line in text.splitlines() if line.strip()]
    if not rows:
        raise data.error(key, "the picture is empty")
    if len({len(r) for r in rows}) != 1:
        raise data.error(key, "every row must have the same number of cells "
                         f"(got {[len(r) for r in rows]})")
    cells = len(rows) * len(rows[0])
    if cells > MAX_CELLS:
        raise data.error(key, f"{len(rows)} x {len(rows[0])} = {cells:,} cells (at most "
                         f"{MAX_CELLS}: the model's estimate has a term per piece and cell)")
    return rows


MAX_CELLS = 144
"""Most cells of a picture (12 x 12, walls included): the estimate sums a term per piece
kind and cell, the moves a guard per cell and neighbour, so the model grows with the
square of the cells (a 12 x 12 board of tiles loads in about 2 s, a 16 x 16 in 20 s, a
300 x 300 never)."""


def read_blocks(data: _data.Data, tokens: set[str]) -> dict[str, Shape | None]:
    """``blocks`` as token -> shape (``None``: each connected group is one piece)."""
    raw = data.get("blocks", (list, dict), [])
    listed = [(t, None) for t in raw] if isinstance(raw, list) else list(raw.items())
    out: dict[str, Shape | None] = {}
    for token, spec in listed:
        if not isinstance(token, str) or token in (EMPTY, WALL, ANY) or token not in tokens:
            raise data.error("blocks", f"{shown(token)} is not a piece token of the start picture")
        out[token] = None if spec is None else _shape(data, token, spec)
    return out


def _shape(data: _data.Data, token: str, spec: Any) -> Shape:
    """A shape written as rows: ``["##", "#."]`` (``#`` a cell, ``.`` none)."""
    ok = isinstance(spec, list) and spec and all(isinstance(r, str) and r and set(r) <= {"#", "."}
                                                 for r in spec)
    cells = sorted((r, c) for r, row in enumerate(spec) for c, ch in enumerate(row)
                   if ch == "#") if ok else []
    if not cells or not connected(cells):
        raise data.error(f"blocks.{_data.key_part(token)}", "a shape is a list of rows such "
                         "as [\"##\", \"#.\"] (# a cell of the piece, . none), its cells "
                         f"connected; got {shown(spec)}")
    return Piece(token, tuple(cells)).shape


def connected(cells: list[Cell]) -> bool:
    """Whether the cells form one group through edge neighbours."""
    return len(_components(cells)) == 1


def cut(data: _data.Data, key: str, picture: list[list[str]], cells: tuple[Cell, ...],
        blocks: dict[str, Shape | None]) -> list[Piece]:
    """The pieces drawn in a picture (cells holding ``_``, ``#`` or ``?`` are none).

    A token outside ``blocks`` is a one-cell piece in each of its cells; a
    token in ``blocks`` forms one piece per connected group of its cells, or,
    with a shape, the pieces of that shape that cover its cells (read off in
    row-major order: the first free cell is always a piece's first cell).
    """
    pieces: list[Piece] = []
    grouped: dict[str, list[Cell]] = {}
    for cell in cells:
        token = picture[cell[0]][cell[1]]
        if token in (EMPTY, WALL, ANY):
            continue
        if token in blocks:
            grouped.setdefault(token, []).append(cell)
        else:
            pieces.append(Piece(token, (cell,)))
    for token, group in grouped.items():
        shape = blocks[token]
        pieces += (_tile(data, key, token, group, shape) if shape is not None
                   else [Piece(token, tuple(c)) for c in _components(group)])
    return pieces


def _components(cells: list[Cell]) -> list[list[Cell]]:
    left, out = set(cells), []
    for cell in cells:
        if cell not in left:
            continue
        group, todo = {cell}, [cell]
        while todo:
            r, c = todo.pop()
            for dr, dc in DIRECTIONS.values():
                n = (r + dr, c + dc)
                if n in left and n not in group:
                    group.add(n)
                    todo.append(n)
        left -= group
        out.append(sorted(group))
    return out


def _tile(data: _data.Data, key: str, token: str, cells: list[Cell],
          shape: Shape) -> list[Piece]:
    left, out = set(cells), []
    for cell in cells:  # row-major: the first cell not yet covered starts a piece
        if cell not in left:
            continue
        covered = [(cell[0] + dr, cell[1] + dc) for dr, dc in shape]
        if not left.issuperset(covered):
            raise data.error(key, f"the cells of {shown(token)} cannot be cut into pieces of the "
                             f"shape given in blocks ({where(cell)} starts one that does not fit)")
        left -= set(covered)
        out.append(Piece(token, tuple(covered)))
    return out


def kinds_of(pieces: list[Piece], blocks: dict[str, Shape | None],
             prefer: list[str] | tuple[str, ...] = ()) -> list[Kind]:
    """The kinds of the start's pieces, numbered from 1: one-cell kinds first (tokens outside
    ``blocks`` in the order of ``prefer`` — the goal picture's tokens — then in order of
    appearance, then one-cell pieces of ``blocks``), then the others.

    Numbering by the goal (files that declare pattern databases) gives every start
    position of one puzzle the same model apart from its initial state, so tables cached
    for one serve all.
    """
    rank = {t: i for i, t in enumerate(dict.fromkeys(prefer))}
    order: dict[tuple[str, Shape], None] = {}
    singles = [p for p in pieces if p.token not in blocks]
    for piece in sorted(singles, key=lambda p: rank.get(p.token, len(rank))):  # stable
        order[(piece.token, piece.shape)] = None
    listed = [p for t in blocks for p in pieces if p.token == t]
    for piece in listed:
        if len(piece.cells) == 1:
            order[(piece.token, piece.shape)] = None
    for piece in listed:
        order[(piece.token, piece.shape)] = None
    kinds, base = [], 1
    for token, shape in order:
        kinds.append(Kind(token, shape, base))
        base += len(shape)
    return kinds
