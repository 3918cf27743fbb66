"""A plan checked by replaying it from the initial state under the model's rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...language.expr import Expr, Nary, conjuncts, readable
from ...language.interpret import evaluate
from ...model import Planning


@dataclass(frozen=True)
class Verdict:
    """Outcome of a check: ``ok``, and otherwise what is wrong and where."""

    ok: bool
    message: str = ""
    step: int | None = None
    """The first illegal step, counted from 1 (0: the initial state is forbidden);
    ``None`` when no step is illegal (the plan is valid, or it misses the goal)."""
    cost: int = 0
    reached: tuple[int, ...] | None = None
    """The state a plan ends in when every step is legal but the goal does not hold."""

    def __bool__(self) -> bool:
        return self.ok


def unmet(condition: Expr, env: Mapping[str, int]) -> Expr:
    """The conjuncts of ``condition`` that are false in ``env`` (for a message saying what
    a guard needs; a constant true conjunct, as an ``all`` over no items leaves, is never
    one of them); ``condition`` itself when none is false."""
    false = [p for p in conjuncts(condition) if not evaluate(p, env)]
    if not false:
        return condition
    return false[0] if len(false) == 1 else Nary("and", tuple(false))


def replay(model: Planning, plan: Sequence[Any],
           say: Callable[[Expr], str] = readable) -> Verdict:
    """Replay ``plan`` from the initial state under the model's rules (``say``: how the
    messages write a guard or the goal, e.g. in a puzzle's words).

    A step is an action name or a step object (``action``, ``state``, ``cost``).
    Each step's action must exist and its guard hold; effects are computed from
    the state before the step and must stay inside the domains; when a step
    records the state it claims to reach, that must be the state reached; the
    goal must hold at the end.  No state on the way, the initial one
    included, may satisfy a forbidden condition.  The verdict names the first
    illegal step (1-based; 0 a forbidden initial state; none when every step is legal
    but the goal is missed) and carries the plan's total cost.
    """
    actions = {a.name: a for a in model.actions}
    names = list(model.domains)
    env = dict(model.initial)
    total = 0
    bad = forbidden_by(model, env)
    if bad:
        return Verdict(False, f"the initial state is forbidden: {bad}", 0)
    for number, step in enumerate(plan, start=1):
        name = step if isinstance(step, str) else step.action
        action = actions.get(name)
        if action is None:
            return Verdict(False, f"step {number}: no action named {name!r}", number)
        if not evaluate(action.guard, env):
            return Verdict(False, f"step {number} ({name}) cannot be played: its guard needs "
                           f"{say(unmet(action.guard, env))}", number)
        cost = evaluate(action.cost, env)
        if not isinstance(step, str) and step.cost != cost:
            return Verdict(False, f"step {number} ({name}): cost {step.cost}, rules say {cost}",
                           number)
        total += cost
        new = dict(env)
        for var, value in action.effects:
            new[var] = evaluate(value, env)
            d = model.domains[var]
            if new[var] not in d:
                return Verdict(
                    False,
                    f"step {number} ({name}): {var} = {new[var]} leaves its domain "
                    f"{d.lo}..{d.hi}",
                    number,
                )
        env = new
        bad = forbidden_by(model, env)
        if bad:
            return Verdict(False, f"step {number} ({name}) reaches a forbidden state: {bad}",
                           number)
        if not isinstance(step, str):
            reached = tuple(env[n] for n in names)
            if tuple(step.state) != reached:
                return Verdict(False, f"step {number} ({name}): claims state {step.state}, "
                               f"rules give {reached}", number)
    if not evaluate(model.goal, env):
        return Verdict(False, f"the goal {say(model.goal)} does not hold after the plan",
                       None, total, tuple(env[n] for n in names))
    return Verdict(True, "", None, total)


def forbidden_by(model: Planning, env: Mapping[str, int]) -> str:
    """The label of the first forbidden condition ``env`` satisfies ("" if none)."""
    for item in model.forbidden:
        if evaluate(item.expr, env):
            return item.label
    return ""


def in_domains(model: Planning, state: Sequence[int]) -> bool:
    """True when ``state`` gives every state variable a value in its domain."""
    return len(state) == len(model.domains) and all(
        v in d for v, d in zip(state, model.domains.values()))
