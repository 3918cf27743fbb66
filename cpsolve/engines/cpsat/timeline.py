"""The time-indexed CP-SAT model of a :class:`~cpsolve.model.planning.Planning`, grown step by step.

A :class:`Timeline` holds steps ``0..H`` (:meth:`Timeline.grow` adds one);
:meth:`Timeline.close` returns a literal meaning "the plan ends at the current
horizon", so one model serves every horizon of the driver's loop (each solve
fixes the literal of its horizon).  :func:`unroll` builds a closed model for
one horizon.  After ``H`` steps:

* ``states[t][v]`` is the value of state variable ``v`` after ``t`` steps; at
  ``t = 0`` it is the initial value itself (an int), so everything about the
  first step folds to constants.  A small domain is one literal per value
  (``values[t][v]``, :mod:`.steps`), which turns guards, effects and frames
  into clauses and the estimate into a sum of literals;
* exactly one of ``acts[t]`` (one literal per action, plus the no-op
  ``idle[t]`` when the horizon may stutter) holds at each step ``t < H``; the
  model's decision strategy tries them step by step, first one true (a
  depth-first search of the plans, when the solver follows it);
* a chosen action's guard holds in ``states[t]`` and its effects give the
  values of the variables it writes in ``states[t + 1]``;
* frame: a variable none of whose writers is chosen keeps its value;
* with stutter: the no-op is allowed only once the goal holds, and is then
  repeated to the end, so horizon ``H`` covers every plan of at most ``H``
  steps, each exactly once;
* optionally (``distinct``) states a few steps apart differ: a shortest plan
  never revisits a state;
* optionally (``forbidden``) some pairs of actions never follow each other
  (:mod:`.pairs`: an action and its inverse; independent actions out of order);
* ``step_cost[t]`` is the cost of step ``t`` (0 for the no-op), ``steps`` the
  number of real steps and ``total`` the plan's cost.

After :meth:`Timeline.close` (with ``estimate``) the literal also requires the
declared estimate of every state to be at most the cost of the rest of the
plan.  (Integer state variables, with linear guards, effects and estimate,
were measured 2 to 3 times slower on sliding puzzles: 8-puzzle 0.9 s instead
of 0.4 s, line puzzle 2.2 s instead of 0.8 s.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...answers.result import Step
from ...language.expr import conjuncts
from ...model import Planning
from ..runtime.clock import Clock
from .compile import Compiler, Lit, Term
from .direct import post_condition
from .forbidden import Posting
from .library import cp_model, new_bools
from .steps import Separable, Values, assign, differ, keep, state_variable

SPENT_MAX = 1 << 40
"""Upper bound of the variable holding a closed plan's cost (far above any plan here)."""


class Timeline:
    """A planning model unrolled over a growing number of steps."""

    def __init__(self, planning: Planning, stutter: bool = False, distinct: int = 0,
                 forbidden: Iterable[tuple[int, int]] = ()) -> None:
        self.planning = planning
        self.model = cp_model.CpModel()
        self.distinct = distinct
        self.forbidden = tuple(forbidden)
        self._after: dict[int, list[int]] = {}  # j -> every k that j may not follow
        for k, j in self.forbidden:
            self._after.setdefault(j, []).append(k)
        self.writers = {n: [k for k, a in enumerate(planning.actions) if n in a.writes()]
                        for n in planning.domains}
        self.states: list[dict[str, Term]] = [dict(planning.initial)]
        self.values: list[dict[str, Values]] = [{n: None for n in planning.domains}]
        self.acts: list[list[Lit]] = []
        self.idle: list[Lit] | None = [] if stutter else None
        self.step_cost: list[Term] = []
        self._cache: dict = {}
        self._tables: dict = {}
        self._compilers = [self._compiler(0)]
        self._estimates: list[Term] = []
        self._spent: tuple[Separable, cp_model.IntVar] | None = None
        self._parity: int | None = None
        self._forbidden = Posting(planning)

    @property
    def horizon(self) -> int:
        """Number of steps unrolled."""
        return len(self.acts)

    @property
    def steps(self) -> Term:
        """The number of real steps (no-ops excluded)."""
        return self.horizon if self.idle is None else self.horizon - sum(self.idle)

    @property
    def total(self) -> Term:
        """The plan's cost."""
        return sum(self.step_cost)

    def _compiler(self, t: int) -> Compiler:
        one_hot = {n: v for n, v in self.values[t].items() if v is not None}
        return Compiler(self.model, self.states[t], self.planning.domain,
                        literals=self._cache, one_hot=one_hot)

    def extend(self, horizon: int, budget: Clock | None = None) -> Timeline:
        """Grow to ``horizon`` steps (no-op if there are that many already) — or fewer, once
        ``budget`` says stop (a long timeline takes a while to build, and a step with
        thousands of forbidden states too: the caller asks :meth:`reached`)."""
        if not self._forbidden.resume(self._compilers[-1], budget):
            return self
        while self.horizon < horizon:
            if budget is not None and budget.expired():
                break
            if not self.grow(budget):
                break
        return self

    def reached(self, horizon: int) -> bool:
        """True when at least ``horizon`` steps are built, each in full (the forbidden
        states of the last one too): the timeline may be closed and solved."""
        return self.horizon >= horizon and self._forbidden.next is None

    def grow(self, budget: Clock | None = None) -> bool:
        """Add one step: the action literals, the next state and what links them.  False
        when ``budget`` said stop before the next state's forbidden conditions were all
        posted (:meth:`extend` posts the rest)."""
        planning, model, t = self.planning, self.model, self.horizon
        nxt: dict[str, Term] = {}
        nxt_values: dict[str, Values] = {}
        for n in planning.domains:
            nxt[n], nxt_values[n] = state_variable(model, *planning.domain(n), f"{n}@{t + 1}")
        self.states.append(nxt)
        self.values.append(nxt_values)
        self._compilers.append(self._compiler(t + 1))
        self._forbidden.start(model, nxt)  # no state of the plan is forbidden (the tables
        # now, the rest at the end, in chunks: the clock may stop it)
        comp = self._compilers[t]
        lits = new_bools(model, len(planning.actions))
        choice = list(lits)
        if self.idle is not None:
            self.idle.append(model.new_bool_var(f"idle@{t}"))
            choice.append(self.idle[t])
            comp.post(planning.goal, [self.idle[t]])
            if t > 0:
                model.add_implication(self.idle[t - 1], self.idle[t])
            self._idle_parity(t)
        model.add_exactly_one(choice)
        model.add_decision_strategy(choice[-1:] + lits if self.idle is not None else lits,
                                    cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
        costs: list[Term] = []
        ranges: list[tuple[int, int]] = []
        for lit, action in zip(lits, planning.actions):
            for part in conjuncts(action.guard):
                if not post_condition(comp, part, [lit]):
                    comp.post(part, [lit])
            for var, value in action.effects:
                assign(comp, value, nxt[var], nxt_values[var], lit, self._tables)
            costs.append(comp.integer(action.cost))
            ranges.append(comp.bounds(action.cost))
        now, now_values = self.states[t], self.values[t]
        for n, writers in self.writers.items():
            keep(comp, now[n], now_values[n], nxt[n], nxt_values[n], [lits[k] for k in writers])
        self.step_cost.append(_step_cost(model, lits, costs, ranges, self.idle is None))
        if t > 0:
            before = self.acts[t - 1]
            for j, ks in self._after.items():
                model.add_bool_and([~before[k] for k in ks]).only_enforce_if(lits[j])
        self.acts.append(lits)
        for u in range(max(0, t + 1 - self.distinct), t):
            self._differ(u, t + 1)
        return self._forbidden.resume(self._compilers[t + 1], budget)

    def suggest(self, plan: Sequence[Step]) -> None:
        """Hint CP-SAT at ``plan``'s actions, step by step (a solution hint: where to
        look first, never a constraint; steps past the horizon are left out)."""
        for lits, step in zip(self.acts, plan):
            for lit, action in zip(lits, self.planning.actions):
                if not isinstance(lit, bool):
                    self.model.add_hint(lit, action.name == step.action)

    def plan_parity(self, parity: int) -> None:
        """With stutter: the plan's number of real steps has this parity (the no-op
        starts only after a number of steps of that parity; steps grown later too)."""
        assert self.idle is not None
        self._parity = parity
        for t in range(self.horizon):
            self._idle_parity(t)

    def _idle_parity(self, t: int) -> None:
        if self._parity is None or t % 2 == self._parity:
            return
        if t == 0:
            self.model.add_bool_or([~self.idle[0]])
        else:
            self.model.add_implication(self.idle[t], self.idle[t - 1])

    def _differ(self, u: int, t: int) -> None:
        """States ``u`` and ``t`` differ in some variable."""
        comp = self._compilers[t]
        comp.clause([differ(comp, self.states[u][n], self.values[u][n], self.states[t][n],
                            self.values[t][n], self.planning.domain(n))
                     for n in self.planning.domains])

    def close(self, estimate: bool = False) -> Lit:
        """A literal requiring the goal at the current horizon (and, with ``estimate``,
        the declared estimate of each state at most the cost of the steps after it)."""
        planning, model, end = self.planning, self.model, self.horizon
        lit = model.new_bool_var(f"end@{end}")
        self._compilers[end].post(planning.goal, [lit])
        if estimate and planning.estimate is not None:
            model.add(self._bound_estimates(end) == sum(self.step_cost)).only_enforce_if(lit)
        return lit

    def _bound_estimates(self, end: int) -> cp_model.IntVar:
        """``estimate(t) + cost(steps before t) <= spent`` for every ``t < end``; ``spent``.

        ``spent`` is the plan's whole cost once a :meth:`close` literal fixes
        it, so each state's estimate is at most the cost still to come; the
        constraints are posted once, whichever horizon closes later.
        """
        if self._spent is None:
            assert self.planning.estimate is not None
            self._spent = (Separable(self.planning.estimate, self.planning.domain),
                           self.model.new_int_var(0, SPENT_MAX, "spent"))
        separable, spent = self._spent
        for t in range(len(self._estimates), end):
            self._estimates.append(separable.compile(self._compilers[t], self.values[t]))
            self.model.add(self._estimates[t] + sum(self.step_cost[:t]) <= spent)
        return spent

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


def unroll(planning: Planning, horizon: int, stutter: bool = False, distinct: int = 0,
           forbidden: Iterable[tuple[int, int]] = (), estimate: bool = False) -> Timeline:
    """Compile ``planning`` for exactly ``horizon`` steps (at most, with ``stutter``).

    With ``distinct = w``, states at most ``w`` steps apart must differ.
    """
    tl = Timeline(planning, stutter, distinct, forbidden).extend(horizon)
    tl.model.add_bool_or([tl.close(estimate)])
    return tl


def _true(solver: cp_model.CpSolver, lit: Lit) -> bool:
    return lit if isinstance(lit, bool) else solver.boolean_value(lit)


def _value(solver: cp_model.CpSolver, term: Term) -> int:
    return term if isinstance(term, int) else int(solver.value(term))


def _step_cost(model: cp_model.CpModel, lits: list[Lit], costs: list[Term],
               ranges: list[tuple[int, int]], chosen: bool) -> Term:
    """The cost of the chosen action (0 when none is chosen; ``chosen``: one always is)."""
    if chosen and costs and all(isinstance(c, int) and c == costs[0] for c in costs):
        return costs[0]
    if all(isinstance(c, int) for c in costs):
        return sum(c * lit for c, lit in zip(costs, lits) if c)
    lo = min(0, *(r[0] for r in ranges))
    hi = max(0, *(r[1] for r in ranges))
    out = model.new_int_var(lo, hi, "")
    for c, lit in zip(costs, lits):
        model.add(out == c).only_enforce_if(lit)
    model.add(out == 0).only_enforce_if([~lit for lit in lits])
    return out
