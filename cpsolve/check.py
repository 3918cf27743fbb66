"""The independent checker: every answer passes here before anyone sees it.

It shares no code with the engines: expressions are evaluated by the
reference interpreter :func:`cpsolve.expr.evaluate`, which no engine solves
with, and each constraint kind is checked by its plain definition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .expr import evaluate, to_text
from .model import AllDifferent, Circuit, Condition, Csp, Planning


class EngineBug(RuntimeError):
    """An engine returned an answer that the independent checker rejected."""


@dataclass(frozen=True)
class Verdict:
    """Outcome of a check: ``ok``, and otherwise what is wrong and where."""

    ok: bool
    message: str = ""
    step: int | None = None
    cost: int = 0

    def __bool__(self) -> bool:
        return self.ok


def replay(model: Planning, plan: Sequence[Any]) -> Verdict:
    """Replay ``plan`` from the initial state under the model's rules.

    A step is an action name or a step object (``action``, ``state``, ``cost``).
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
        name = step if isinstance(step, str) else step.action
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
        if not isinstance(step, str):
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


def in_domains(model: Planning, state: Sequence[int]) -> bool:
    """True when ``state`` gives every state variable a value in its domain."""
    return len(state) == len(model.domains) and all(
        v in d for v, d in zip(state, model.domains.values()))


def verify(model: Csp | Planning, result: Any) -> Any:
    """Check the answer a result carries; mark it verified or raise :class:`EngineBug`.

    The answer checks itself with this module's functions (``answer.problem``);
    ``verified`` is then whether the checker re-checked all of it
    (``answer.checkable``: a plan replayed, an assignment checked, every listed
    solution checked — not a bare count).  A result without an answer (a proof
    of infeasibility, a limit hit) has nothing to verify and keeps ``None``.
    """
    answer = result.answer
    if answer is None:
        if result.found:
            raise EngineBug(f"engine {result.engine} claims an answer but returned none")
        return result
    problem = answer.problem(model)
    if problem:
        raise EngineBug(f"engine {result.engine} returned {problem}")
    return result.but(verified=answer.checkable)
