"""The model's declared estimate, audited before an engine rests a proof on it.

A :class:`~cpsolve.model.planning.Planning` may declare an *estimate*
(:meth:`~cpsolve.model.planning.Planning.set_estimate`): a lower bound on the cost still
to pay from a state to the goal.  CP-SAT (its first horizon, and every state's estimate at
most the cost of the steps after it) and the search engine (A*, IDA*, the proof after
weighted A*) prove optima with it, so an estimate that says more than the true cost
anywhere makes their proofs wrong: "optimal" for a plan that is not, "infeasible" where a
plan exists.  :func:`audit` is asked by :func:`cpsolve.engines.run` before a planning
engine starts:

* an estimate that is negative at the initial state, or not 0 at the goal state (when the
  goal pins every variable), is refused at once;
* when at most :data:`STATES` states are reachable from the start (enumerated within
  0.25 s, or a tenth of the time limit: :func:`.search.planning.space.side_seconds`), the
  exact cost of the cheapest way to a goal from each of them is computed (Dijkstra's
  search backwards over the enumerated moves, with the actions' costs) and an estimate
  that is negative or more
  than it at any of them, or not 0 at a goal, is refused: a :class:`ModelError` naming
  the state, the estimate and the true cost;
* otherwise it cannot be audited, and :func:`qualified` marks a proof that used it
  (``details["proof_uses_estimate"]``, set by the engines) as resting on it.
"""

from __future__ import annotations

import heapq
import weakref
from collections.abc import Callable
from dataclasses import replace
from operator import sub

from ..answers.result import Result, Status
from ..model import ModelError, Planning
from .runtime.clock import Clock
from .search.planning.space import SIDE_STATES, side_seconds

STATES = SIDE_STATES
"""Most reachable states the audit enumerates (it gives up beyond): as many as any
enumeration on the side, within its seconds (:func:`.search.planning.space.side_seconds`)."""

RESTS_ON = "the model's estimate"
"""``details["proof_rests_on"]`` of a proof that used an estimate the audit could not
check; the status then reads ``optimal (proven, given the model's estimate)``."""

PROVEN = (Status.OPTIMAL, Status.INFEASIBLE, Status.EXACT)
"""The statuses of a proof that an unaudited estimate qualifies."""

_AUDITED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Model -> (its estimate, its number of actions, the states audited or None): a model
run by several engines in one process is audited once."""


def audit(planning: Planning, time_limit: float | None = None) -> int | None:
    """The number of reachable states at which the estimate was checked against the true
    cost to the goal (None: no estimate, or too many states to check); raises
    :class:`ModelError` when the estimate is not admissible where it is seen."""
    if planning.estimate is None:
        return None
    known = _AUDITED.get(planning)
    if known is not None and known[0] is planning.estimate \
            and known[1] == len(planning.actions):
        return known[2]
    checked = _audit(planning, Clock(side_seconds(time_limit)))
    _AUDITED[planning] = (planning.estimate, len(planning.actions), checked)
    return checked


def _audit(planning: Planning, clock: Clock) -> int | None:
    """:func:`audit`, without the memo."""
    from ..answers.result import Unsupported
    from .search.compile import compile_planning
    from .search.emit import TooDeep, build, source
    from .search.forbidden import Stopped

    try:
        task = compile_planning(planning, clock)
        text = source(planning.estimate, lambda name: f"s[{task.index[name]}]")
        h = build(f"def h(s):\n    return {text}\n", {}, "h")
    except (TooDeep, Unsupported, Stopped):
        return None
    _seen(planning, task.initial, h(task.initial), None)
    goal = task.goal_state
    if goal is not None and task.in_domain(goal):
        _seen(planning, goal, h(goal), 0, goal=True)
    arcs = _enumerate(task, clock)
    if arcs is None:
        return None
    states, back, key = arcs
    to_goal = _to_goal(back, [key(s) for s in states if task.is_goal(s)])
    for state in states:  # breadth-first order: the first wrong state is the nearest
        _seen(planning, state, h(state), to_goal.get(key(state)), goal=task.is_goal(state))
    return len(states)


def _seen(planning: Planning, state: tuple[int, ...], says: int, away: int | None,
          goal: bool = False) -> None:
    """Refuse an estimate that says ``says`` at ``state`` (``goal``: a goal state), whose
    cheapest way to a goal costs ``away`` (None: not known, or no goal is reachable)."""
    where = ", ".join(f"{name}={value}" for name, value in zip(planning.names, state))
    if says < 0:
        raise ModelError(f"the estimate is not admissible: at {where} it says {says}; an "
                         "estimate is never negative", "estimate")
    if goal and says != 0:
        raise ModelError(f"the estimate is not admissible: at {where} it says {says} but it "
                         "is a goal: an admissible estimate is 0 there", "estimate")
    if away is not None and says > away:
        raise ModelError(f"the estimate is not admissible: at {where} it says {says} but the "
                         f"goal is {away} away (the least cost from there); an estimate must "
                         "never exceed the cost still to pay", "estimate")


Back = dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]]
"""State -> its predecessors, each with the cost of the move from it."""


def _enumerate(task, clock: Clock) -> tuple[list[tuple[int, ...]], Back, Key] | None:
    """Every state reachable from the start, breadth-first, and the moves between them
    backwards, by :func:`_key`; None when there are more than :data:`STATES` or ``clock``
    runs out."""
    key = _key(task.lo)
    states, back = [task.initial], {key(task.initial): []}
    successors = task.successors
    for i, state in enumerate(states):  # the list grows as it is walked: breadth-first
        if len(states) > STATES or (i % 256 == 0 and clock.expired()):
            return None
        here = key(state)
        for _action, after, cost in successors(state):
            came = back.get(key(after))
            if came is None:
                back[key(after)] = came = []
                states.append(after)
            came.append((here, cost))
    return states, back, key


Key = Callable[[tuple[int, ...]], tuple[int, ...]]


def _key(lows: list[int]) -> Key:
    """A state's dictionary key: the state itself, or its values counted from the lowest of
    each domain when some domain holds negative values (CPython hashes -1 as -2, so states
    of -1s and -2s would all collide: 120 counters from -2 took minutes, not milliseconds)."""
    if min(lows, default=0) >= 0:
        return lambda state: state
    return lambda state: tuple(map(sub, state, lows))


def _to_goal(back: Back, goals: list[tuple[int, ...]]) -> dict[tuple[int, ...], int]:
    """Each state's least cost to one of ``goals`` (Dijkstra's search over ``back``);
    states from which no goal is reachable are left out."""
    cost = dict.fromkeys(goals, 0)
    heap = [(0, i, g) for i, g in enumerate(goals)]
    count = len(heap)
    while heap:
        paid, _, state = heapq.heappop(heap)
        if paid > cost[state]:
            continue
        for before, step in back[state]:
            total = paid + step
            if total < cost.get(before, total + 1):
                cost[before] = total
                count += 1
                heapq.heappush(heap, (total, count, before))
    return cost


def qualified(result: Result, audited: int | None) -> Result:
    """``result`` saying what its proof rests on: ``details["estimate_audited"]`` (the
    states checked) when the audit passed; ``details["proof_rests_on"]`` and a message
    when an engine's proof used an estimate the audit could not check — or when a run
    stopped before its proof reports a lower bound (``no plan has fewer than N steps``), which
    A* and CP-SAT's first horizon draw from the estimate."""
    used = bool(result.details.get("proof_uses_estimate")) and result.status in PROVEN
    bounded = result.bound is not None and result.status not in PROVEN
    if not (used or bounded):
        return result
    if audited is not None:
        return replace(result, details={**result.details, "estimate_audited": audited}) \
            if used else result
    what = "the proof rests" if used else "its lower bound may rest"
    note = (f"{what} on {RESTS_ON} (too many reachable states to check that it never "
            "exceeds the cost still to pay)")
    message = f"{result.message}; {note}" if result.message else note
    return replace(result, message=message,
                   details={**result.details, "proof_rests_on": RESTS_ON})
