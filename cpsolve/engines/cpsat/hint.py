"""A plan offered as a hint (``Options.hint``), replayed before it is used.

A hint comes from elsewhere (another engine's first plan, a caller) and is
never trusted: :func:`replay` runs it from the initial state with this
engine's own compiler (:class:`.compile.Compiler` over known values folds
every guard, effect and cost to a number, so nothing is added to any model)
and returns its steps only when every guard holds, every new value lies in
its domain, no state it reaches is forbidden and the goal holds at the end.
A rejected hint is reported and ignored; an accepted one is only an upper
bound: the driver still proves that nothing shorter (or cheaper) exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...answers.result import Step
from ...model import Planning
from .compile import Compiler
from .library import cp_model


@dataclass(frozen=True)
class Replayed:
    """The outcome of :func:`replay`: the hint's steps, or why it was rejected."""

    steps: tuple[Step, ...] | None
    problem: str = ""

    @property
    def cost(self) -> int:
        """The hint's total cost (only for an accepted hint)."""
        assert self.steps is not None
        return sum(s.cost for s in self.steps)


def replay(planning: Planning, names: Sequence[str]) -> Replayed:
    """The steps of the plan whose action names are ``names``, or why it is no plan."""
    by_name = {a.name: a for a in planning.actions}
    scratch = cp_model.CpModel()  # folding creates nothing; checked below
    state: dict[str, int] = dict(planning.initial)
    steps: list[Step] = []
    for t, name in enumerate(names, start=1):
        action = by_name.get(name)
        if action is None:
            return Replayed(None, f"step {t}: no action is called {name!r}")
        comp = Compiler(scratch, state, planning.domain)
        if comp.literal(action.guard) is not True:
            return Replayed(None, f"step {t}: {name!r} does not apply")
        after = dict(state)
        for var, expr in action.effects:
            value = comp.integer(expr)
            lo, hi = planning.domain(var)
            if not isinstance(value, int) or not lo <= value <= hi:
                return Replayed(None, f"step {t}: {name!r} leaves the domain of {var}")
            after[var] = value
        cost = comp.integer(action.cost)
        if not isinstance(cost, int):
            return Replayed(None, f"step {t}: the cost of {name!r} is not known")
        reached = Compiler(scratch, after, planning.domain)
        for item in planning.forbidden:
            if reached.literal(item.expr) is not False:
                return Replayed(None, f"step {t}: {name!r} reaches a forbidden state"
                                + (f" ({item.label})" if item.label else ""))
        state = after
        steps.append(Step(name, planning.state(state), cost))
    if Compiler(scratch, state, planning.domain).literal(planning.goal) is not True:
        return Replayed(None, "the goal does not hold at its end")
    if scratch.proto.variables or scratch.proto.constraints:
        return Replayed(None, "some expression could not be evaluated")
    return Replayed(tuple(steps))
