"""The independent checker: every answer passes here before anyone sees it.

It shares no code with the engines: expressions are evaluated by the
reference interpreter :func:`cpsolve.language.interpret.evaluate`, which no engine solves
with, and each constraint kind is checked by its plain definition.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..language.expr import Binary, Const, Expr, Nary, Unary, Var, conjuncts, readable
from ..language.interpret import evaluate
from ..language.walk import variables
from ..model import AllDifferent, Circuit, Condition, Csp, Planning
from .words import plural


class EngineBug(RuntimeError):
    """An engine returned an answer that the independent checker rejected."""


@dataclass(frozen=True)
class Verdict:
    """Outcome of a check: ``ok``, and otherwise what is wrong and where."""

    ok: bool
    message: str = ""
    step: int | None = None
    cost: int = 0
    reached: tuple[int, ...] | None = None
    """The state a plan ends in when every step is legal but the goal does not hold."""

    def __bool__(self) -> bool:
        return self.ok


def _plain_value(name: str, value: int) -> str:
    return str(value)


@dataclass(frozen=True)
class Words:
    """How messages name a model's variables, its values and its conditions: a puzzle's
    words (a grid's ``r3c3`` and symbol ``C``); by default as the model writes them."""

    variable: Callable[[str], str] = str
    value: Callable[[str, int], str] = _plain_value
    """The text of a value of the named variable (a symbol, a label)."""
    condition: Callable[[Expr], str] = readable


PLAIN = Words()


def unmet(condition: Expr, env: Mapping[str, int]) -> Expr:
    """The conjuncts of ``condition`` that are false in ``env`` (for a message saying what
    a guard needs); ``condition`` itself when it is no conjunction or all of it fails."""
    parts = conjuncts(condition)
    false = [p for p in parts if not evaluate(p, env)]
    if not false or len(false) == len(parts):
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
    illegal step (1-based) and carries the plan's total cost.
    """
    actions = {a.name: a for a in model.actions}
    names = list(model.domains)
    env = dict(model.initial)
    total = 0
    bad = _forbidden(model, env)
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
        bad = _forbidden(model, env)
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
                       len(plan), total, tuple(env[n] for n in names))
    return Verdict(True, "", None, total)


def _forbidden(model: Planning, env: Mapping[str, int]) -> str:
    """The label of the first forbidden condition ``env`` satisfies ("" if none)."""
    for item in model.forbidden:
        if evaluate(item.expr, env):
            return item.label
    return ""


def objective_value(model: Csp, assignment: Mapping[str, int]) -> int | None:
    """The model's objective re-evaluated at ``assignment`` (``None``: no objective)."""
    if model.objective is None:
        return None
    return evaluate(model.objective.expr, assignment)


def _false(label: str, text: str, written: str) -> str:
    """A broken condition: its ``text``, after the constraint it is part of when that says
    more (the label of a whole ``all(...)``; not the same condition, ``written`` as the
    model writes it, again)."""
    if not label.strip() or "".join(label.split()) == "".join(written.split()):
        return f"{text} is false"
    return f"{label}: {text} is false"


def violations(model: Csp, assignment: Mapping[str, int], words: Words = PLAIN) -> list[str]:
    """Every constraint (and domain) the assignment breaks, described for people in
    ``words`` (a puzzle's names of its variables, values and conditions)."""
    out: list[str] = []
    for name in model.domains:
        if name not in assignment:
            out.append(f"{words.variable(name)} has no value")
        elif assignment[name] not in model.values(name):
            out.append(f"{words.variable(name)} = {assignment[name]} is outside its domain")
    if out:
        return out
    for c in model.constraints:
        if isinstance(c, AllDifferent):
            seen: dict[int, str] = {}
            for n in c.names:
                v = assignment[n]
                if v in seen:
                    out.append(f"{c.label or 'all-different'}: {words.variable(seen[v])} and "
                               f"{words.variable(n)} are both {words.value(n, v)}")
                    break
                seen[v] = n
        elif isinstance(c, Condition):
            if not evaluate(c.expr, assignment):
                out.append(_false(c.label, words.condition(c.expr), readable(c.expr)))
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
        return f"the successors form a cycle of {plural(len(seen), 'node')}, not all {n:,}"
    return ""


def in_domains(model: Planning, state: Sequence[int]) -> bool:
    """True when ``state`` gives every state variable a value in its domain."""
    return len(state) == len(model.domains) and all(
        v in d for v, d in zip(state, model.domains.values()))


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


def verify(model: Csp | Planning, result: Any,
           passed: Callable[[Mapping[str, int]], bool] | None = None) -> Any:
    """Check the answer a result carries; mark it verified or raise :class:`EngineBug`.

    ``passed`` (a count's listed solutions): tells those this checker already passed as
    the engine streamed them; they are not checked again (their check was done).

    The answer checks itself with this module's functions (``answer.problem``);
    ``verified`` is then whether the checker re-checked all of it
    (``answer.checkable``: a plan replayed, an assignment checked, every listed
    solution checked — not a bare count, nor a count of 0).  A result without an
    answer (a proof of infeasibility, a limit hit) has nothing to verify and keeps ``None``,
    except a proof by an invariant (``result.invariant``) or by a permutation parity
    (``result.parity``): that is re-verified here (:func:`invariant_problem`,
    :func:`parity_problem`) and then ``verified``, as is a count of 0 it proves.
    """
    problem = _proof_problem(model, result)
    if problem:
        raise EngineBug(f"engine {result.engine} claims {problem}")
    answer = result.answer
    proven = getattr(result, "invariant", None) is not None or \
        getattr(result, "parity", None) is not None
    if answer is None:
        if result.found:
            raise EngineBug(f"engine {result.engine} claims an answer but returned none")
        return result.but(verified=True) if proven else result
    problem = answer.problem(model, passed)
    if problem:
        raise EngineBug(f"engine {result.engine} returned {problem}")
    return result.but(verified=answer.checkable or (proven and result.none_exists))


def _proof_problem(model: Csp | Planning, result: Any) -> str | None:
    """What is wrong with the invariant or the parity a result proves its answer by, as
    "an invariant proof, but ..." (``None``: nothing, or no such proof)."""
    invariant = getattr(result, "invariant", None)
    if invariant is not None:
        problem = invariant_problem(model, invariant.weights, invariant.modulus,
                                    invariant.start, invariant.goal)
        if problem:
            return f"an invariant proof, but {problem}"
    parity = getattr(result, "parity", None)
    if parity is not None:
        if not isinstance(model, Planning):
            return "a parity proof for a model that is no planning model"
        problem = parity_problem(model, parity.cells, parity.colours, parity.blank,
                                 parity.start, parity.goal)
        if problem:
            return f"a parity proof, but {problem}"
    return None
