"""The time-indexed CP-SAT model of a :class:`~cpsolve.model.Planning` for one horizon.

After :func:`unroll` with horizon ``H``:

* ``states[t][v]`` is the value of state variable ``v`` after ``t`` steps
  (``t = 0..H``); at ``t = 0`` it is the initial value itself (an int), so
  everything about the first step folds to constants.  (A one-literal-per-value
  encoding with clause tables for guards and effects was measured: no faster
  to solve and several times slower to build);
* exactly one of ``acts[t]`` (one literal per action, plus the no-op
  ``idle[t]`` when the horizon may stutter) holds at each step ``t < H``;
* a chosen action's guard holds in ``states[t]`` and its effects give the
  values of the variables it writes in ``states[t + 1]``;
* frame: a variable none of whose writers is chosen keeps its value.  With
  exactly one action per step this is the same as "an action leaves the
  variables it does not write alone", and it also propagates backwards
  (a changed variable means one of its writers was chosen);
* with stutter: the no-op is allowed only once the goal holds, and is then
  repeated to the end, so horizon ``H`` covers every plan of at most ``H``
  steps, each exactly once;
* the goal holds in ``states[H]``;
* optionally (``distinct``) states a few steps apart differ: a shortest plan
  never revisits a state, and "no step undoes the previous one" prunes much
  of the search of sliding puzzles;
* ``step_cost[t]`` is the cost of step ``t`` (0 for the no-op), ``steps`` the
  number of real steps and ``total`` the plan's cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from ...model import Planning
from ...result import Step
from .compile import Compiler, Lit, Term


@dataclass
class Timeline:
    """One horizon of a planning model compiled to CP-SAT."""

    planning: Planning
    model: cp_model.CpModel
    states: list[dict[str, Term]]
    acts: list[list[Lit]]
    idle: list[Lit] | None
    step_cost: list[Term]
    steps: Term
    total: Term

    @property
    def horizon(self) -> int:
        """Number of steps unrolled."""
        return len(self.acts)

    def plan(self, solver: cp_model.CpSolver) -> tuple[Step, ...]:
        """The plan in the solver's solution (no-ops dropped)."""
        names = list(self.planning.domains)
        out: list[Step] = []
        for t, lits in enumerate(self.acts):
            if self.idle is not None and solver.boolean_value(self.idle[t]):
                break
            k = next(k for k, lit in enumerate(lits) if _true(solver, lit))
            state = tuple(_value(solver, self.states[t + 1][n]) for n in names)
            cost = _value(solver, self.step_cost[t])
            out.append(Step(self.planning.actions[k].name, state, cost))
        return tuple(out)


def _true(solver: cp_model.CpSolver, lit: Lit) -> bool:
    return lit if isinstance(lit, bool) else solver.boolean_value(lit)


def _value(solver: cp_model.CpSolver, term: Term) -> int:
    return term if isinstance(term, int) else int(solver.value(term))


def unroll(planning: Planning, horizon: int, stutter: bool = False,
           distinct: int = 0) -> Timeline:
    """Compile ``planning`` for exactly ``horizon`` steps (at most, with ``stutter``).

    With ``distinct = w``, states at most ``w`` steps apart must differ.
    """
    model = cp_model.CpModel()
    names = list(planning.domains)
    actions = planning.actions
    writers = {n: [k for k, a in enumerate(actions) if n in a.writes()] for n in names}
    states: list[dict[str, Term]] = [dict(planning.initial)]
    for t in range(1, horizon + 1):
        states.append({n: model.new_int_var(*planning.domain(n), f"{n}@{t}") for n in names})
    cache: dict = {}
    acts: list[list[Lit]] = []
    idle: list[Lit] | None = [] if stutter else None
    step_cost: list[Term] = []
    for t in range(horizon):
        now, nxt = states[t], states[t + 1]
        comp = Compiler(model, now, planning.domain, literals=cache)
        lits = [model.new_bool_var(f"{a.name}@{t}") for a in actions]
        acts.append(lits)
        choice = list(lits)
        if idle is not None:
            idle.append(model.new_bool_var(f"idle@{t}"))
            choice.append(idle[t])
            comp.post(planning.goal, [idle[t]])
            if t > 0:
                model.add_implication(idle[t - 1], idle[t])
        model.add_exactly_one(choice)
        costs: list[Term] = []
        ranges: list[tuple[int, int]] = []
        for lit, action in zip(lits, actions):
            comp.post(action.guard, [lit])
            for var, value in action.effects:
                model.add(nxt[var] == comp.integer(value)).only_enforce_if(lit)
            costs.append(comp.integer(action.cost))
            ranges.append(comp.bounds(action.cost))
        for n in names:
            model.add(nxt[n] == now[n]).only_enforce_if([~lits[k] for k in writers[n]])
        step_cost.append(_step_cost(model, lits, costs, ranges))
    if distinct:
        _no_revisit(model, planning, states, cache, distinct)
    Compiler(model, states[horizon], planning.domain, literals=cache).post(planning.goal)
    steps: Term = horizon if idle is None else horizon - sum(idle)
    return Timeline(planning, model, states, acts, idle, step_cost, steps, sum(step_cost))


def _no_revisit(model: cp_model.CpModel, planning: Planning, states: list[dict[str, Term]],
                cache: dict, window: int) -> None:
    """States 2 to ``window`` steps apart differ in some variable."""
    for t in range(len(states)):
        comp = Compiler(model, states[t], planning.domain, literals=cache)
        for u in range(t + 2, min(len(states), t + window + 1)):
            comp.clause([comp.reify(states[u][n], "!=", states[t][n], planning.domain(n),
                                    comp.domain(n)) for n in planning.domains])


def _step_cost(model: cp_model.CpModel, lits: list[Lit], costs: list[Term],
               ranges: list[tuple[int, int]]) -> Term:
    """The cost of the chosen action (0 when none is chosen)."""
    if all(isinstance(c, int) for c in costs):
        return sum(c * lit for c, lit in zip(costs, lits) if c)
    lo = min(0, *(r[0] for r in ranges))
    hi = max(0, *(r[1] for r in ranges))
    out = model.new_int_var(lo, hi, "")
    for c, lit in zip(costs, lits):
        model.add(out == c).only_enforce_if(lit)
    model.add(out == 0).only_enforce_if([~lit for lit in lits])
    return out
