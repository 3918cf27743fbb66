"""Family ``sliding``: sliding-block puzzles drawn as pictures.

    family = "sliding"
    name = "8-puzzle"
    start = '''
    8 6 7
    2 5 4
    3 _ 1
    '''
    goal = '''
    1 2 3
    4 5 6
    7 8 _
    '''
    blocks = ["L"]        # optional: tokens whose cells form one rigid piece

One token per cell, separated by spaces; ``_`` is an empty cell (any number
of them), ``#`` a wall (not part of the board).  Equal tokens are
interchangeable pieces, except tokens listed in ``blocks``: all cells
carrying such a token form one rigid piece that moves as a whole.

**Metric: one move moves one piece by one cell**, whatever its size.

The model: one state variable per board cell, holding 0 for empty, a piece
number for a single-cell piece (identical pieces share it), or a block part
number.  One action per (piece position, direction).  The family also
declares the Manhattan estimate (admissible: a move changes one piece's
distance to its nearest goal cell by at most one) and, with one blank and
no blocks, the blank's checkerboard colour as a parity invariant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..expr import And, Const, Expr, Sum, Var
from ..model import Planning
from ..result import Step
from .base import Puzzle
from .data import Data

KEYS = {"family", "name", "description", "start", "goal", "blocks"}
EMPTY, WALL = "_", "#"
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


@dataclass(frozen=True)
class Board:
    """Board geometry: rows, columns and the playable cells in row-major order."""

    rows: int
    cols: int
    cells: tuple[tuple[int, int], ...]

    def var(self, cell: tuple[int, int]) -> str:
        """State variable of a cell."""
        return f"c[{self.cells.index(cell)}]"


def read_picture(data: Data, key: str) -> list[list[str]]:
    """Rows of tokens of a board picture."""
    text = data.get(key, str)
    rows = [line.split() for line in text.splitlines() if line.strip()]
    if not rows:
        raise data.error(key, "the picture is empty")
    if len({len(r) for r in rows}) != 1:
        raise data.error(key, "every row must have the same number of cells "
                         f"(got {[len(r) for r in rows]})")
    return rows


@dataclass(frozen=True, kw_only=True)
class SlidingPuzzle(Puzzle):
    """Draws boards; names moves by piece and direction.

    ``tokens[v]`` is drawn for state value ``v``; ``moves`` maps an action
    name to the index of the cell its piece moves to and the direction;
    ``parity_proof`` says why the goal is unreachable, when parity proves it.
    """

    board: Board
    tokens: tuple[str, ...]
    moves: Mapping[str, tuple[int, str]]
    parity_proof: str | None = None

    def board_rows(self, state: tuple[int, ...]) -> list[list[str]]:
        """Tokens of a state, as rows (walls as ``#``)."""
        board, tokens = self.board, self.tokens
        grid = [[WALL] * board.cols for _ in range(board.rows)]
        for (r, c), v in zip(board.cells, state):
            grid[r][c] = tokens[v]
        return grid

    def render_state(self, state: tuple[int, ...]) -> str:
        rows = self.board_rows(state)
        width = max(len(t) for row in rows for t in row)
        return "\n".join(" ".join(t.ljust(width) for t in row).rstrip() for row in rows)

    def step_text(self, step: Step) -> str:
        """``piece direction``: the piece is read at the cell it moved to."""
        move = self.moves.get(step.action)
        if move is None:
            return step.action
        index, direction = move
        return f"{self.tokens[step.state[index]]} {direction}"

    def json_state(self, state: tuple[int, ...]) -> Any:
        return [" ".join(row) for row in self.board_rows(state)]

    proof_kind = "parity"

    def infeasibility_proof(self) -> str | None:
        """The permutation-parity argument, when it applies and proves unsolvability."""
        return self.parity_proof


def build(data: Data) -> SlidingPuzzle:
    """Build the planning model of a ``sliding`` file."""
    data.unknown_keys(KEYS)
    start, goal = read_picture(data, "start"), read_picture(data, "goal")
    if (len(start), len(start[0])) != (len(goal), len(goal[0])):
        raise data.error("goal", "start and goal pictures differ in size")
    cells = tuple((r, c) for r, row in enumerate(start) for c, t in enumerate(row) if t != WALL)
    for r, row in enumerate(goal):
        for c, t in enumerate(row):
            if (t == WALL) != ((r, c) not in cells):
                raise data.error("goal", f"walls differ from the start at row {r + 1}, "
                                 f"column {c + 1}")
    board = Board(len(start), len(start[0]), cells)
    blocks = data.get("blocks", list, [])
    flat_start = [start[r][c] for r, c in cells]
    flat_goal = [goal[r][c] for r, c in cells]
    if sorted(flat_start) != sorted(flat_goal):
        raise data.error("goal", "the goal does not hold the same pieces as the start")
    if EMPTY not in flat_start:
        raise data.error("start", "no empty cell (_): nothing can move")
    tokens, value_of = _values(data, flat_start, blocks)
    model = Planning(data.get("name", str, "sliding puzzle"))
    for i in range(len(cells)):
        model.add_variable(f"c[{i}]", 0, len(tokens) - 1)
    state_start = _state(data, "start", start, board, blocks, value_of)
    state_goal = _state(data, "goal", goal, board, blocks, value_of)
    model.set_initial(model.assignment(state_start))
    model.set_goal(And(*(Var(f"c[{i}]") == v for i, v in enumerate(state_goal))))
    singles = [v for t, v in value_of.items() if not isinstance(v, tuple) and t != EMPTY]
    moves = _single_moves(model, board, tokens, singles, bool(blocks))
    for token in blocks:
        moves.update(_block_moves(model, board, token, value_of[token]))
    model.set_estimate(_estimate(board, state_goal, value_of, blocks))
    if flat_start.count(EMPTY) == 1 and not blocks:
        model.set_parity(Sum((Var(board.var(cell)) == 0) * (cell[0] + cell[1])
                             for cell in cells))
    distinct = len(set(flat_start)) == len(flat_start) and not blocks
    return SlidingPuzzle(model.name, "sliding", model, data.get("description", str, ""),
                         "one move moves one piece by one cell, whatever its size",
                         board=board, tokens=tuple(tokens), moves=moves,
                         parity_proof=(_parity_proof(flat_start, flat_goal, cells)
                                       if distinct else None))


def _values(data: Data, flat: list[str], blocks: list) -> tuple[list[str], dict[str, Any]]:
    """Token drawn for each state value, and the value (or block part values) of each token."""
    for b in blocks:
        if not isinstance(b, str) or b in (EMPTY, WALL) or b not in flat:
            raise data.error("blocks", f"{b!r} is not a piece token of the start picture")
    tokens = [EMPTY]
    value_of: dict[str, Any] = {EMPTY: 0}
    for t in dict.fromkeys(flat):
        if t not in value_of and t not in blocks:
            value_of[t] = len(tokens)
            tokens.append(t)
    for b in blocks:
        parts = flat.count(b)
        value_of[b] = tuple(range(len(tokens), len(tokens) + parts))
        tokens.extend([b] * parts)
    return tokens, value_of


def _state(data: Data, key: str, picture: list[list[str]], board: Board, blocks: list,
           value_of: dict[str, Any]) -> tuple[int, ...]:
    values = {}
    for cell in board.cells:
        t = picture[cell[0]][cell[1]]
        if t not in blocks:
            values[cell] = value_of[t]
    for b in blocks:
        placed = sorted(cell for cell in board.cells if picture[cell[0]][cell[1]] == b)
        if not _connected(placed):
            raise data.error(key, f"the cells of block {b!r} are not connected")
        for cell, part in zip(placed, value_of[b]):
            values[cell] = part
    return tuple(values[cell] for cell in board.cells)


def _connected(cells: list[tuple[int, int]]) -> bool:
    if not cells:
        return False
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS.values():
            n = (r + dr, c + dc)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _single_moves(model: Planning, board: Board, tokens: list[str], singles: list[int],
                  has_blocks: bool) -> dict[str, tuple[int, str]]:
    """One action per (cell, direction): the piece there slides into the empty neighbour."""
    moves: dict[str, tuple[int, str]] = {}
    last_single = max(singles, default=0)
    for cell in board.cells:
        for direction, (dr, dc) in DIRECTIONS.items():
            target = (cell[0] + dr, cell[1] + dc)
            if target not in board.cells:
                continue
            here, there = Var(board.var(cell)), Var(board.var(target))
            guard = And(there == 0, here != 0, *([here <= last_single] if has_blocks else []))
            name = f"r{cell[0] + 1}c{cell[1] + 1} {direction}"
            model.add_action(name, guard, {there: here, here: 0})
            moves[name] = (board.cells.index(target), direction)
    return moves


def _block_moves(model: Planning, board: Board, token: str,
                 parts: tuple[int, ...]) -> dict[str, tuple[int, str]]:
    """One action per (placement, direction) of a rigid block."""
    moves: dict[str, tuple[int, str]] = {}
    shape = _offsets(board, parts, model.initial)
    for anchor in board.cells:
        placed = [(anchor[0] + dr, anchor[1] + dc) for dr, dc in shape]
        if not all(cell in board.cells for cell in placed):
            continue
        for direction, (dr, dc) in DIRECTIONS.items():
            moved = [(r + dr, c + dc) for r, c in placed]
            if not all(cell in board.cells for cell in moved):
                continue
            at = [Var(board.var(cell)) == part for cell, part in zip(placed, parts)]
            free = [Var(board.var(cell)) == 0 for cell in moved if cell not in placed]
            effects: dict[str, Expr] = {board.var(cell): Const(0)
                                        for cell in placed if cell not in moved}
            effects.update({board.var(cell): Const(part) for cell, part in zip(moved, parts)})
            name = f"{token} at r{anchor[0] + 1}c{anchor[1] + 1} {direction}"
            model.add_action(name, And(*at, *free), effects)
            moves[name] = (board.cells.index(moved[0]), direction)
    return moves


def _offsets(board: Board, parts: tuple[int, ...], initial: dict[str, int]) -> list:
    """Offsets of a block's parts from its first part, read off the start state."""
    where = {initial[board.var(cell)]: cell for cell in board.cells}
    first = where[parts[0]]
    return [(where[p][0] - first[0], where[p][1] - first[1]) for p in parts]


def _estimate(board: Board, goal: tuple[int, ...], value_of: dict[str, Any],
              blocks: list) -> Expr:
    """Sum over pieces of the distance to the nearest goal cell of an equal piece.

    A block counts once (through its first part).  Each move changes one
    piece's position by one cell, so the sum drops by at most one per move.
    """
    terms = []
    counted = [v for t, v in value_of.items() if t != EMPTY and t not in blocks]
    counted += [value_of[b][0] for b in blocks]
    homes = {v: [cell for cell, g in zip(board.cells, goal) if g == v] for v in counted}
    for cell in board.cells:
        for v in counted:
            d = min(abs(cell[0] - h[0]) + abs(cell[1] - h[1]) for h in homes[v])
            if d:
                terms.append((Var(board.var(cell)) == v) * d)
    return Sum(terms)


def _parity_proof(start: list[str], goal: list[str], cells: tuple) -> str | None:
    """Why the goal is unreachable by permutation parity, or ``None`` if parity allows it.

    Every move swaps the blank with a neighbour: a transposition, and the
    blank's checkerboard colour flips.  So the permutation taking the start to
    the goal (blank included) must have the parity of the blank's distance.
    Applies when all pieces differ and there is one blank (and no blocks).
    """
    position = {t: i for i, t in enumerate(goal)}
    perm = [position[t] for t in start]
    seen, transpositions = [False] * len(perm), 0
    for i in range(len(perm)):
        length = 0
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            length += 1
        transpositions += max(length - 1, 0)
    a, b = cells[start.index(EMPTY)], cells[goal.index(EMPTY)]
    blank = abs(a[0] - b[0]) + abs(a[1] - b[1])
    if transpositions % 2 == blank % 2:
        return None
    odd = "odd" if transpositions % 2 else "even"
    plural = "s" if transpositions != 1 else ""
    return (f"unsolvable by parity: the start is an {odd} permutation of the goal "
            f"({transpositions} transposition{plural}) but the blank is "
            f"{blank} cells from its goal cell; every move is one transposition and moves "
            f"the blank one cell, so these parities must agree")
