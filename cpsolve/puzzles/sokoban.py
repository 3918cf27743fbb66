"""Family ``sokoban``: pushing puzzles, from the usual Sokoban map.

    family = "sokoban"
    name = "One box, round a corner"
    board = '''
    #####
    #.  #
    # $ #
    #  @#
    #####
    '''
    metric = "moves"    # or "pushes"

    [expected]
    solve = "optimal"
    cost = 5

The map uses the usual symbols: ``#`` a wall, ``$`` a box, ``.`` a target,
``*`` a box on a target, ``@`` the player, ``+`` the player on a target, and a
space (or ``-``, ``_``) floor.  The common indentation is removed.  The
player's area is every cell reachable from ``@`` without crossing a wall
(boxes ignored); cells outside it are not part of the puzzle, and the edges
of the picture count as walls.  There must be one player, at least one box,
as many targets as boxes, and every box and target inside the area.

**Rules.** The player steps to a neighbouring cell (up, down, left, right);
stepping into a box pushes it one cell further, which must be free floor.
The goal: every target holds a box.  Boxes are identical: the state is the
player's cell and the set of cells holding a box (one 0/1 variable per
cell), so two positions that differ by swapping boxes are one state.

**Metrics** (``metric``): ``moves`` (default) — every step of the player
costs 1; ``pushes`` — a step that pushes a box costs 1, a walk costs 0.

**Dead squares** are a fact the family derives from the map: a floor cell
from which no sequence of pushes (ignoring the other boxes) brings a box to
a target — a corner that is not a target, for instance.  A box pushed there
can never be saved, so a push onto a dead square is not an action of the
model; ``dead_squares = false`` keeps those pushes (the same optimum, more
states).  The same backward search gives, for every cell, the fewest pushes
that bring a box alone from there to a target; the family declares their sum
over the boxes as the model's estimate (admissible in both metrics: a push
moves one box one cell, and every push is a move).
"""

from __future__ import annotations

import textwrap
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..answers.read import MAX_STEPS, PlanAnswer, Unreadable
from ..answers.result import Step
from ..answers.words import plural
from ..language.combine import And, Sum
from ..language.expr import Var
from ..language.quoting import shown
from ..model import Planning
from .base import Puzzle, cell_name, cell_of
from .data import Data

KEYS = {"family", "name", "description", "board", "metric", "dead_squares"}
METRICS = ("moves", "pushes")
FLOOR = " -_"
SYMBOLS = "#$.*@+" + FLOOR
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
LETTER = {"up": "u", "down": "d", "left": "l", "right": "r"}
"""The usual solution notation: lower case for a walk, upper case for a push."""
MAX_CELLS = 2_000

Cell = tuple[int, int]


def box(i: int) -> str:
    """State variable of floor cell ``i`` (1 = a box on it)."""
    return f"box[{i}]"


label = cell_name
"""A cell in notation: ``r2c4`` (1-based)."""


@dataclass(frozen=True)
class Map:
    """A Sokoban map read from its picture: walls, the player's area and what stands on it."""

    rows: tuple[str, ...]
    walls: frozenset[Cell]
    floor: tuple[Cell, ...]
    boxes: frozenset[Cell]
    targets: frozenset[Cell]
    player: Cell


@dataclass(frozen=True)
class Move:
    """One action: the player's cell, the direction, and whether it pushes a box."""

    start: Cell
    direction: str
    push: bool

    @property
    def letter(self) -> str:
        """``l u r d`` for a walk, ``L U R D`` for a push."""
        return LETTER[self.direction].upper() if self.push else LETTER[self.direction]

    @property
    def name(self) -> str:
        """The action's name: ``walk up from r4c5``, ``push left from r2c3``."""
        return f"{'push' if self.push else 'walk'} {self.direction} from {label(self.start)}"

    @property
    def end(self) -> Cell:
        """The player's cell after the step."""
        dr, dc = DIRECTIONS[self.direction]
        return self.start[0] + dr, self.start[1] + dc


def read_map(data: Data, key: str = "board") -> Map:
    """The map of ``key``: symbols checked, the player's area flooded from ``@``."""
    text = textwrap.dedent(data.get(key, str).strip("\n"))
    rows = tuple(line.rstrip() for line in text.splitlines())
    marks: dict[str, set[Cell]] = {ch: set() for ch in SYMBOLS}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch not in SYMBOLS:
                raise data.error(key, f"row {r + 1}, column {c + 1}: {shown(ch)} is not one of "
                                 "# $ . * @ + or floor (space, - or _)")
            marks[ch].add((r, c))
    players = marks["@"] | marks["+"]
    if len(players) != 1:
        raise data.error(key, f"the map must have one player (@ or +), it has {len(players)}")
    player = next(iter(players))
    floor = _area(rows, player)
    if len(floor) > MAX_CELLS:
        raise data.error(key, f"the player's area has {len(floor):,} cells (at most "
                         f"{MAX_CELLS:,})")
    boxes = frozenset(marks["$"] | marks["*"])
    targets = frozenset(marks["."] | marks["*"] | marks["+"])
    for what, cells in (("box", boxes), ("target", targets)):
        outside = sorted(cells - floor)
        if outside:
            raise data.error(key, f"the {what} at {label(outside[0])} is outside the "
                             "player's area (walled off)")
    if not boxes:
        raise data.error(key, "the map has no box ($ or *)")
    if len(boxes) != len(targets):
        raise data.error(key, f"{plural(len(boxes), 'box', 'boxes')} but "
                         f"{plural(len(targets), 'target')}: give as many targets as boxes")
    walls = frozenset(marks["#"])
    return Map(rows, walls, tuple(sorted(floor)), boxes, targets, player)


def _area(rows: tuple[str, ...], player: Cell) -> set[Cell]:
    """Cells reachable from ``player`` through anything but walls, inside the picture."""
    def open_(r: int, c: int) -> bool:
        return 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] != "#"

    seen, todo = {player}, [player]
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS.values():
            nxt = (r + dr, c + dc)
            if nxt not in seen and open_(*nxt):
                seen.add(nxt)
                todo.append(nxt)
    return seen


def push_distances(floor: set[Cell] | frozenset[Cell], targets: frozenset[Cell]
                   ) -> dict[Cell, int]:
    """The fewest pushes that bring a box alone on the board from each cell to a target;
    the cells missing are the dead squares (no sequence of pushes saves a box there).

    Worked backwards from the targets (a breadth-first search): a box at ``x`` comes from
    ``x - d`` by a push in direction ``d``, which needs the player at ``x - 2d``; both
    must be floor.
    """
    dist = {cell: 0 for cell in targets}
    todo = deque(targets)
    while todo:
        r, c = todo.popleft()
        for dr, dc in DIRECTIONS.values():
            before, stand = (r - dr, c - dc), (r - 2 * dr, c - 2 * dc)
            if before in floor and stand in floor and before not in dist:
                dist[before] = dist[(r, c)] + 1
                todo.append(before)
    return dist


@dataclass(frozen=True, kw_only=True)
class SokobanPuzzle(Puzzle):
    """Draws the map with the usual symbols; writes plans in the usual ``lurd`` notation.

    ``board`` is the map; ``cells`` the player's area, cell ``i`` holding the variable
    ``box[i]`` (the state is ``player``, then ``box[0..]``); ``dead`` the dead squares;
    ``unit`` the metric; ``actions`` each action's :class:`Move`.
    """

    board: Map
    cells: tuple[Cell, ...]
    dead: frozenset[Cell]
    unit: str
    actions: Mapping[str, Move] = field(default_factory=dict)

    def render_state(self, state: tuple[int, ...]) -> str:
        grid = [list(row) for row in self.board.rows]
        player = self.cells[state[0]]
        for i, cell in enumerate(self.cells):
            on_target = cell in self.board.targets
            if state[1 + i]:
                ch = "*" if on_target else "$"
            elif cell == player:
                ch = "+" if on_target else "@"
            else:
                ch = "." if on_target else " "
            grid[cell[0]][cell[1]] = ch
        return "\n".join("".join(row).rstrip() for row in grid)

    def json_state(self, state: tuple[int, ...]) -> Any:
        return self.render_state(state).splitlines()

    def goal_text(self) -> str:
        """The goal drawn as the map: a box on every target (``*``), the rest of the floor
        empty, and no player, whom the goal leaves anywhere (said on a last line)."""
        grid = [list(row) for row in self.board.rows]
        for r, c in self.cells:
            grid[r][c] = "*" if (r, c) in self.board.targets else " "
        drawn = "\n".join("".join(row).rstrip() for row in grid)
        return f"{drawn}\n(a box on every target; the player anywhere)"

    def variable_text(self, name: str) -> str:
        """``the box on r3c4`` (1 when there is one, else 0: what a sum of them counts)."""
        cell = cell_of(name, "box", self.cells)
        return name if cell is None else f"the box on {cell}"

    def atom_text(self, name: str, value: int) -> str | None:
        """``the player on r3c5``, ``a box on r3c4``, ``no box on r3c4``."""
        if name == "player" and 0 <= value < len(self.cells):
            return f"the player on {label(self.cells[value])}"
        cell = cell_of(name, "box", self.cells)
        if cell is not None and value in (0, 1):
            return f"{'a' if value else 'no'} box on {cell}"
        return None

    def pushes(self, plan: tuple[Step, ...]) -> int:
        """How many steps of ``plan`` push a box."""
        return sum(self.actions[s.action].push for s in plan)

    def count_moves(self, plan: tuple[Step, ...]) -> int:
        """Moves in the model's metric: pushes with ``metric = "pushes"``, else every step."""
        return self.pushes(plan) if self.unit == "pushes" else len(plan)

    @property
    def distance_unit(self) -> str:
        """Steps of the player: one action each (one move unless pushes are counted)."""
        return "steps" if self.unit == "pushes" else "moves"

    def plan_words(self, plan: tuple[Step, ...]) -> str:
        """E.g. "33 moves (8 pushes)" (moves: every step) or "8 pushes (33 steps; walking
        not minimised)" (pushes: walking is free, so no engine shortens it)."""
        pushes = plural(self.pushes(plan), "push", "pushes")
        if self.unit == "pushes":
            return f"{pushes} ({plural(len(plan), 'step')}; walking not minimised)"
        return f"{plural(len(plan), 'move')} ({pushes})"

    def plan_line(self, plan: tuple[Step, ...]) -> str:
        """The plan in the usual notation: ``l u r d`` walks, ``L U R D`` pushes."""
        return "".join(self.actions[s.action].letter for s in plan)

    def plan_summary(self, plan: tuple[Step, ...]) -> list[str]:
        """The plan as one ``lurd`` line (upper case: a push), under its size."""
        return [f"{self.plan_words(plan)}, upper case a push:", f"  {self.plan_line(plan)}"]

    def json_plan(self, plan: tuple[Step, ...]) -> dict[str, Any]:
        return {"lurd": self.plan_line(plan), "pushes": self.pushes(plan)}

    def read_plan(self, text: str) -> PlanAnswer | None:
        """A ``lurd`` line (whitespace ignored) as action names, followed from the player's
        cell: a lower-case letter walks, an upper-case one pushes.  A letter the map does
        not allow there keeps its name (``walk up from r1c2``) for the checker to refuse."""
        letters = "".join(text.split())
        if not letters or set(letters) - set("lurdLURD"):
            return None
        if len(letters) > MAX_STEPS:
            raise Unreadable(f"{len(letters):,} letters: more than {MAX_STEPS:,} steps")
        direction = {letter: name for name, letter in LETTER.items()}
        names, cell = [], self.board.player
        for ch in letters:
            move = Move(cell, direction[ch.lower()], ch.isupper())
            names.append(move.name)
            cell = move.end
        return PlanAnswer(tuple(names), "LURD")


def build(data: Data) -> SokobanPuzzle:
    """Build the planning model of a ``sokoban`` file."""
    data.unknown_keys(KEYS)
    board = read_map(data)
    metric = data.get("metric", str, "moves")
    if metric not in METRICS:
        raise data.error("metric", f"expected \"moves\" or \"pushes\", got {shown(metric)}")
    prune = data.get("dead_squares", bool, True)
    cells = board.floor
    index = {cell: i for i, cell in enumerate(cells)}
    distance = push_distances(set(cells), board.targets)
    dead = frozenset(set(cells) - set(distance))
    model = Planning(data.get("name", str, "sokoban"))
    model.add_variable("player", 0, len(cells) - 1)
    for i in range(len(cells)):
        model.add_variable(box(i), 0, 1)
    model.set_initial({"player": index[board.player],
                       **{box(i): int(c in board.boxes) for i, c in enumerate(cells)}})
    model.set_goal(And(*(Var(box(i)) == int(c in board.targets) for i, c in enumerate(cells))))
    actions = _add_moves(model, cells, index, dead if prune else frozenset(), metric)
    model.set_estimate(Sum(distance.get(c, len(cells)) * Var(box(i))
                           for i, c in enumerate(cells) if distance.get(c) != 0), vouched=True)
    words = ("one move = one step of the player (a push included)" if metric == "moves" else
             "one move = one push of a box (walking costs nothing)")
    return SokobanPuzzle(model.name, "sokoban", model, data.get("description", str, ""), words,
                         board=board, cells=cells, dead=dead, unit=metric, actions=actions)


def _add_moves(model: Planning, cells: tuple[Cell, ...], index: dict[Cell, int],
               dead: frozenset[Cell], metric: str) -> dict[str, Move]:
    """A walk and a push per cell and direction where the map allows them; no push onto a
    dead square.  A walk costs 1 with the moves metric, 0 with pushes; a push costs 1."""
    walk_cost = 1 if metric == "moves" else 0
    actions: dict[str, Move] = {}
    for cell in cells:
        p = index[cell]
        for name, (dr, dc) in DIRECTIONS.items():
            ahead, beyond = (cell[0] + dr, cell[1] + dc), (cell[0] + 2 * dr, cell[1] + 2 * dc)
            if ahead not in index:
                continue
            q = index[ahead]
            walk = Move(cell, name, False)
            model.add_action(walk.name, And(Var("player") == p, Var(box(q)) == 0),
                             {"player": q}, walk_cost)
            actions[walk.name] = walk
            if beyond not in index or beyond in dead:
                continue
            t = index[beyond]
            push = Move(cell, name, True)
            model.add_action(push.name,
                             And(Var("player") == p, Var(box(q)) == 1, Var(box(t)) == 0),
                             {"player": q, box(q): 0, box(t): 1}, 1)
            actions[push.name] = push
    return actions
