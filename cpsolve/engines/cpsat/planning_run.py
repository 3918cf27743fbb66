"""One call of the planning driver (:func:`.planning.solve`): its model, budget and what it
has learnt, and its results in words."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...answers.result import Hint, Plan, Result, Status, Step
from ...answers.words import lower_bound, number, plural
from ...model import Planning
from .. import Options
from ..runtime.clock import Clock
from . import additions
from .library import cp_model
from .solving import pin, size, solve_staged
from .timeline import Timeline


@dataclass
class Run:
    """One call of :func:`.planning.solve`: the model, the budget and what has been learnt."""

    planning: Planning
    options: Options
    budget: Clock
    unit: bool
    cap: int
    why: str
    forbidden: list[tuple[int, int]] = field(default_factory=list)
    estimated: int = 0
    details: dict[str, object] = field(default_factory=dict)
    hint: Hint | None = None
    tried: list[int] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        """Report progress, if the caller listens."""
        if self.options.progress is not None:
            self.options.progress(text)

    def solve(self, tl: Timeline, budget: Clock | None = None, end: object = None,
              minimize: bool = False, staged: bool = True) -> tuple[cp_model.CpSolver, object]:
        """Solve one timeline within the remaining time (or ``budget``).

        ``end`` is a literal fixed to true for this solve and to false after
        it (horizons only grow: the next one has its own literal; an
        assumption would force CP-SAT onto one worker); ``minimize`` asks for
        the plan's least cost.  Solver set-up: :func:`.solving.solve_staged`
        (``staged``: depth-first alone first).
        """
        model = tl.model
        if minimize:
            model.minimize(tl.total)
        else:
            model.clear_objective()
        self.details.update(size(model), horizon=tl.horizon)
        if end is not None:
            pin(model, end, 1)
        try:
            return solve_staged(model, budget or self.budget, self.options.workers, staged)
        finally:
            if end is not None:
                pin(model, end, 0)

    def result(self, status: Status, plan: tuple[Step, ...] | None = None,
               message: str = "", bound: int | None = None, proof: str | None = None) -> Result:
        """A result carrying the figures gathered so far (``proof``: how an infeasibility
        was proven, CP-SAT's own search unless said otherwise)."""
        self.details["encoding"] = "time-indexed"  # (cpsat.graph: "transition graph")
        self.details["horizons_infeasible"] = tuple(self.tried)
        self.details["horizon_cap"] = self.cap
        if status is Status.INFEASIBLE:
            proof = proof or "cp-sat"
        if self.rests_on_estimate(status, plan, proof):
            self.details["proof_uses_estimate"] = True
        return Result(status, "cpsat", answer=None if plan is None else Plan.of(plan),
                      bound=bound, message=message, proof=proof, details=dict(self.details),
                      hint=self.hint)

    def rests_on_estimate(self, status: Status, plan: tuple[Step, ...] | None,
                          proof: str | None) -> bool:
        """Whether a proof with this status used the declared estimate: the horizons proven
        empty bound each state's estimate by the cost still to come (:mod:`.additions`), and
        the first horizon and cost bound come from it (not the empty plan at a goal, nor a
        proof by an invariant)."""
        return (status in (Status.OPTIMAL, Status.INFEASIBLE) and plan != ()
                and proof != "invariant" and self.planning.estimate is not None
                and additions.estimate())

    def shortest(self, horizon: int) -> str:
        """What proves that no plan has fewer than ``horizon`` steps."""
        return f"shortest plan: no plan has fewer than {plural(horizon, 'step')}{self.proof()}"

    def proof(self) -> str:
        """The horizons proven empty and what ruled out the others, in parentheses
        (empty when there is nothing to say)."""
        reasons = list(self.reasons)
        if self.tried:
            reasons.insert(0, f"none of {_listed(self.tried)} steps exists")
        return f" ({'; '.join(reasons)})" if reasons else ""

    def unknown(self, shortest: int, known: tuple[Step, ...] | None = None,
                floor: int = 1) -> Result:
        """The limit was hit before a plan was proven: every plan has at least ``shortest``
        steps (each costing at least ``floor``); ``known``: a plan found all the same."""
        message = f"{self.budget.why()}; {lower_bound(shortest)}"
        # a bound on the cost: with costs, steps bound it only through the least step cost
        bound = shortest if self.unit else max(floor * shortest, self.estimated, 0)
        if known is None:
            return self.result(Status.UNKNOWN, bound=bound, message=message)
        return self.result(Status.SOLVED, known, bound=bound,
                           message=f"{message}; {unproven(known, self.unit)}")


def _listed(counts: list[int]) -> str:
    """``21, 23 or 25``; a long evenly spaced run as ``2, 3, ..., 43``."""
    gaps = {b - a for a, b in zip(counts, counts[1:])}
    if len(counts) > 4 and len(gaps) == 1:
        return f"{counts[0]}, {counts[1]}, ..., {counts[-1]}"
    text = [str(c) for c in counts]
    return text[0] if len(text) == 1 else f"{', '.join(text[:-1])} or {text[-1]}"


def unproven(plan: tuple[Step, ...], unit: bool) -> str:
    """The plan a stopped run knows, in words that stand without it (a count that needed
    the optimum quotes them, and shows no plan): ``a plan of 108 steps is known, not
    proven optimal`` (``of cost 18`` where steps cost other than 1)."""
    size = plural(len(plan), "step") if unit else f"cost {number(sum(s.cost for s in plan))}"
    return f"a plan of {size} is known, not proven optimal"
