"""Family ``pegs``: peg solitaire as planning, with jumps or chain moves as the metric.

    family = "pegs"
    name = "English 33-hole"
    board = '''
      ooo
      ooo
    ooooooo
    ooo.ooo
    ooooooo
      ooo
      ooo
    '''
    jumps = [[0, 1], [1, 0]]   # optional: vectors v; a peg at p jumps over p+v
                               # into p+2v (both signs); orthogonal by default
    goal_peg = [3, 3]          # one peg left at (row, col), counted from 0;
                               # or goal = picture; or pegs_left = 1
    metric = "jumps"           # or "moves": a chain of jumps by one peg is one move

In the picture each character is a column: ``o`` a peg, ``.`` an empty hole,
a space no hole (the common indentation is removed).  Any board and jump
set: a triangular board is written with alternate columns (``o o o`` rows
indented by one) and jumps ``[[0, 2], [1, 1], [1, -1]]``.

**Goals.** Exactly one of: ``goal_peg = [row, col]`` (one peg left, there);
``goal`` (a picture of the final board); ``pegs_left = N`` (N pegs left,
anywhere), optionally with ``region = [[row, col], ...]``: the holes the
remaining pegs must lie in (every other hole ends empty).

**Metrics.** With ``jumps`` every jump costs 1.  With ``moves`` a jump by the
peg that has just landed (it continues its own chain) costs 0, any other
jump 1: the model keeps the hole of the last landing in a variable ``last``
and the action cost is ``0 if last == from else 1``.

The family declares the board symmetries (square symmetries mapping holes to
holes and jumps to jumps) as permutations of the state variables; engines may
use them to merge symmetric positions.  With ``moves`` the permutation keeps
``last`` in place, which the model's own check refuses (``last`` names a hole);
:mod:`cpsolve.model.memory` pairs it with the value map of ``last`` it derives
and checks.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..answers.result import Step
from ..answers.words import plural
from ..language.combine import And, If, Sum
from ..language.expr import Expr, Var
from ..language.quoting import shown
from ..model import Planning
from .base import Puzzle, cell_name, cell_of
from .data import Data

KEYS = {"family", "name", "description", "board", "jumps", "goal", "goal_peg", "pegs_left",
        "region", "metric"}
SQUARE_SYMMETRIES = (
    lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
    lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (c, r), lambda r, c: (-c, -r),
)


def hole(i: int) -> str:
    """State variable of hole ``i`` (1 = a peg)."""
    return f"hole[{i}]"


def read_picture(data: Data, key: str) -> dict[tuple[int, int], bool]:
    """``(row, col) -> has a peg`` for every hole of a picture."""
    text = textwrap.dedent(data.get(key, str).strip("\n"))
    holes = {}
    for r, line in enumerate(text.splitlines()):
        for c, ch in enumerate(line):
            if ch in "o.":
                holes[(r, c)] = ch == "o"
            elif ch != " ":
                raise data.error(key, f"row {r + 1}, column {c + 1}: {shown(ch)} is not o, . or a "
                                 "space")
    if not holes:
        raise data.error(key, "the board has no holes")
    return holes


label = cell_name
"""A hole in notation: ``r2c4`` (1-based)."""


Cell = tuple[int, int]


@dataclass(frozen=True)
class Jump:
    """One jump action on the board: the peg's hole, the hole jumped over, the landing hole."""

    start: Cell
    over: Cell
    end: Cell


@dataclass(frozen=True, kw_only=True)
class PegsPuzzle(Puzzle):
    """Draws boards; groups jumps into moves (chains).

    ``cells`` are the holes ``(row, col)``, hole ``i`` being ``cells[i]``;
    ``unit`` is the file's ``metric``: ``"jumps"`` or ``"moves"`` (chains);
    ``jumps`` the jump vectors, both signs (they tell the board's lattice);
    ``actions`` maps each action's name to its :class:`Jump`; ``left`` the file's
    ``pegs_left`` (0: a goal picture or peg), ``region`` the holes they must lie in
    (empty: anywhere).
    """

    cells: tuple[Cell, ...]
    unit: str
    jumps: tuple[Cell, ...] = ()
    actions: Mapping[str, Jump] = field(default_factory=dict)
    left: int = 0
    region: tuple[Cell, ...] = ()

    def render_state(self, state: tuple[int, ...]) -> str:
        cells = self.cells
        rows = 1 + max(r for r, _ in cells)
        cols = 1 + max(c for _, c in cells)
        grid = [[" "] * cols for _ in range(rows)]
        for (r, c), v in zip(cells, state):
            grid[r][c] = "o" if v else "."
        return "\n".join("".join(row).rstrip() for row in grid)

    def goal_text(self) -> str | None:
        """A goal by count as the file says it: ``1 peg left``, ``2 pegs left in r4c2,
        r4c4 (every other hole empty)``; a goal picture or peg drawn as the board."""
        if not self.left:
            return super().goal_text()
        pegs = f"{plural(self.left, 'peg')} left"
        if not self.region:
            return pegs
        return f"{pegs} in {', '.join(map(label, self.region))} (every other hole empty)"

    def variable_text(self, name: str) -> str:
        """``the peg in r2c4`` (1 when there is one, else 0: what a sum of them counts)."""
        cell = cell_of(name, "hole", self.cells)
        return name if cell is None else f"the peg in {cell}"

    def atom_text(self, name: str, value: int) -> str | None:
        """``a peg in r2c4``, ``no peg in r2c4``."""
        cell = cell_of(name, "hole", self.cells)
        if cell is not None and value in (0, 1):
            return f"{'a' if value else 'no'} peg in {cell}"
        return None

    def chains(self, plan: tuple[Step, ...]) -> list[list[str]]:
        """The plan's jumps grouped into chains (consecutive jumps by one peg)."""
        groups: list[list[str]] = []
        landed = None
        for step in plan:
            jump = self.actions[step.action]
            start, end = label(jump.start), label(jump.end)
            if groups and start == landed:
                groups[-1].append(end)
            else:
                groups.append([start, end])
            landed = end
        return groups

    def count_moves(self, plan: tuple[Step, ...]) -> int:
        """Moves in the model's metric: chains with ``metric = "moves"``, else jumps."""
        return len(self.chains(plan)) if self.unit == "moves" else len(plan)

    @property
    def distance_unit(self) -> str:
        """Jumps: one action each (one move unless the metric chains them)."""
        return "jumps" if self.unit == "moves" else "moves"

    def plan_words(self, plan: tuple[Step, ...]) -> str:
        """E.g. "7 moves (11 jumps; a chain of jumps by one peg is one move)"."""
        if self.unit == "moves":
            return (f"{plural(self.count_moves(plan), 'move')} ({plural(len(plan), 'jump')}; "
                    "a chain of jumps by one peg is one move)")
        return f"{plural(len(plan), 'move')} ({plural(len(plan), 'jump')}; each jump is one move)"

    def plan_summary(self, plan: tuple[Step, ...]) -> list[str]:
        """The jumps grouped into chains in puzzle notation, each written from-to-to..."""
        groups = self.chains(plan)
        if self.unit == "moves":
            head, word = f"{plural(len(groups), 'move')}, each a chain of jumps by one peg:", "move"
        else:
            head, word = (f"the {plural(len(plan), 'jump')} as {plural(len(groups), 'chain')} "
                          "by one peg:", "chain")
        return [head] + [f"  {word} {i}: {'-'.join(g)}" for i, g in enumerate(groups, start=1)]

    def plan_line(self, plan: tuple[Step, ...]) -> str:
        """Moves separated by spaces, each chain written ``from-to-to...``."""
        return " ".join("-".join(g) for g in self.chains(plan))

    def json_plan(self, plan: tuple[Step, ...]) -> dict[str, Any]:
        return {"chains": self.chains(plan)}

    def json_state(self, state: tuple[int, ...]) -> Any:
        return self.render_state(state).splitlines()


def build(data: Data) -> PegsPuzzle:
    """Build the planning model of a ``pegs`` file."""
    data.unknown_keys(KEYS)
    start = read_picture(data, "board")
    cells = sorted(start)
    index = {cell: i for i, cell in enumerate(cells)}
    vectors = _vectors(data)
    metric = data.get("metric", str, "jumps")
    if metric not in ("jumps", "moves"):
        raise data.error("metric", f"expected \"jumps\" or \"moves\", got {shown(metric)}")
    goal = _goal(data, start, index)
    model = Planning(data.get("name", str, "peg solitaire"))
    for i in range(len(cells)):
        model.add_variable(hole(i), 0, 1)
    n = len(cells)
    if metric == "moves":
        model.add_variable("last", 0, n)  # n: no jump yet
    initial = {hole(i): int(start[cell]) for i, cell in enumerate(cells)}
    if metric == "moves":
        initial["last"] = n
    model.set_initial(initial)
    model.set_goal(goal)
    actions: dict[str, Jump] = {}
    for cell in cells:
        for dr, dc in vectors:
            over, to = (cell[0] + dr, cell[1] + dc), (cell[0] + 2 * dr, cell[1] + 2 * dc)
            if over not in index or to not in index:
                continue
            a, b, t = index[cell], index[over], index[to]
            effects: dict[str, Any] = {hole(a): 0, hole(b): 0, hole(t): 1}
            cost: Any = 1
            if metric == "moves":
                effects["last"] = t
                cost = If(Var("last") == a, 0, 1)
            name = f"{label(cell)}-{label(to)}"
            model.add_action(name, And(Var(hole(a)) == 1, Var(hole(b)) == 1, Var(hole(t)) == 0),
                             effects, cost)
            actions[name] = Jump(cell, over, to)
    for perm in symmetries(cells, vectors):  # with moves, "last" keeps its value: the
        # model's own check refuses them; the board model (model/memory.py) takes them
        mapping = {hole(index[c]): hole(index[perm[c]]) for c in cells}
        model.add_symmetry(mapping if metric == "jumps" else {**mapping, "last": "last"})
    return PegsPuzzle(model.name, "pegs", model, data.get("description", str, ""),
                      "one move = one jump" if metric == "jumps" else
                      "one move = a chain of consecutive jumps by the same peg",
                      cells=tuple(cells), unit=metric, jumps=tuple(vectors), actions=actions,
                      left=data.table.get("pegs_left", 0),
                      region=tuple(sorted(tuple(c) for c in data.table.get("region", ()))))


def _vectors(data: Data) -> list[tuple[int, int]]:
    raw = data.items("jumps", list, [[0, 1], [1, 0]])
    out: set[tuple[int, int]] = set()
    for i, v in enumerate(raw):
        for j, x in enumerate(v):
            data.checked(f"jumps[{i}][{j}]", x, int)
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)
                and v != [0, 0]):
            raise data.error("jumps", f"a jump vector is [drow, dcol], not {shown(v)}")
        out |= {(v[0], v[1]), (-v[0], -v[1])}
    return sorted(out)


def _goal(data: Data, start: dict, index: dict) -> Expr:
    """The goal condition: a picture, one peg at a hole, or a number of pegs (in a region)."""
    given = [k for k in ("goal", "goal_peg", "pegs_left") if k in data.table]
    if len(given) != 1:
        raise data.error("goal", "give exactly one of goal (a picture), goal_peg [row, col] and "
                         "pegs_left (a number of pegs)")
    if "region" in data.table and given != ["pegs_left"]:
        raise data.error("region", "a region goes with pegs_left only")
    if "pegs_left" in data.table:
        return _count_goal(data, start, index)
    if "goal_peg" in data.table:
        peg = data.get("goal_peg", list)
        if len(peg) != 2 or not all(type(v) is int for v in peg) or tuple(peg) not in index:
            raise data.error("goal_peg", f"{shown(peg)} is not a hole of the board")
        goal = {cell: cell == tuple(peg) for cell in start}
    else:
        goal = read_picture(data, "goal")
        if set(goal) != set(start):
            raise data.error("goal", "the goal picture's holes differ from the board's")
    return And(*(Var(hole(index[c])) == int(v) for c, v in sorted(goal.items())))


def _count_goal(data: Data, start: dict, index: dict) -> Expr:
    """``pegs_left`` pegs anywhere, or inside ``region``: the holes outside end empty."""
    left = data.get("pegs_left", int)
    pegs = sum(start.values())
    if not 1 <= left <= pegs:
        raise data.error("pegs_left", f"must be between 1 and the start's {plural(pegs, 'peg')}, "
                         f"got {left}")
    region = set(index)
    if "region" in data.table:
        raw = data.get("region", list)
        region = set()
        for cell in raw:
            if not (isinstance(cell, list) and len(cell) == 2
                    and all(type(v) is int for v in cell) and tuple(cell) in index):
                raise data.error("region", f"{shown(cell)} is not a hole of the board "
                                 "([row, col], counted from 0)")
            if tuple(cell) in region:
                raise data.error("region", f"{shown(cell)} is listed twice (list each hole once)")
            region.add(tuple(cell))
        if len(region) < left:
            raise data.error("region", f"its {plural(len(region), 'hole')} "
                             f"cannot hold {plural(left, 'peg')}")
    outside = [Var(hole(index[c])) == 0 for c in sorted(set(index) - region)]
    return And(*outside, Sum(Var(hole(index[c])) for c in sorted(region)) == left)


def symmetries(cells: list[tuple[int, int]],
               vectors: list[tuple[int, int]]) -> list[dict[tuple[int, int], tuple[int, int]]]:
    """Square symmetries (about the board's centre) mapping holes and jumps onto themselves."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    cr2, cc2 = min(rows) + max(rows), min(cols) + max(cols)  # twice the centre
    holes, vecs = set(cells), set(vectors)
    out = []
    for f in SQUARE_SYMMETRIES[1:]:
        perm = {}
        for r, c in cells:
            dr, dc = f(2 * r - cr2, 2 * c - cc2)
            if (dr + cr2) % 2 or (dc + cc2) % 2:
                break
            perm[(r, c)] = ((dr + cr2) // 2, (dc + cc2) // 2)
        else:
            if set(perm.values()) == holes and {f(*v) for v in vecs} == vecs:
                out.append(perm)
    return out
