"""The built sliding puzzle: boards drawn, moves named and counted in the file's metric."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...answers.result import Step
from ...answers.words import plural
from ...model.invariants import Parity
from .. import widths
from ..base import Puzzle, cell_name, indices
from .moves import Move
from .pieces import EMPTY, WALL, Board, Cell, Kind

METRIC_WORDS = {
    "step": "one move moves one piece by one cell, whatever its size",
    "line": "one move moves one piece any distance in one straight line, whatever its size",
    "path": "one move moves one piece along any route through empty cells (consecutive steps "
            "of one piece are one move), whatever its size",
    "tiles": "one move shifts the tiles in a straight run next to the empty cell by one cell "
             "each (the multi-tile metric: up to two tiles at once on the 8-puzzle, three "
             "on the 15-puzzle)",
}


@dataclass(frozen=True, kw_only=True)
class SlidingPuzzle(Puzzle):
    """Draws boards; names moves by piece and direction; counts moves in the file's metric.

    ``tokens[v]`` is drawn for state value ``v``; ``kinds`` are the kinds of
    pieces (value ``base + k`` on cell ``k`` of the shape); ``moves`` maps an
    action name to its :class:`~.moves.Move`; ``unit`` is the file's
    ``metric`` (``step``, ``line`` or ``path``).  When permutation parity proves the goal
    unreachable, the model carries that argument (:func:`parity_argument`,
    :meth:`~cpsolve.model.planning.Planning.set_unsolvable`).
    """

    board: Board
    tokens: tuple[str, ...]
    moves: Mapping[str, Move]
    kinds: tuple[Kind, ...] = ()
    unit: str = "step"

    def board_rows(self, state: tuple[int, ...]) -> list[list[str]]:
        """Tokens of a state, as rows (walls as ``#``)."""
        board, tokens = self.board, self.tokens
        grid = [[WALL] * board.cols for _ in range(board.rows)]
        for (r, c), v in zip(board.cells, state):
            grid[r][c] = tokens[v]
        return grid

    def pieces(self, state: tuple[int, ...]) -> list[tuple[str, list[Cell]]]:
        """Each piece of ``state`` as ``(token, cells)``, read at its first cell."""
        first = {k.base: k for k in self.kinds}
        out = []
        for cell, value in zip(self.board.cells, state):
            if value in first:
                out.append((first[value].token, first[value].at(cell)))
        return out

    def render_state(self, state: tuple[int, ...]) -> str:
        rows = self.board_rows(state)
        width = max(widths.cells(t) for row in rows for t in row)
        return "\n".join(" ".join(widths.ljust(t, width) for t in row).rstrip() for row in rows)

    def variable_text(self, name: str) -> str:
        """A cell as people name it, counted from 1: ``r2c3``."""
        at = indices(name, "c")
        if at is None or at[0] >= len(self.board.cells):
            return name
        return cell_name(self.board.cells[at[0]])

    def value_text(self, name: str, value: int) -> str:
        """A cell's value as the piece drawn there (``_``: empty)."""
        return self.tokens[value] if 0 <= value < len(self.tokens) else str(value)

    def step_text(self, step: Step) -> str:
        """``piece direction [distance]``: the piece is read at the cell it moved to; a piece
        that looks like another says where it was (``o at r4c1 left``)."""
        move = self.moves.get(step.action)
        if move is None:
            return step.action
        token = self.tokens[step.state[move.to]]
        if token in self._lookalikes():
            r, c = self.board.cells[move.origin]
            return f"{token} at r{r + 1}c{c + 1} {move.words}"
        return f"{token} {move.words}"

    def _lookalikes(self) -> set[str]:
        """Tokens that several pieces of the start share (Klotski's four ``o``)."""
        if "_shared" not in self.__dict__:
            seen = Counter(t for t, _ in self.pieces(self.model.initial_state()))
            self.__dict__["_shared"] = {t for t, n in seen.items() if n > 1}
        return self.__dict__["_shared"]

    def runs(self, plan: tuple[Step, ...]) -> list[list[Step]]:
        """The plan's steps grouped into moves: with ``path``, consecutive steps by one piece
        (a step starting where the previous one ended) are one move; else each step is."""
        groups: list[list[Step]] = []
        landed = None
        for step in plan:
            move = self.moves.get(step.action)
            if self.unit == "path" and groups and move is not None and move.origin == landed:
                groups[-1].append(step)
            else:
                groups.append([step])
            landed = None if move is None else move.to
        return groups

    def count_moves(self, plan: tuple[Step, ...]) -> int:
        """Moves in the file's metric."""
        return len(self.runs(plan))

    @property
    def distance_unit(self) -> str:
        """One action each: a one-cell step with ``path`` (a move is a run of them), else a
        move."""
        return "steps" if self.unit == "path" else "moves"

    def plan_summary(self, plan: tuple[Step, ...]) -> list[str]:
        """With ``path``: each move as the piece and its route (``o down, right``)."""
        if self.unit != "path":
            return []
        groups = self.runs(plan)
        lines = [f"{plural(len(groups), 'move')}, each one piece along a route:"]
        lines += [f"  move {i}: {self._run_text(g)}" for i, g in enumerate(groups, start=1)]
        return lines

    def plan_line(self, plan: tuple[Step, ...]) -> str:
        return ", ".join(self._run_text(g) for g in self.runs(plan))

    def _run_text(self, group: list[Step]) -> str:
        first = self.step_text(group[0])
        rest = [self.moves[s.action].words for s in group[1:] if s.action in self.moves]
        return " ".join([first, *rest]) if rest else first

    def json_plan(self, plan: tuple[Step, ...]) -> dict[str, Any]:
        if self.unit != "path":
            return {}
        return {"runs": [len(g) for g in self.runs(plan)]}

    def json_state(self, state: tuple[int, ...]) -> Any:
        return [" ".join(row) for row in self.board_rows(state)]


def parity_argument(board: Board, start: Mapping[Cell, int], goal: Mapping[Cell, int],
                    words: str | None) -> Parity | None:
    """The permutation-parity argument (:func:`parity_proof` gives its ``words``; None: it
    proves nothing) in the checker's terms: over the board's cells in order, the parity of
    the permutation the state values form (its inversions) plus the checkerboard colour of
    the blank's cell never changes (a step is one transposition and moves the blank to a
    cell of the other colour), and it differs between ``start`` and ``goal`` (cell ->
    state value, the blank 0)."""
    if words is None:
        return None
    colours = tuple((r + c) % 2 for r, c in board.cells)

    def parity(values: Mapping[Cell, int]) -> int:
        row = [values[cell] for cell in board.cells]
        inversions = sum(1 for i, a in enumerate(row) for b in row[i + 1:] if a > b)
        return (inversions + colours[row.index(0)]) % 2

    return Parity(tuple(board.var(cell) for cell in board.cells), colours, 0, parity(start),
                  parity(goal), words)


def parity_proof(start: list[str], goal: list[str], cells: tuple[Cell, ...]) -> str | None:
    """Why the goal is unreachable by permutation parity, or ``None`` if parity allows it.

    Every step swaps the blank with a neighbour: a transposition, and the
    blank's checkerboard colour flips; a longer move (any metric) is a run of
    such steps.  So the permutation taking the start to the goal (blank
    included) must have the parity of the blank's distance.  Applies when
    all pieces differ, are one cell each, there is one blank and the goal is
    a whole picture.
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
    return (f"unsolvable by parity: the start is an {odd} permutation of the goal "
            f"({plural(transpositions, 'transposition')}) but the blank is "
            f"{plural(blank, 'cell')} from its goal cell; every move is one transposition and "
            f"moves the blank one cell (a longer move is a run of such steps), so these "
            f"parities must agree")
