"""A plan as a path in the explicit transition graph: CP-SAT's automaton constraint.

The time-indexed model (:mod:`.timeline`) states every step as clauses over
state variables; CP-SAT refutes a horizon shorter than the optimum by search,
one horizon after another (Tower of Hanoi, 7 discs: horizons 1 to 126 over a
space of 2,187 states).  When a model with unit costs has few reachable
states (at most :data:`~.search.planning.space.SIDE_STATES`, found within
:func:`~.search.planning.space.side_seconds`), the search
engine's packing enumerates every one and every move between them
(:func:`cpsolve.engines.search.statespace.graph.transition_graph`); then a
plan of at most ``T`` steps is one automaton constraint over ``T`` action
variables, whose states are the graph's states, whose labels are the actions,
whose accepting states are the goal states, with a no-op label looping on each
goal state.  CP-SAT's expansion of that constraint propagates reachability
layer by layer, so a horizon shorter than the optimum is refuted at once.

:func:`solve` asks two questions, both answered by CP-SAT:

1. is there a plan of at most ``d - 1`` steps, over the whole graph, where
   ``d`` is the fewest steps to a goal in the graph's breadth-first order?  The
   answer "no" is the optimality proof;
2. which plan of ``d`` steps?  Asked over the arcs of the graph that lie on a
   shortest path (a restriction that only speeds the search; the plan is
   replayed by the checker like every answer).

The result says which encoding ran (``details["encoding"]``: ``"transition
graph"``; the time-indexed model says ``"time-indexed"``).  Models with costs,
forbidden states, more reachable states or graphs too long to unroll
(:data:`ARC_STEPS`) keep the time-indexed model (:func:`solve` returns None).
"""

from __future__ import annotations

import numpy as np

from ...answers.agreement import PROOF_BY
from ...answers.result import EngineBug, Plan, Result, Status, Step
from ...answers.words import lower_bound, plural
from ...model import Planning
from ...model.facts import goal_at_start
from .. import Options
from ..runtime.clock import Clock
from ..search.planning.space import SIDE_STATES, side_seconds
from ..search.statespace.graph import Graph
from .library import cp_model
from .solving import FOUND, run, size, solver_for

ENCODING = "transition graph"
"""``details["encoding"]`` of a result found here."""

ARC_STEPS = 20_000_000
"""Most ``arcs x horizon`` for the refutation (CP-SAT's expansion walks the arcs once per
step: Hanoi with 8 discs, 19,680 arcs x 254 steps, about 0.3 s)."""


ARC_STEPS_PER_SECOND = 2_000_000
"""``arcs x horizon`` CP-SAT's expansion is assumed to walk per second of the time left (a
tenth of the rate measured on Hanoi 8, for a loaded machine): a refutation that would not
fit keeps the time-indexed model, which stops at the limit (the expansion does not)."""


ACTIONS = 5_000
"""Models with more actions keep the time-indexed model (the enumeration makes NumPy calls
per action and layer)."""


def applies(planning: Planning) -> bool:
    """Whether :func:`solve` may answer: unit costs (or constant costs of 0 and 1:
    :mod:`.graph_free`), no forbidden states, at most :data:`ACTIONS` actions, the goal
    not met at the start."""
    from . import graph_free

    return ((planning.unit_costs() or graph_free.costs(planning) is not None)
            and not planning.forbidden and len(planning.actions) <= ACTIONS
            and not goal_at_start(planning))


def solve(planning: Planning, options: Options) -> Result | None:
    """The shortest plan by CP-SAT over the transition graph, or a proof that none exists;
    None when the graph does not apply (:func:`applies`, or too large once enumerated)."""
    from ..search.compile import compile_planning
    from ..search.statespace.graph import transition_graph

    if not applies(planning):
        return None
    budget = Clock(options.time_limit)
    graph = transition_graph(compile_planning(planning), SIDE_STATES,
                             budget.child(side_seconds(options.time_limit)))
    if graph is None:
        return None
    details: dict[str, object] = {"encoding": ENCODING, "graph_states": graph.size,
                                  "graph_arcs": int(graph.tails.size)}
    fewest = graph.distance()
    if fewest is None:
        return Result(Status.INFEASIBLE, "cpsat", proof="exhausted search",
                      details={**details, PROOF_BY: "search"},
                      explored=graph.size, message=(
                          f"no plan: none of the {plural(graph.size, 'state')} reachable from "
                          "the start (enumerated by the search engine's packing) is a goal"))
    if not planning.unit_costs():
        return _cheapest(planning, graph, budget, details)
    if not _fits(graph.tails.size * fewest, budget):
        return None
    return _optimal(planning, options, graph, fewest, budget, details)


def _fits(work: int, budget: Clock) -> bool:
    """Whether CP-SAT's expansion of ``work`` arcs x steps is worth starting."""
    left = budget.left()
    return work <= ARC_STEPS and (left is None or work <= ARC_STEPS_PER_SECOND * left)


def _cheapest(planning: Planning, graph: Graph, budget: Clock,
              details: dict[str, object]) -> Result | None:
    """Costs of 0 and 1: refute ``cost - 1`` paid arcs of the closed graph, then find a
    plan of ``cost`` (:mod:`.graph_free`); None when the closure is too large."""
    from . import graph_free as free

    cost = free.costs(planning)
    paid = free.close(graph, cost, budget)
    if paid is None:
        return None
    details.update(paid_arcs=int(paid.tails.size))
    from_start = free.spread(paid.tails, paid.heads, np.zeros(1, np.int64), graph.size)
    fewest = int(from_start[paid.goals][from_start[paid.goals] >= 0].min())
    if fewest and not _fits(paid.tails.size * fewest, budget):
        return None
    if fewest:
        refute = _Automaton(paid, paid.labels, fewest - 1, np.ones(paid.tails.size, bool))
        solver, status = _solve(refute, budget)
        details.update(size(refute.model), horizon=fewest - 1)
        free.refuted(paid, fewest, status in FOUND)
        if status != cp_model.INFEASIBLE:
            return _unknown(budget, details, 1, "costs less than")
        details["refuted_up_to"] = fewest - 1
    to_goal = free.spread(paid.heads, paid.tails, paid.goals, graph.size)
    on_path = from_start[paid.tails] + 1 + to_goal[paid.heads] == fewest
    find = _Automaton(paid, paid.labels, fewest, on_path)
    solver, status = _solve(find, budget)
    if status not in FOUND:
        return _unknown(budget, details, fewest, "costs less than")
    plan = free.plan(planning, graph, [solver.value(v) for v in find.labels], cost)
    return free.optimal(plan, fewest, graph, details)


def _optimal(planning: Planning, options: Options, graph: Graph, fewest: int, budget: Clock,
             details: dict[str, object]) -> Result:
    """Refute ``fewest - 1`` steps, then find a plan of ``fewest`` steps."""
    actions = len(planning.actions)
    if options.progress is not None:
        options.progress(f"transition graph: {plural(graph.size, 'state')}; no plan of at most "
                         f"{fewest - 1} steps?")
    refute = _Automaton(graph, actions, fewest - 1, np.ones(graph.tails.size, bool))
    solver, status = _solve(refute, budget)
    details.update(size(refute.model), horizon=fewest - 1)
    if status in FOUND:
        raise EngineBug(f"cpsat: a plan of at most {fewest - 1} steps over the transition "
                        f"graph, whose breadth-first search says {fewest} at least")
    if status != cp_model.INFEASIBLE:
        return _unknown(budget, details, 1)
    details["refuted_up_to"] = fewest - 1  # every horizon up to it, by one solve
    on_path = graph.from_start()[graph.tails] + 1 + graph.to_goal()[graph.heads] == fewest
    find = _Automaton(graph, actions, fewest, on_path)
    solver, status = _solve(find, budget)
    if status not in FOUND:
        return _unknown(budget, details, fewest)
    labels = [solver.value(v) for v in find.labels]
    details["plan_horizon"] = fewest
    return Result(Status.OPTIMAL, "cpsat", answer=Plan.of(_steps(planning, graph, labels)),
                  details=details, message=(
                      f"shortest plan: no plan of fewer than {fewest} steps exists (refuted "
                      f"by CP-SAT over the transition graph of {plural(graph.size, 'state')}, one "
                      "automaton constraint)"))


class _Automaton:
    """A CP-SAT model: ``horizon`` action variables, one automaton constraint over the
    ``arcs`` kept (a mask) and a no-op looping on each goal state."""

    def __init__(self, graph: Graph, actions: int, horizon: int, arcs: np.ndarray) -> None:
        self.model = cp_model.CpModel()
        idle = actions  # the no-op label
        self.labels = [self.model.new_int_var(0, idle, f"action_{t}") for t in range(horizon)]
        ct = self.model.proto.constraints.add().automaton  # filled in bulk: 10^5 arcs and more
        ct.starting_state = 0
        ct.final_states.extend(graph.goals.tolist())
        goals = graph.goals
        ct.transition_tail.extend(np.concatenate([graph.tails.compress(arcs), goals]).tolist())
        ct.transition_head.extend(np.concatenate([graph.heads.compress(arcs), goals]).tolist())
        ct.transition_label.extend(np.concatenate(
            [graph.actions.compress(arcs), np.full(goals.size, idle)]).tolist())
        for v in self.labels:
            expr = ct.exprs.add()
            expr.vars.append(v.index)
            expr.coeffs.append(1)


def _solve(automaton: _Automaton, budget: Clock) -> tuple[cp_model.CpSolver, object]:
    """One worker: CP-SAT's presolve expands the automaton, which decides it."""
    solver = solver_for(budget, 1)
    return solver, run(solver, automaton.model)


def _steps(planning: Planning, graph: Graph, labels: list[int]) -> tuple[Step, ...]:
    """The plan of the action labels (no-ops dropped), walking the graph from the start."""
    order = np.argsort(graph.tails, kind="stable")
    tails, actions, heads = graph.tails[order], graph.actions[order], graph.heads[order]
    state, path, taken = 0, [], []
    for k in labels:
        if k == len(planning.actions):
            break
        first, last = np.searchsorted(tails, [state, state + 1])
        state = int(heads[first + np.flatnonzero(actions[first:last] == k)[0]])
        path.append(state)
        taken.append(k)
    return tuple(Step(planning.actions[k].name, s) for k, s in zip(taken, graph.states(path)))


def _unknown(budget: Clock, details: dict[str, object], shortest: int,
             words: str = "shorter than") -> Result:
    """The limit came first: every plan has at least ``shortest`` steps (or costs), said as
    every engine says a bound (:func:`~cpsolve.answers.words.lower_bound`)."""
    return Result(Status.UNKNOWN, "cpsat", bound=shortest, details=details,
                  message=f"{budget.why()}; {lower_bound(shortest, words == 'shorter than')}")
