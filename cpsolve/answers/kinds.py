"""Typed answers: a plan, an assignment, a count, an analysis.

Each is a frozen value that an engine builds and a :class:`~cpsolve.answers.result.Result`
carries.  Each knows how to check itself against the model — by calling the
independent functions of :mod:`cpsolve.answers.check`, never engine code — and what
the checker can vouch for (:attr:`checkable`).  Drawing them for people and
programs is :mod:`cpsolve.output.text`'s job; it dispatches on the answer's type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from ..model import Csp, Planning
from .check.assignments import objective_value, violations
from .check.plans import in_domains, replay
from .words import plural

Passed = Callable[[Mapping[str, int]], bool]
"""Which listed solutions the checker already passed (streamed as the engine found them,
:mod:`cpsolve.engines.streamed`): every kind's ``problem`` takes it, only a count's list
has use for it."""


@dataclass(frozen=True)
class Step:
    """One plan step: the action taken, the state it leads to, what it cost."""

    action: str
    state: tuple[int, ...]
    cost: int = 1


def _plan_problem(model: Planning, steps: tuple[Step, ...], cost: int | None) -> str | None:
    """What is wrong with one plan (``None``: it replays, and costs ``cost``)."""
    verdict = replay(model, steps)
    if not verdict:
        return f"an invalid plan: {verdict.message}"
    if cost is not None and verdict.cost != cost:
        return f"cost {cost}, but the plan costs {verdict.cost}"
    return None


@dataclass(frozen=True)
class Plan:
    """A plan: the steps from the initial state to the goal and their total ``cost``.

    ``len(plan)`` is the number of steps (actions); a family's own metric
    (``moves``) is counted by the puzzle, not here.
    """

    steps: tuple[Step, ...]
    cost: int

    kind = "plan"

    def __len__(self) -> int:
        return len(self.steps)

    @classmethod
    def of(cls, steps: tuple[Step, ...] | list[Step]) -> Plan:
        """The plan of ``steps``, its cost summed from them."""
        steps = tuple(steps)
        return cls(steps, sum(s.cost for s in steps))

    def problem(self, model: Csp | Planning, passed: Passed | None = None) -> str | None:
        """What the checker finds wrong (``None``: the plan replays at its cost)."""
        if not isinstance(model, Planning):
            return "a plan for a model that has no actions"
        return _plan_problem(model, self.steps, self.cost)

    @property
    def checkable(self) -> bool:
        """The checker replays the whole plan."""
        return True


@dataclass(frozen=True)
class Assignment:
    """A value for every variable; ``unique`` when proven (``second``: another one)."""

    values: Mapping[str, int]
    unique: bool | None = None
    second: Mapping[str, int] | None = None
    objective: int | None = None
    """The value of the model's objective (``minimize``/``maximize``) at ``values``."""
    minimizing: bool = True
    """The objective's sense (comparisons between engines: less is better when True)."""

    kind = "assignment"

    def problem(self, model: Csp | Planning, passed: Passed | None = None) -> str | None:
        """What the checker finds wrong (``None``: every constraint holds, and the claimed
        objective is the objective's value, re-evaluated here)."""
        if not isinstance(model, Csp):
            return "an assignment for a planning model"
        for values in (self.values, self.second):
            broken = [] if values is None else violations(model, values)
            if broken:
                return f"an invalid assignment: {broken[0]}"
        if (model.objective is None) != (self.objective is None):
            return ("an objective value for a model without one" if model.objective is None
                    else "no objective value for a model with an objective")
        if model.objective is not None:
            value = objective_value(model, self.values)
            if value != self.objective:
                return f"objective {self.objective}, but the assignment's is {value}"
        if self.second is not None and dict(self.second) == dict(self.values):
            return "the same solution twice"
        return None

    @property
    def checkable(self) -> bool:
        """The checker checks the assignment (not the uniqueness claim)."""
        return True


Counted = Literal["solutions", "plans"]
"""What a count counts: the solutions of a csp, or the optimal plans of a planning model."""


@dataclass(frozen=True)
class Count:
    """How many solutions (csp) or optimal plans (planning) there are.

    ``of`` says which, so that a count of 0 with nothing listed still knows its words;
    ``solutions`` / ``plans`` list some or all of them when asked for;
    ``cost`` is the least cost of a plan (counts of optimal plans only).
    """

    count: int
    solutions: tuple[Mapping[str, int], ...] | None = None
    plans: tuple[tuple[Step, ...], ...] | None = None
    cost: int | None = None
    of: Counted = "solutions"

    kind = "count"

    def __post_init__(self) -> None:
        if self.of == "solutions" and (self.plans is not None or self.cost is not None):
            raise ValueError("a count of solutions has no plans and no cost (of='plans')")
        if self.of == "plans" and self.solutions is not None:
            raise ValueError("a count of plans lists no solutions")

    def listed(self) -> int:
        """How many solutions or plans are listed."""
        return len(self.solutions or ()) + len(self.plans or ())

    def problem(self, model: Csp | Planning, passed: Passed | None = None) -> str | None:
        """What the checker finds wrong with the listed solutions or plans.  ``passed`` tells
        the solutions this checker already passed (streamed as the engine found them,
        :mod:`cpsolve.engines.streamed`): those are not checked a second time."""
        if self.listed() > self.count:
            return f"a list of {self.listed()} but a count of {self.count}"
        if self.of != ("plans" if isinstance(model, Planning) else "solutions"):
            return f"a count of {self.of} for a {model.kind} model"
        if self.solutions is not None:
            if not isinstance(model, Csp):
                return "solutions listed for a planning model"
            for values in self.solutions:
                if passed is not None and passed(values):
                    continue
                broken = violations(model, values)
                if broken:
                    return f"an invalid assignment in its list: {broken[0]}"
            if len({tuple(sorted(s.items())) for s in self.solutions}) != len(self.solutions):
                return "a solution listed twice"
        if self.plans is not None:
            if not isinstance(model, Planning):
                return "plans listed for a csp model"
            for steps in self.plans:
                problem = _plan_problem(model, steps, self.cost)
                if problem:
                    return f"{problem} in its list of plans"
            if len({tuple(s.action for s in p) for p in self.plans}) != len(self.plans):
                return "a plan listed twice"
        return None

    @property
    def checkable(self) -> bool:
        """True only when every counted solution or plan is listed (and so checked); a
        count of 0 is a claim that none exists, which a list cannot show."""
        return self.count > 0 and self.listed() == self.count


Direction = Literal["start", "goal"]


@dataclass(frozen=True)
class Analysis:
    """A state space explored breadth-first from one end.

    ``direction`` ``"start"``: the states reachable from the initial state,
    ``layers[d]`` of them at distance ``d`` from it; ``"goal"``: the states
    that can reach the goal, ``layers[d]`` at distance ``d`` to it.
    ``farthest`` are the states at ``max_distance`` (when every layer is known).
    """

    states: int
    layers: tuple[int, ...]
    direction: Direction
    max_distance: int | None = None
    farthest: tuple[tuple[int, ...], ...] = ()

    kind = "analysis"

    def problem(self, model: Csp | Planning, passed: Passed | None = None) -> str | None:
        """What the checker finds wrong: malformed states, figures that do not add up."""
        if not isinstance(model, Planning):
            return "an analysis of a model that has no states"
        if sum(self.layers) > self.states:
            return f"layers of {plural(sum(self.layers), 'state')} among {self.states:,}"
        for state in self.farthest:
            if not in_domains(model, state):
                return f"a malformed state {state}"
        return None

    @property
    def checkable(self) -> bool:
        """State counts are not re-derived by the checker (and only the search engine
        analyses: no other engine cross-checks them)."""
        return False


Answer = Plan | Assignment | Count | Analysis
"""Exactly one of these (or nothing) is what a result says."""
