"""The goal of a sliding file: a picture (``?`` = any content) and/or piece positions."""

from __future__ import annotations

from collections import Counter

from ...language.quoting import shown
from .. import data as _data
from .pieces import ANY, EMPTY, WALL, Board, Cell, Kind, Piece, Shape, cut, read_picture, where


def read_goal(data: _data.Data, board: Board, start: list[list[str]], kinds: list[Kind],
              pieces: list[Piece], blocks: dict[str, Shape | None]) -> tuple[dict[Cell, int], bool]:
    """The value each pinned cell must hold at the goal, and whether every cell is pinned.

    Refused, naming the piece: a goal piece whose token the start lacks or
    whose shape differs from every start piece with that token (such a goal
    could never be reached); more pieces of a kind than the start has (a full
    picture must hold exactly the start's pieces).
    """
    if "goal" not in data.table and "goal_pieces" not in data.table:
        data.hidden_in_a_table("goal")
        raise data.error("goal", "missing: give a goal picture (? for a cell that may hold "
                         "anything), goal_pieces, or both")
    values: dict[Cell, int] = {}
    count: Counter[Kind] = Counter()
    full = False
    if "goal" in data.table:
        picture = read_picture(data, "goal")
        _same_board(data, board, start, picture)
        full = all(t != ANY for row in picture for t in row)
        for cell in board.cells:
            if picture[cell[0]][cell[1]] == EMPTY:
                values[cell] = 0
        for piece in cut(data, "goal", picture, board.cells, blocks):
            kind = _kind(data, "goal", kinds, piece)
            count[kind] += 1
            values.update({c: kind.base + k for k, c in enumerate(piece.cells)})
    for kind, anchor in _listed(data, board, kinds):
        cells = kind.at(anchor)
        if all(values.get(cell) == kind.base + k for k, cell in enumerate(cells)):
            continue  # the picture draws this piece already
        count[kind] += 1
        for k, cell in enumerate(cells):
            if values.setdefault(cell, kind.base + k) != kind.base + k:
                raise data.error("goal_pieces", f"{shown(kind.token)} at {where(anchor)} overlaps "
                                 f"another goal piece or the goal picture at {where(cell)}")
    have = Counter(_kind(data, "start", kinds, p) for p in pieces)
    for kind, n in count.items():
        if n > have[kind]:
            raise data.error("goal", f"the goal has {n} pieces {shown(kind.token)} of this shape, "
                             f"the start only {have[kind]}")
        if full and n != have[kind]:
            raise data.error("goal", "the goal does not hold the same pieces as the start "
                             f"({n} of {shown(kind.token)} in the goal, {have[kind]} in the start)")
    if full and sum(count.values()) != sum(have.values()):
        raise data.error("goal", "the goal does not hold the same pieces as the start")
    empty = sum(1 for v in values.values() if v == 0)
    if empty > len(board.cells) - sum(len(p.cells) for p in pieces):
        raise data.error("goal", f"the goal has {empty} empty cells, more than the start")
    return values, full


def _same_board(data: _data.Data, board: Board, start: list[list[str]],
                goal: list[list[str]]) -> None:
    if (len(start), len(start[0])) != (len(goal), len(goal[0])):
        raise data.error("goal", "start and goal pictures differ in size")
    for r, row in enumerate(goal):
        for c, t in enumerate(row):
            if (t == WALL) != ((r, c) not in board.cells):
                raise data.error("goal", f"walls differ from the start at {where((r, c))}")


def _kind(data: _data.Data, key: str, kinds: list[Kind], piece: Piece) -> Kind:
    same = [k for k in kinds if k.token == piece.token]
    for kind in same:
        if kind.shape == piece.shape:
            return kind
    if not same:
        raise data.error(key, f"piece {shown(piece.token)} at {where(piece.cells[0])} is not a "
                         "piece of the start")
    raise data.error(key, f"piece {shown(piece.token)} at {where(piece.cells[0])} has another "
                     f"shape ({len(piece.cells)} cells) than in the start, so the goal cannot be "
                     "reached (where pieces with one token touch, give their shape in blocks)")


def _listed(data: _data.Data, board: Board, kinds: list[Kind]) -> list[tuple[Kind, Cell]]:
    """``goal_pieces = { B = [4, 2] }``: token -> [row, col] (or a list of them) of a piece's
    first cell, counted from 1."""
    table = data.get("goal_pieces", dict, {})
    if "goal_pieces" in data.table and not table:
        raise data.error("goal_pieces", "an empty table pins no piece: name at least one "
                         "piece (B = [4, 2]), or leave goal_pieces out")
    out = []
    for token, spots in table.items():
        key = f"goal_pieces.{_data.key_part(token)}"
        same = [k for k in kinds if k.token == token]
        with data.entry(key):  # a top-level key after [goal_pieces] is no piece
            if not same:
                raise data.error(key, f"{shown(token)} is not a piece of the start")
        if len(same) > 1:
            raise data.error(key, f"pieces {shown(token)} come in {len(same)} shapes: draw them in "
                             "the goal picture instead")
        if isinstance(spots, list) and spots and all(type(v) is int for v in spots):
            spots = [spots]
        if not (isinstance(spots, list) and spots and all(
                isinstance(s, list) and len(s) == 2 and all(type(v) is int for v in s)
                for s in spots)):
            raise data.error(key, f"expected [row, column] or a list of them, got {shown(spots)}")
        for row, col in spots:
            anchor = (row - 1, col - 1)
            if not all(cell in board.cells for cell in same[0].at(anchor)):
                raise data.error(key, f"a piece {shown(token)} with its first cell at row {row}, "
                                 f"column {col} does not fit on the board")
            if (same[0], anchor) in out:
                raise data.error(key, f"row {row}, column {col} is listed twice: one piece "
                                 "stands there (list each piece's place once)")
            out.append((same[0], anchor))
    return out
