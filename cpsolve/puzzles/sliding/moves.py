"""The actions of a sliding puzzle in each metric, and the admissible estimate.

How the metrics are encoded (so that every engine and the checker read them
from the model alone, with no engine change):

* ``step`` — one action per (piece position, direction): the piece moves one
  cell; cost 1.
* ``line`` — one action per (piece position, direction, distance ``k``): its
  guard asks for every cell the piece sweeps over to be empty; cost 1.  The
  state is the position only, so the state space is the step metric's (a line
  move is a run of steps and a step is a line move of length 1); the actions
  grow by at most the board's side.  Remembering the last piece and direction
  instead would multiply the states and need 0/1 costs.
* ``path`` — the step actions, plus a state variable ``last``: the index of
  the first cell of the piece that moved last (the number of cells before any
  move).  A step by the piece whose first cell is ``last`` continues its move
  and costs 0, any other step costs 1 (``0 if last == from else 1``, as the
  pegs family counts chains of jumps).  A route through empty cells cannot be
  one action with a conjunctive guard (reachability is a disjunction over
  routes, exponentially many), so the piece's identity is remembered instead:
  the states are (position, last) pairs, a few times the positions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...language.combine import And, If, Sum
from ...language.expr import Const, Expr, Var
from ...model import Planning
from ..base import cell_name
from .pieces import DIRECTIONS, Board, Cell, Kind

METRICS = ("step", "line", "path", "tiles")
AXES = {"horizontal": ("left", "right"), "vertical": ("up", "down")}
"""A piece restricted to an axis (``axis = { A = "horizontal" }``) moves only this way."""
LAST = "last"


@dataclass(frozen=True)
class Move:
    """An action for people: the piece's first cell before (``origin``) and after (``to``),
    as cell indices, and the words after the piece's token (``right``, ``right 2``)."""

    origin: int
    to: int
    words: str


def add_moves(model: Planning, board: Board, kinds: list[Kind], singles: int,
              metric: str, axis: dict[str, str] | None = None) -> dict[str, Move]:
    """Add every action; ``singles`` kinds (values ``1..singles``) are one-cell pieces and
    share their actions (the guard asks for any one-cell piece).  A kind whose token
    ``axis`` names moves along that axis only."""
    moves: dict[str, Move] = {}
    cells = set(board.cells)
    if metric == "tiles":
        return add_tile_moves(model, board)
    if metric == "path":
        model.add_variable(LAST, 0, len(board.cells))
    multi = any(len(k.shape) > 1 for k in kinds)
    any_single = [Kind("", ((0, 0),), 0)] if singles else []
    for kind in any_single + [k for k in kinds if k.base > singles]:
        for anchor in board.cells:
            placed = kind.at(anchor)
            if not cells.issuperset(placed):
                continue
            for direction, (dr, dc) in DIRECTIONS.items():
                if axis and kind.token in axis and direction not in AXES[axis[kind.token]]:
                    continue
                swept: list[Cell] = []
                for k in range(1, max(board.rows, board.cols)):
                    moved = [(r + k * dr, c + k * dc) for r, c in placed]
                    if not cells.issuperset(moved):
                        break
                    swept += [cell for cell in moved if cell not in placed and cell not in swept]
                    name, move = _action(model, board, kind, placed, moved, swept, singles,
                                         multi, metric, direction, k)
                    moves[name] = move
                    if metric != "line":
                        break
    return moves


def _action(model: Planning, board: Board, kind: Kind, placed: list[Cell], moved: list[Cell],
            swept: list[Cell], singles: int, multi: bool, metric: str, direction: str,
            k: int) -> tuple[str, Move]:
    free = [Var(board.var(cell)) == 0 for cell in swept]
    if kind.token == "":  # any one-cell piece: the value moves along
        here = Var(board.var(placed[0]))
        guard = And(*free, here != 0, *([here <= singles] if multi else []))
        effects: dict[str, Expr] = {board.var(moved[0]): here, board.var(placed[0]): Const(0)}
        name = f"{cell_name(placed[0])} {direction}"
    else:
        at = [Var(board.var(cell)) == kind.base + i for i, cell in enumerate(placed)]
        guard = And(*at, *free)
        effects = {board.var(cell): Const(0) for cell in placed if cell not in moved}
        effects.update({board.var(cell): Const(kind.base + i) for i, cell in enumerate(moved)})
        name = f"{kind.token} at r{placed[0][0] + 1}c{placed[0][1] + 1} {direction}"
    words = direction + (f" {k}" if k > 1 else "")
    name += f" {k}" if k > 1 else ""
    origin, to = board.index[placed[0]], board.index[moved[0]]
    cost: Expr = Const(1)
    if metric == "path":
        effects[LAST] = Const(to)
        cost = If(Var(LAST) == origin, 0, 1)
    model.add_action(name, guard, effects, cost)
    return name, Move(origin, to, words)


def add_tile_moves(model: Planning, board: Board) -> dict[str, Move]:
    """The ``tiles`` metric (one-cell pieces only): an empty cell travels ``k`` cells in
    one straight line, and each of the ``k`` tiles it passes shifts one cell back, as one
    move (the 15-puzzle's multi-tile metric).  One action per (empty cell, direction,
    ``k``); its guard asks for the ``k`` cells to hold tiles; cost 1."""
    moves: dict[str, Move] = {}
    cells = set(board.cells)
    for hole in board.cells:
        for direction, (dr, dc) in DIRECTIONS.items():
            line: list[Cell] = []
            for k in range(1, max(board.rows, board.cols)):
                cell = (hole[0] + k * dr, hole[1] + k * dc)
                if cell not in cells:
                    break
                line.append(cell)
                path = [hole, *line]
                guard = And(Var(board.var(hole)) == 0, *(Var(board.var(c)) != 0 for c in line))
                effects: dict[str, Expr] = {board.var(a): Var(board.var(b))
                                            for a, b in zip(path, path[1:])}
                effects[board.var(line[-1])] = Const(0)
                # named by the tiles' motion: they move against the empty cell's direction
                back = {"up": "down", "down": "up", "left": "right", "right": "left"}[direction]
                name = f"{cell_name(line[-1])} {back}" + (f" {k}" if k > 1 else "")
                model.add_action(name, guard, effects, Const(1))
                moves[name] = Move(board.index[line[-1]], board.index[line[-2] if k > 1 else hole],
                                   back + (f" {k} tiles" if k > 1 else ""))
    return moves


def estimate(board: Board, kinds: list[Kind], goal: dict[Cell, int], count: dict[Kind, int],
             metric: str) -> Expr:
    """A lower bound on the moves still needed, in the metric.

    Only kinds whose every piece is pinned by the goal count (as many goal
    places as pieces): each of their pieces must reach one of those places.
    Per piece, through its first cell: ``step`` — the distance to the nearest
    place (a step moves one piece by one cell); ``line`` — 0, 1 or 2 as the
    piece is there, shares its row or column, or neither (a line move changes
    one coordinate of one piece); ``path`` — 1 if it is not at a place, less
    one for the whole once a piece has moved (that piece may finish its move for
    free).
    """
    terms = []
    for kind in kinds:
        homes = [cell for cell, v in goal.items() if v == kind.base]
        if not homes or len(homes) != count[kind]:
            continue
        for cell in board.cells:
            if metric in ("step", "tiles"):
                d = min(abs(cell[0] - h[0]) + abs(cell[1] - h[1]) for h in homes)
            elif metric == "line":
                d = min((cell[0] != h[0]) + (cell[1] != h[1]) for h in homes)
            else:
                d = int(cell not in homes)
            if d:
                terms.append((Var(board.var(cell)) == kind.base) * d)
    total = Sum(terms)
    if metric == "tiles" and terms:  # a move shifts at most (side - 1) tiles by one cell
        most = max(board.rows, board.cols) - 1
        return (total + (most - 1)) // most if most > 1 else total
    if metric != "path" or not terms:
        return total
    # before any move (last = the number of cells) nothing continues for free
    return If(Var(LAST) == len(board.cells), total, If(total >= 1, total - 1, 0))
