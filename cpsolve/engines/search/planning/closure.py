"""Cheapest plans for 0/1 costs set by a memory variable: cost layers of 0-cost closures.

For models whose costs (0 or 1) read only a *memory variable* that every action
overwrites (:mod:`cpsolve.model.memory`; peg solitaire in moves: ``last``), the search
runs over boards (the state without it), one cost layer at a time
(:mod:`.closure_layers`): layer ``k + 1`` is every action from every board of layer
``k``, closed under the actions that then cost 0, boards of earlier layers dropped.
The board model's symmetries (with the memory's value map, checked against every
cost) merge symmetric boards.

When the board model can be run backwards from one goal state
(:func:`cpsolve.model.memory.reversed_model`), layers grow from both ends, the
smaller side first.  Backward layer ``j`` holds the boards whose cheapest cost *to*
the goal (a fresh first move) is ``j``.  A plan of cost ``C`` passes, after its
``k``-th move, through a board of forward cost at most ``k`` and backward cost at most
``C - k``; so while the forward layers up to ``kf`` and the backward layers up to
``kb`` share no board, every plan costs more than ``kf + kb``, and the first board
they share gives a plan of cost ``kf + kb`` (its forward cost plus its backward
cost, at most): optimal.  Without a way back, the forward layers alone run until one
holds a goal.

The plan is rebuilt from the boards' origins: chains of canonical boards from the
meeting board back to the start and on to the goal, then forward from the real start,
one layer at a time (an action, then 0-cost actions) to a board of the next
canonical form.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ....answers.result import Result, Status
from ....answers.words import plural
from ..common import Budget, found, infeasible, stopped
from ..compile import State, Task
from .closure_layers import Closure, Layer, Side, layer, member, seeds_of

BRIDGE_AT = 15
"""Under a time limit, once the two sides' depths add up to this, a beam bridge looks
for a plan (``SOLVED``) to return should the proof not finish in time."""

BRIDGE_WIDTH = 50_000
"""Boards each layer of the bridge keeps."""

BRIDGE_DEPTH = 6
"""Most layers the bridge grows."""


@dataclass
class Run:
    """The layers of one side and the sorted union of their boards."""

    side: Side
    layers: list[Layer] = field(default_factory=list)
    seen: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    done: bool = False  # the side ran out of boards: nothing beyond

    def add(self, now: Layer) -> None:
        """Append a layer (an empty one ends the side)."""
        if not now.boards.size:
            self.done = True
            return
        self.layers.append(now)
        self.seen = np.union1d(self.seen, now.boards)

    def cost(self, board: int) -> int:
        """The layer holding ``board``."""
        return next(k for k, x in enumerate(self.layers) if member(x.boards, np.array([board]))[0])


def closure(task: Task, budget: Budget) -> Result:
    """Least total cost by 0-cost closure layers, from both ends when the model runs
    backwards (see the module docstring)."""
    c = Closure(task)
    ahead = Run(c.forward)
    start = layer(c, c.forward, (c.start(), np.full(1, -1, np.int64), np.zeros(1, np.int64)),
                  ahead.seen, budget)
    if start is None:
        return stopped(budget, 0, 0, "cost")
    ahead.add(start)
    back = None
    if c.backward is not None:
        back = Run(c.backward)
        goal = c.orbits.canonical(np.array([c.backward.goal], np.int64))
        back.add(Layer(goal, np.full(1, -1, np.int64), np.zeros(1, np.int64), 1))
    details: dict[str, object] = {"symmetries": c.symmetry_count, "memory": c.memory,
                                  "directions": 1 if back is None else 2}
    grown, best = ahead, None
    while True:
        meet = _meeting(c, ahead, back)
        if meet is not None:
            return _plan(task, c, (ahead, back, grown), meet, details)
        if "bridge" not in details and back is not None and budget.clock.limit is not None \
                and len(ahead.layers) + len(back.layers) - 2 >= BRIDGE_AT:
            best = _bridge(c, ahead, back, budget)
            details["bridge"] = None if best is None else best[1]
        if ahead.done or (back is not None and back.done):
            return infeasible(task, _explored(ahead, back), "goal unreachable: every cost "
                              f"layer exhausted ({plural(_explored(ahead, back), 'pair')})",
                              **_layers(details, ahead, back))
        run = ahead if back is None or _next_size(ahead) <= _next_size(back) else back
        now = _grow(c, run, budget, (back if run is ahead else ahead) if back else None)
        if now is None:
            bound = len(ahead.layers) + (0 if back is None else len(back.layers) - 1)
            if best is None:
                return stopped(budget, _explored(ahead, back), bound, "cost",
                               **_layers(details, ahead, back))
            return found(task, best[0], Status.SOLVED, _explored(ahead, back),
                         f"a plan through a bridge of {best[1]} beam layers; the proof stopped "
                         f"at {budget.reason}: no plan costs less than {bound}",
                         **_layers(details, ahead, back)).but(bound=bound)
        run.add(now)
        grown = run
        budget.report(lambda: f"closure: cost {len(ahead.layers) - 1} ahead"
                      f"{'' if back is None else f', {len(back.layers) - 1} back'}, "
                      f"{_explored(ahead, back):,} pairs")


def _bridge(c: Closure, ahead: Run, back: Run, budget: Budget
            ) -> tuple[list[State], int] | None:
    """A plan early (anytime): beam layers of at most :data:`BRIDGE_WIDTH` boards (a
    random sample, seeded) from the newest forward layer until one meets the backward
    side; its states and how many beam layers it took, or None."""
    rng = np.random.default_rng(0)

    def sample(x: Layer) -> Layer:
        if not x.complete or x.boards.size <= BRIDGE_WIDTH:
            return x
        pick = np.sort(rng.choice(x.boards.size, BRIDGE_WIDTH, replace=False))
        return Layer(x.boards[pick], x.origins[pick], x.depths[pick], x.pairs)

    run = Run(c.forward, [*ahead.layers[:-1], sample(ahead.layers[-1])], ahead.seen)
    for depth in range(1, BRIDGE_DEPTH + 1):
        now = _grow(c, run, budget, back)
        if now is None or not now.boards.size:
            return None
        run.add(sample(now))
        shared = now.boards[member(back.seen, now.boards)]
        if shared.size:
            return _path(c, run, back, int(shared[0]))[0], depth
    return None


def _next_size(run: Run) -> float:
    """The expected size of ``run``'s next layer: the last one times its growth."""
    sizes = [x.boards.size for x in run.layers[-2:]]
    return sizes[-1] * sizes[-1] / sizes[0]


def _grow(c: Closure, run: Run, budget: Budget, other: Run | None) -> Layer | None:
    """The next layer of ``run``'s side (cut short where it meets the ``other`` side), or
    None when the budget stops it."""
    last = run.layers[-1]
    seeds = seeds_of(c, run.side, last.boards, last.depths, budget)
    if seeds is None:
        return None
    return layer(c, run.side, seeds, run.seen, budget, None if other is None else other.seen)


def _meeting(c: Closure, ahead: Run, back: Run | None) -> int | None:
    """A board both sides reached (a goal board, with one side), or None."""
    if back is None:
        goals = ahead.layers[-1].boards[c.goals(ahead.layers[-1].boards)]
        return int(goals[0]) if goals.size else None
    for mine, other in ((ahead.layers[-1].boards, back.seen),
                        (back.layers[-1].boards, ahead.seen)):
        shared = mine[member(other, mine)]
        if shared.size:
            return int(shared[0])
    return None


def _explored(ahead: Run, back: Run | None) -> int:
    return sum(x.pairs for run in (ahead, back) if run is not None for x in run.layers)


def _layers(details: dict, ahead: Run, back: Run | None) -> dict:
    out = {**details, "layers": [int(x.boards.size) for x in ahead.layers]}
    if back is not None:
        out["layers_back"] = [int(x.boards.size) for x in back.layers]
    return out


def _plan(task: Task, c: Closure, runs: tuple[Run, Run | None, Run], meet: int,
          details: dict) -> Result:
    """The optimal plan through board ``meet``, and its proof in words (``runs``: the
    forward side, the backward one, the side grown last)."""
    ahead, back, grown = runs
    path, cost = _path(c, ahead, back, meet)
    sym = (f", one board per orbit of {c.symmetry_count} symmetries"
           if c.symmetry_count > 1 else "")
    if back is None:
        proof = (f"cost {cost} is the least: every board reachable at cost {cost - 1} or less "
                 f"was examined (cost layers closed under 0-cost actions{sym}); none is a goal")
    else:
        kf, kb = len(ahead.layers) - 1, len(back.layers) - 1
        kf, kb = (kf - 1, kb) if grown is ahead else (kf, kb - 1)
        proof = (f"cost {cost} is the least: the boards reachable from the start at cost "
                 f"{kf} or less and those that reach the goal at cost {kb} or less share "
                 f"none, and any plan of cost {kf + kb} or less would pass through one of "
                 f"each after its first {kf} moves (cost layers closed under 0-cost actions "
                 f"from both ends{sym})")
    if cost == 0:
        proof = "the start is a goal"
    extra = _layers(details, ahead, back)
    return found(task, path, Status.OPTIMAL, _explored(ahead, back), proof, proof=proof,
                 lower_bound=cost, **extra)


def _path(c: Closure, ahead: Run, back: Run | None, meet: int) -> tuple[list[State], int]:
    """The states of a plan through board ``meet``, and its forward plus backward cost."""
    k = ahead.cost(meet)
    j = 0 if back is None else back.cost(meet)
    chain = _origins(ahead, k, meet)[::-1] + (_origins(back, j, meet)[1:] if back else [])
    path = [c.task.initial]
    for i, target in enumerate(chain):
        path += _chain_to(c, path[-1], target, first_free=i > 0)
    assert c.task.is_goal(path[-1])
    return path, k + j


def _origins(run: Run, k: int, board: int) -> list[int]:
    """Canonical boards from ``board`` (layer ``k``) to layer 0, by origins."""
    out = [board]
    for i in range(k, 0, -1):
        now = run.layers[i]
        out.append(int(now.origins[int(np.searchsorted(now.boards, out[-1]))]))
    return out


def _chain_to(c: Closure, state: State, target: int, first_free: bool) -> list[State]:
    """States after ``state``: one action (any cost, when ``first_free``), then actions
    costing 0, to a state whose canonical board is ``target`` (none when already there)."""
    if not first_free and c.canonical_board(state) == target:
        return []
    todo: list[tuple[State, list[State]]] = [(state, [])]
    visited = {state}
    while todo:
        s, path = todo.pop()
        for _, t, cost in c.task.successors(s):
            if (cost and (path or not first_free)) or t in visited:
                continue
            visited.add(t)
            if c.canonical_board(t) == target:
                return [*path, t]
            todo.append((t, [*path, t]))
    raise AssertionError(f"closure: no chain to board {target}")
