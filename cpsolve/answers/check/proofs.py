"""A proof that no plan exists, re-derived from the model's own text: an invariant
(:func:`invariant_problem`) or the parity of a permutation (:func:`parity_problem`) that
every action preserves but the start and the goal disagree on."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ...language.expr import Binary, Const, Expr, Nary, Unary, Var, conjuncts
from ...language.interpret import evaluate
from ...language.walk import variables
from ...model import Planning

INVARIANT_STATES = 1 << 20
"""Most value combinations :func:`invariant_problem` enumerates over all the actions."""


def _plain_sum(expr: Expr) -> list[str] | None:
    """The variable names of ``a + b + ...`` (variables only), else None."""
    if isinstance(expr, Var):
        return [expr.name]
    if isinstance(expr, Binary) and expr.op == "+":
        left, right = _plain_sum(expr.left), _plain_sum(expr.right)
        return None if left is None or right is None else left + right
    return None


def _at_an_end(part: Expr, name: str, domains: Mapping[str, Any]) -> int | None:
    """``name``'s value when ``part`` compares a sum of variables holding ``name`` with the
    least (or greatest) value the sum can take: every summand then sits at its least (or
    greatest) value; else None."""
    if not isinstance(part, Binary) or part.op not in ("==", "<=", ">=", "<", ">"):
        return None
    mirror = {"==": "==", "<=": ">=", ">=": "<=", "<": ">", ">": "<"}
    for left, right, op in ((part.left, part.right, part.op),
                            (part.right, part.left, mirror[part.op])):
        names = _plain_sum(left)
        if names is None or name not in names or not isinstance(right, Const) \
                or any(n not in domains for n in names):
            continue
        least = sum(domains[n].lo for n in names)
        most = sum(domains[n].hi for n in names)
        c = right.value
        if (op in ("==", "<=") and c == least) or (op == "<" and c == least + 1):
            return domains[name].lo
        if (op in ("==", ">=") and c == most) or (op == ">" and c == most - 1):
            return domains[name].hi
    return None


def _fixed_value(condition: Expr, name: str, domain: tuple[int, int],
                 domains: Mapping[str, Any] | None = None) -> int | None:
    """The value every state where ``condition`` (a goal, a guard) holds gives ``name``, read
    off a conjunct that says ``name == c`` (``c == name``; ``name`` or ``not name`` for a 0/1
    variable), or, given the model's ``domains``, that a sum of variables holding ``name``
    is at its least or greatest value; else None."""
    for part in conjuncts(condition):
        if domains is not None and (at := _at_an_end(part, name, domains)) is not None:
            return at
        if isinstance(part, Binary) and part.op == "==":
            for a, b in ((part.left, part.right), (part.right, part.left)):
                if isinstance(a, Var) and a.name == name and isinstance(b, Const):
                    return b.value
        negated = isinstance(part, Unary) and part.op == "not"
        base = part.arg if negated else part
        if isinstance(base, Var) and base.name == name and domain == (0, 1):
            return 0 if negated else 1
    return None


def invariant_problem(model: Planning, weights: Sequence[tuple[str, int]], modulus: int,
                      start: int, goal: int) -> str | None:
    """What is wrong with the claim that ``sum(w * x)`` (mod ``modulus``; 0: exactly) is
    preserved by every action and is ``start`` at the start but ``goal`` in every goal state
    (``None``: the claim holds, so no plan exists).

    Re-derived here from the model's own text: the start by evaluation; the goal from
    conjuncts ``x == c`` of the goal; for each action that writes a weighted variable,
    every combination of values of the variables its guard and those effects read is
    evaluated, and wherever the guard holds and the effects stay in their domains the
    weighted sum must change by 0 (mod ``modulus``).
    """
    w = dict(weights)
    if modulus < 0 or modulus == 1 or not w or any(n not in model.domains for n in w):
        return f"a malformed invariant (modulus {modulus}, variables {sorted(w)})"

    def reduced(value: int) -> int:
        return value % modulus if modulus else value

    at_start = reduced(sum(c * model.initial[n] for n, c in w.items()))
    if at_start != start:
        return f"the invariant is {at_start} at the start, not {start}"
    at_goal = 0
    for name, c in w.items():
        value = _fixed_value(model.goal, name, (model.domains[name].lo, model.domains[name].hi),
                             model.domains)
        if value is None:
            return f"the goal does not fix {name}, which the invariant weighs"
        at_goal += c * value
    if reduced(at_goal) != goal or goal == start:
        return f"the invariant is {reduced(at_goal)} in the goal, claimed {goal} " \
               f"(start {start})"
    budget = INVARIANT_STATES
    for action in model.actions:
        effects = [(n, e) for n, e in action.effects if n in w]
        if not effects:
            continue
        names = sorted(set().union(variables(action.guard), (n for n, _ in effects),
                                   *(variables(e) for _, e in effects)))
        budget -= math.prod(model.domains[n].size for n in names)
        if budget < 0:
            return "too many states to re-verify the invariant against every action"
        axes = [range(model.domains[n].lo, model.domains[n].hi + 1) for n in names]
        for values in itertools.product(*axes):
            env = dict(zip(names, values))
            if not evaluate(action.guard, env):
                continue
            after = [(n, evaluate(e, env)) for n, e in effects]
            if any(v not in model.domains[n] for n, v in after):
                continue
            change = sum(w[n] * (v - env[n]) for n, v in after)
            if reduced(change):
                state = ", ".join(f"{n}={v}" for n, v in env.items())
                return f"action {action.name!r} changes the invariant by {change} at {state}"
    return None


PARITY_STATES = 1 << 20
"""Most value combinations :func:`parity_problem` enumerates over all the actions."""


def parity_problem(model: Planning, cells: Sequence[str], colours: Sequence[int], blank: int,
                   start: int, goal: int) -> str | None:
    """What is wrong with the claim that the parity of the permutation the values of
    ``cells`` form (their inversions, in this order) plus ``colours[i]`` of the cell ``i``
    holding ``blank`` is preserved by every action, and is ``start`` at the start but
    ``goal`` in every goal state (``None``: the claim holds, so no plan exists).

    Re-derived here from the model's own text: the cells must hold distinct values at the
    start, one of them ``blank``; the goal must fix every cell (conjuncts ``x == c``) to a
    rearrangement of those values; each action is checked by :func:`_parity_breaker`.
    """
    where = dict(zip(cells, colours))
    if len(cells) != len(colours) or len(where) != len(cells) or \
            any(n not in model.domains for n in cells) or \
            any(c not in (0, 1) for c in colours) or {start, goal} - {0, 1}:
        return f"a malformed parity claim ({len(cells)} cells, {len(colours)} colours, " \
               f"values {start} and {goal})"
    values = [model.initial[n] for n in cells]
    if len(set(values)) != len(values) or blank not in values:
        return f"the cells do not hold distinct values, one of them {blank}, at the start"
    at_start = _arrangement_parity(values, [where[n] for n in cells], blank)
    if at_start != start:
        return f"the parity is {at_start} at the start, not {start}"
    wanted = []
    for name in cells:
        value = _fixed_value(model.goal, name, (model.domains[name].lo, model.domains[name].hi),
                             model.domains)
        if value is None:
            return f"the goal does not fix {name}, a cell of the permutation"
        wanted.append(value)
    if sorted(wanted) != sorted(values):
        return "the goal is not a rearrangement of the values the cells hold at the start"
    at_goal = _arrangement_parity(wanted, [where[n] for n in cells], blank)
    if at_goal != goal or goal == start:
        return f"the parity is {at_goal} in the goal, claimed {goal} (start {start})"
    return _parity_breaker(model, where, blank)


def _arrangement_parity(values: Sequence[int], colours: Sequence[int], blank: int) -> int:
    """The parity of the permutation of distinct ``values`` (of its inversions) plus the
    colour where ``blank`` is (0 when no value is ``blank``), modulo 2."""
    rank = {v: i for i, v in enumerate(sorted(values))}
    order = [rank[v] for v in values]
    seen, swaps = [False] * len(order), 0
    for first in range(len(order)):
        length, i = 0, first
        while not seen[i]:
            seen[i] = True
            i = order[i]
            length += 1
        swaps += max(length - 1, 0)
    where = list(values).index(blank) if blank in values else None
    return (swaps + (0 if where is None else colours[where])) % 2


def _parity_breaker(model: Planning, colour: Mapping[str, int], blank: int) -> str | None:
    """The first action that changes the claimed parity, or rearranges no values of the
    cells (``colour``: each cell's colour), described; ``None`` when none does.

    Every combination of values of the variables an action's guard and its effects on cells
    read or write is enumerated (a guard's ``x == c`` conjunct fixes ``x``); combinations
    where two cells hold one value are skipped, since the cells hold distinct values in
    every reachable state as long as each action only rearranges them, which is checked
    here on every other combination where the guard holds and the effects stay in their
    domains.
    """
    budget = PARITY_STATES
    for action in model.actions:
        effects = [(n, e) for n, e in action.effects if n in colour]
        if not effects:
            continue
        names = sorted(set().union(variables(action.guard), (n for n, _ in effects),
                                   *(variables(e) for _, e in effects)))
        axes = []
        for n in names:
            d = model.domains[n]
            fixed = _fixed_value(action.guard, n, (d.lo, d.hi))
            axes.append(range(d.lo, d.hi + 1) if fixed is None else
                        (fixed,) if fixed in d else ())  # (): the guard never holds
        budget -= math.prod(len(a) for a in axes)
        if budget < 0:
            return "too many states to re-verify the parity against every action"
        for combination in itertools.product(*axes):
            env = dict(zip(names, combination))
            held = [env[n] for n in names if n in colour]
            if len(set(held)) != len(held) or not evaluate(action.guard, env):
                continue
            after = [(n, evaluate(e, env)) for n, e in effects]
            if any(v not in model.domains[n] for n, v in after):
                continue
            problem = _rearranged(env, after, colour, blank)
            if problem:
                state = ", ".join(f"{n}={v}" for n, v in env.items())
                return f"action {action.name!r} {problem} at {state}"
    return None


def _rearranged(env: Mapping[str, int], after: Sequence[tuple[str, int]],
                colour: Mapping[str, int], blank: int) -> str:
    """What is wrong with the move from ``env`` that writes ``after`` (cells only): their
    new values must be their old ones rearranged, and the parity of that rearrangement
    must equal the change of colour where ``blank`` is ("" when all is well)."""
    before = [env[n] for n, _ in after]
    new = [v for _, v in after]
    if sorted(before) != sorted(new):
        return f"turns the values {before} into {new}, no rearrangement of them"
    places = [colour[n] for n, _ in after]
    moved, now = _arrangement_parity(before, places, blank), _arrangement_parity(new, places, blank)
    if moved != now:
        return "changes the parity"
    return ""


GOAL_VALUES = 1 << 16
"""Most value combinations of the goal's variables :func:`goal_met_nowhere` evaluates."""


def goal_met_nowhere(model: Planning) -> bool:
    """Whether no values within the domains meet ``model``'s goal, whatever the actions (so
    no plan exists), by :func:`_met_nowhere` (False: not re-derived)."""
    return _met_nowhere(model.goal, model)


def _met_nowhere(condition: Expr, model: Planning) -> bool:
    """Whether ``condition`` is false for every combination of its own variables' values
    within the domains: evaluated over all of them when there are at most
    :data:`GOAL_VALUES`; beyond, an ``and`` is met nowhere when one of its parts is, an
    ``or`` when every part is, each part evaluated over its own variables only (False when
    none of these shows it, or the condition cannot be evaluated somewhere)."""
    names = sorted(variables(condition))
    ranges = [range(model.domains[n].lo, model.domains[n].hi + 1) for n in names]
    if math.prod(len(r) for r in ranges) <= GOAL_VALUES:
        try:
            return not any(evaluate(condition, dict(zip(names, values, strict=True)))
                           for values in itertools.product(*ranges))
        except (ArithmeticError, ValueError):
            return False
    if isinstance(condition, Nary) and condition.op == "and":
        return any(_met_nowhere(part, model) for part in condition.args)
    if isinstance(condition, Nary) and condition.op == "or":
        return all(_met_nowhere(part, model) for part in condition.args)
    return False
