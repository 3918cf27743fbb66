"""Family ``sliding``: sliding-block puzzles drawn as pictures.

    family = "sliding"
    name = "ON-OFF"
    start = '''
    L L n o
    a f b _
    '''
    goal = '''
    L L o n
    f a b _
    '''
    blocks = ["L"]       # optional: tokens whose connected cells form one piece
    metric = "step"      # or "line", "path", "tiles"

    [estimate]           # optional: pattern databases (groups of one-cell pieces)
    patterns = [["n", "o"], ["f"]]

One token per cell, separated by spaces; ``_`` is an empty cell (any number
of them), ``#`` a wall (not part of the board); in the goal, ``?`` is a cell
that may hold anything.  A token outside ``blocks`` is a one-cell piece in
each of its cells.  A token listed in ``blocks`` forms one piece per
connected group of its cells; where such pieces touch, give their shape
instead (``blocks = { v = ["#", "#"] }``: rows, ``#`` a cell, ``.`` none) and
its cells are cut into pieces of that shape.  Pieces with the same token and
shape are interchangeable.  ``goal_pieces = { B = [4, 2] }`` pins pieces by
the row and column (from 1) of their first cell, instead of or besides the
goal picture.  A goal piece of a shape the start does not have is refused.

**Metrics** (``metric``): ``step`` (default) — one move moves one piece by
one cell; ``line`` — any distance in one straight line; ``path`` — along any
route through empty cells.  A move of any size piece is one move.  How each
is encoded: :mod:`.moves`.

The model: one state variable per board cell, holding 0 for empty or
``base + k`` for cell ``k`` of a piece of a kind (:mod:`.pieces`).  The
family declares an admissible estimate per metric and, with one blank, only
one-cell pieces and the step metric, the blank's checkerboard colour as a
parity invariant; the permutation-parity proof of unsolvability applies
when all pieces are distinct single cells and the goal is a whole picture.
``[estimate] patterns`` lists groups of one-cell pieces of which there is one
copy each; the model carries them as groups of state values
(:meth:`~cpsolve.model.planning.Planning.set_patterns`) and the search engine turns each
group into a pattern database.  With patterns, kinds are numbered in
goal-picture order (:func:`.pieces.kinds_of`), so every start of one puzzle
shares the tables; without, in order of appearance in the start, as always.
"""

from __future__ import annotations

from collections import Counter

from ...language.combine import And, Sum
from ...language.expr import Var
from ...language.quoting import shown
from ...model import Planning
from ..data import Data, key_part
from .goal import read_goal
from .moves import AXES, LAST, METRICS, add_moves, estimate
from .pieces import (
    ANY,
    DIRECTIONS,
    EMPTY,
    WALL,
    Board,
    Kind,
    cut,
    kinds_of,
    read_blocks,
    read_picture,
)
from .puzzle import METRIC_WORDS, SlidingPuzzle, parity_argument, parity_proof

__all__ = ["DIRECTIONS", "EMPTY", "WALL", "Board", "SlidingPuzzle", "build", "read_picture"]

KEYS = {"family", "name", "description", "start", "goal", "goal_pieces", "blocks", "metric",
        "estimate", "axis"}


def build(data: Data) -> SlidingPuzzle:
    """Build the planning model of a ``sliding`` file."""
    data.unknown_keys(KEYS)
    metric = data.get("metric", str, "step")
    if metric not in METRICS:
        raise data.error("metric", f"expected one of {', '.join(METRICS)}, got {shown(metric)}")
    start = read_picture(data, "start")
    if any(t == ANY for row in start for t in row):
        raise data.error("start", "? (any content) is for the goal picture only")
    cells = tuple((r, c) for r, row in enumerate(start) for c, t in enumerate(row) if t != WALL)
    board = Board(len(start), len(start[0]), cells)
    flat_start = [start[r][c] for r, c in cells]
    blocks = read_blocks(data, set(flat_start))
    pieces = cut(data, "start", start, cells, blocks)
    goal_text = data.table.get("goal")
    declared = isinstance(data.table.get("estimate"), dict) and "patterns" in data.table["estimate"]
    kinds = kinds_of(pieces, blocks, goal_text.split()  # tables shared by every start
                     if declared and isinstance(goal_text, str) else ())
    goal, full = read_goal(data, board, start, kinds, pieces, blocks)
    kind_of = {(k.token, k.shape): k for k in kinds}
    values = dict.fromkeys(cells, 0)
    for piece in pieces:
        kind = kind_of[(piece.token, piece.shape)]
        values.update({cell: kind.base + i for i, cell in enumerate(piece.cells)})
    tokens = [EMPTY] + [k.token for k in kinds for _ in k.shape]
    model = Planning(data.get("name", str, "sliding puzzle"))
    for i in range(len(cells)):
        model.add_variable(f"c[{i}]", 0, len(tokens) - 1)
    singles = sum(1 for k in kinds if len(k.shape) == 1)
    if metric == "tiles" and singles != len(kinds):
        raise data.error("metric", "the tiles metric shifts one-cell pieces only")
    moves = add_moves(model, board, kinds, singles, metric, read_axis(data, kinds, singles))
    initial = {board.var(cell): v for cell, v in values.items()}
    if metric == "path":
        initial[LAST] = len(cells)
    model.set_initial(initial)
    model.set_goal(And(*(Var(board.var(cell)) == v for cell, v in sorted(goal.items()))))
    count: Counter[Kind] = Counter(kind_of[(p.token, p.shape)] for p in pieces)
    model.set_estimate(estimate(board, kinds, goal, count, metric), vouched=True)
    model.set_patterns(read_patterns(data, kinds, count))
    one_cell = singles == len(kinds)
    if flat_start.count(EMPTY) == 1 and one_cell and metric == "step":
        model.set_parity(Sum((Var(board.var(cell)) == 0) * (cell[0] + cell[1])
                             for cell in cells))
    distinct = one_cell and flat_start.count(EMPTY) == 1 and len(set(flat_start)) == len(
        flat_start) and full  # parity's argument follows the one blank
    flat_goal = [tokens[goal[cell]] for cell in cells] if full else []
    argument = parity_argument(board, values, goal, parity_proof(flat_start, flat_goal, cells)) \
        if distinct else None
    if argument is not None:  # travels with the model: engines.run answers with it
        model.set_unsolvable(argument)
    return SlidingPuzzle(model.name, "sliding", model, data.get("description", str, ""),
                         METRIC_WORDS[metric], board=board, tokens=tuple(tokens), moves=moves,
                         kinds=tuple(kinds), unit=metric)


def read_axis(data: Data, kinds: list[Kind], singles: int) -> dict[str, str]:
    """``axis = { A = "horizontal", B = "vertical" }``: block tokens that move along one
    axis only (Rush Hour's cars)."""
    table = data.get("axis", dict, {})
    blocks = {k.token for k in kinds if k.base > singles}
    for token, way in table.items():
        key = f"axis.{key_part(token)}"
        if token not in blocks:
            raise data.error(key, "not a block token of the start picture (an axis is "
                             "declared for pieces listed in blocks)")
        if not isinstance(way, str) or way not in AXES:
            raise data.error(key, f"expected horizontal or vertical, got {shown(way)}")
    return dict(table)


def read_patterns(data: Data, kinds: list[Kind], count: Counter[Kind]) -> list[list[int]]:
    """The ``[estimate] patterns`` of a file, as groups of state values (one-cell pieces with
    one copy: a table is indexed by where each piece is)."""
    table = data.get("estimate", dict, {})
    data.unknown_keys({"patterns"}, table, prefix="estimate.")
    groups = data.get("patterns", list, [], table=table, prefix="estimate.")
    if "estimate" in data.table and not groups:
        raise data.error("estimate.patterns", "no pattern given: list at least one group of "
                         "piece tokens, or leave [estimate] out")
    single = {k.token: k for k in kinds if len(k.shape) == 1}
    out: list[list[int]] = []
    seen: set[str] = set()
    for group in groups:
        if not isinstance(group, list) or not group:
            raise data.error("estimate.patterns", "each pattern is a non-empty list of piece "
                             f"tokens, got {shown(group)}")
        values = []
        for token in group:
            ok = isinstance(token, (str, int)) and not isinstance(token, bool)
            kind = single.get(str(token)) if ok else None
            if kind is None:
                raise data.error("estimate.patterns", f"{shown(token)} is not a one-cell piece "
                                 "token of the start picture")
            if kind.token in seen:
                raise data.error("estimate.patterns", f"piece {shown(kind.token)} is in two "
                                 "patterns")
            if count[kind] > 1:
                raise data.error("estimate.patterns", f"piece {shown(kind.token)} has "
                                 f"{count[kind]} copies; a pattern's pieces must be unique")
            seen.add(kind.token)
            values.append(kind.base)
        out.append(values)
    return out
