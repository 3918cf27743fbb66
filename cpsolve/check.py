"""The independent checker: every answer passes here before anyone sees it.

It shares no code with the engines: expressions are evaluated by the
reference interpreter :func:`cpsolve.expr.evaluate`, which no engine solves
with, and each constraint kind is checked by its plain definition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .expr import evaluate, to_text
from .model import AllDifferent, Circuit, Condition, Csp, Planning
from .result import EngineBug, Result, Status, Step


@dataclass(frozen=True)
class Verdict:
    """Outcome of a check: ``ok``, and otherwise what is wrong and where."""

    ok: bool
    message: str = ""
    step: int | None = None
    cost: int = 0

    def __bool__(self) -> bool:
        return self.ok


def replay(model: Planning, plan: Sequence[str | Step]) -> Verdict:
    """Replay ``plan`` from the initial state under the model's rules.

    Each step's action must exist and its guard hold; effects are computed from
    the state before the step and must stay inside the domains; when a step
    records the state it claims to reach, that must be the state reached; the
    goal must hold at the end.  The verdict names the first illegal step
    (1-based) and carries the plan's total cost.
    """
    actions = {a.name: a for a in model.actions}
    names = list(model.domains)
    env = dict(model.initial)
    total = 0
    for number, step in enumerate(plan, start=1):
        name = step.action if isinstance(step, Step) else step
        action = actions.get(name)
        if action is None:
            return Verdict(False, f"step {number}: no action named {name!r}", number)
        if not evaluate(action.guard, env):
            return Verdict(
                False,
                f"step {number} ({name}): guard {to_text(action.guard)} is false",
                number,
            )
        cost = evaluate(action.cost, env)
        if isinstance(step, Step) and step.cost != cost:
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
        if isinstance(step, Step):
            reached = tuple(env[n] for n in names)
            if tuple(step.state) != reached:
                return Verdict(False, f"step {number} ({name}): claims state {step.state}, "
                               f"rules give {reached}", number)
    if not evaluate(model.goal, env):
        return Verdict(False, f"the goal {to_text(model.goal)} does not hold after the plan",
                       len(plan), total)
    return Verdict(True, "", None, total)


def violations(model: Csp, assignment: Mapping[str, int]) -> list[str]:
    """Every constraint (and domain) the assignment breaks, described for people."""
    out: list[str] = []
    for name in model.domains:
        if name not in assignment:
            out.append(f"{name} has no value")
        elif assignment[name] not in model.values(name):
            out.append(f"{name} = {assignment[name]} is outside its domain")
    if out:
        return out
    for c in model.constraints:
        if isinstance(c, AllDifferent):
            seen: dict[int, str] = {}
            for n in c.names:
                v = assignment[n]
                if v in seen:
                    out.append(f"{c.label or 'all-different'}: {seen[v]} and {n} are both {v}")
                    break
                seen[v] = n
        elif isinstance(c, Condition):
            if not evaluate(c.expr, assignment):
                out.append(f"{c.label or 'constraint'}: {to_text(c.expr)} is false")
        elif isinstance(c, Circuit):
            problem = _circuit_problem([assignment[n] for n in c.names])
            if problem:
                out.append(f"{c.label or 'circuit'}: {problem}")
        else:  # pragma: no cover - a new constraint kind must be added here
            out.append(f"unknown constraint kind {type(c).__name__}")
    return out


def _circuit_problem(successor: list[int]) -> str:
    n = len(successor)
    if any(not 0 <= s < n for s in successor):
        return "a successor is not a node"
    seen, node = set(), 0
    for _ in range(n):
        if node in seen:
            break
        seen.add(node)
        node = successor[node]
    if len(seen) != n or node != 0:
        return f"the successors form a cycle of {len(seen)} nodes, not all {n}"
    return ""


def _check_plans(model: Planning, result: Result) -> None:
    """Every listed plan replays, costs ``result.cost`` and is listed once."""
    assert result.plans is not None
    for plan in result.plans:
        verdict = replay(model, plan)
        if not verdict:
            raise EngineBug(f"engine {result.engine} listed an invalid plan: {verdict.message}")
        if result.cost is not None and verdict.cost != result.cost:
            raise EngineBug(f"engine {result.engine} listed a plan of cost {verdict.cost} "
                            f"among plans of cost {result.cost}")
    if len({tuple(s.action for s in p) for p in result.plans}) != len(result.plans):
        raise EngineBug(f"engine {result.engine} listed a plan twice")
    if result.count is not None and result.status is Status.OPTIMAL \
            and len(result.plans) > result.count:
        raise EngineBug(f"engine {result.engine} listed {len(result.plans)} plans "
                        f"but counted {result.count}")


def verify(model: Csp | Planning, result: Result) -> Result:
    """Check every answer in ``result``; mark it verified or raise :class:`EngineBug`."""
    if result.task == "solve" and result.found:
        missing = result.plan is None if isinstance(model, Planning) else result.solution is None
        if missing:
            raise EngineBug(f"engine {result.engine} claims an answer but returned none")
    if isinstance(model, Planning) and result.plan is not None:
        verdict = replay(model, result.plan)
        if not verdict:
            raise EngineBug(f"engine {result.engine} returned an invalid plan: {verdict.message}")
        if result.cost is not None and verdict.cost != result.cost:
            raise EngineBug(
                f"engine {result.engine} reported cost {result.cost}; the plan costs {verdict.cost}"
            )
    if isinstance(model, Planning) and result.plans is not None:
        _check_plans(model, result)
    if isinstance(model, Csp):
        answers = [result.solution, result.second, *(result.solutions or ())]
        for answer in answers:
            if answer is None:
                continue
            broken = violations(model, answer)
            if broken:
                raise EngineBug(
                    f"engine {result.engine} returned an invalid assignment: {broken[0]}"
                )
        if result.second is not None and dict(result.second) == dict(result.solution or {}):
            raise EngineBug(f"engine {result.engine} gave the same solution twice")
        if result.solutions is not None:
            keys = {tuple(sorted(s.items())) for s in result.solutions}
            if len(keys) != len(result.solutions):
                raise EngineBug(f"engine {result.engine} listed a solution twice")
    if isinstance(model, Planning) and result.farthest:
        for state in result.farthest:
            if len(state) != len(model.domains) or any(
                v not in d for v, d in zip(state, model.domains.values())
            ):
                raise EngineBug(f"engine {result.engine} returned a malformed state {state}")
    return result.but(verified=result.found or result.count is not None
                      or result.states is not None)
