"""Facts about a :class:`~cpsolve.model.planning.Planning` model, derived once, for every engine.

Each fact is a plain function of the model's text (its guards, effects,
costs, goal and declarations), never of a solver.  Its docstring says exactly
what holds when it returns what; ``None`` (or ``False``) means "not proven",
which says nothing either way.  The facts are tested against plain BFS on
random small models (``tests/model/test_facts.py``).

* pins — :func:`pin`, :func:`pins`, :func:`goal_pins`, :func:`goal_state`;
* lengths — :func:`changes`, :func:`tracked`, :func:`potential_bounds`,
  :func:`fixed_length`, :func:`any_plan_is_optimal`, :func:`state_count`;
* parity — :func:`plan_parity` (a declared parity with the goal's value known);
* costs — :func:`cost_floor`, :func:`least_plan_cost`, :func:`estimate_bound`,
  :func:`goal_at_start`, :func:`steps_for_cost`;
* moves — :func:`reversible`, :func:`goal_symmetries`, :func:`start_symmetries`,
  :func:`disjoint_layers`.

Values at known states (the start, the goal) are computed by this module's own
small interpreter, not by :func:`cpsolve.language.expr.evaluate`: the independent
checker uses that one, and nothing an engine relies on goes through it.
Nothing is cached: models are mutable, and every fact is cheap.
"""

from __future__ import annotations

import math
import operator
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from itertools import product

from ..language.expr import (
    BOUNDING,
    MIRRORED,
    Binary,
    Const,
    Expr,
    IfThenElse,
    Nary,
    Unary,
    Var,
    bounds,
    children,
    conjuncts,
    normal_text,
    substitute,
    variables,
)
from .planning import Action, Planning

Domain = Callable[[str], tuple[int, int]]
MAX_COMBINATIONS = 1 << 17
"""Most value combinations :func:`reversible` evaluates over all actions together."""

# ---------------------------------------------------------------- pins


def pin(condition: Expr, domain: Domain) -> tuple[str, int] | None:
    """``(x, c)`` when ``condition`` holds exactly where ``x == c``, read off its form.

    The forms: ``x == c``, ``c == x``, and for a variable with domain ``0..1``
    ``x`` (``c = 1``) or ``not x`` (``c = 0``).  ``None`` for any other form.
    """
    if isinstance(condition, Binary) and condition.op == "==":
        left, right = condition.left, condition.right
        if isinstance(left, Var) and isinstance(right, Const):
            return left.name, int(right.value)
        if isinstance(right, Var) and isinstance(left, Const):
            return right.name, int(left.value)
        return None
    negated = isinstance(condition, Unary) and condition.op == "not"
    base = condition.arg if negated else condition  # type: ignore[attr-defined]
    if isinstance(base, Var) and domain(base.name) == (0, 1):
        return base.name, 0 if negated else 1
    return None


def _summands(expr: Expr) -> list[str] | None:
    """The variables of a sum of variables (``a + b + ...``, repeats allowed), else None."""
    if isinstance(expr, Var):
        return [expr.name]
    if isinstance(expr, Binary) and expr.op == "+":
        left, right = _summands(expr.left), _summands(expr.right)
        return None if left is None or right is None else left + right
    return None


def extreme(condition: Expr, domain: Domain) -> list[tuple[str, int]] | None:
    """The pins of a sum of variables compared with the least or greatest value it takes:
    ``sum(x) == 0`` over 0/1 variables holds exactly where every ``x`` is 0 (also
    ``<= lo``, ``< lo + 1``, ``== hi``, ``>= hi``, ``> hi - 1``, either side).  ``None``
    for any other form."""
    if not isinstance(condition, Binary) or condition.op not in BOUNDING:
        return None
    op, left, right = condition.op, condition.left, condition.right
    if isinstance(left, Const):
        op, left, right = MIRRORED[op], right, left
    names = _summands(left)
    if names is None or not isinstance(right, Const):
        return None
    c = int(right.value)
    lo = sum(domain(n)[0] for n in names)
    hi = sum(domain(n)[1] for n in names)
    if (op in ("==", "<=") and c == lo) or (op == "<" and c == lo + 1):
        return [(n, domain(n)[0]) for n in dict.fromkeys(names)]
    if (op in ("==", ">=") and c == hi) or (op == ">" and c == hi - 1):
        return [(n, domain(n)[1]) for n in dict.fromkeys(names)]
    return None


def conjunct_pins(condition: Expr, domain: Domain) -> list[tuple[str, int]] | None:
    """The pins one conjunct is equivalent to: one (:func:`pin`), or several
    (:func:`extreme`); ``None`` when its form pins nothing."""
    one = pin(condition, domain)
    return [one] if one is not None else extreme(condition, domain)


def pins(condition: Expr, domain: Domain) -> dict[str, int]:
    """The pins (:func:`pin`, :func:`extreme`) of the conjuncts of ``condition``, by variable.

    Every assignment that satisfies ``condition`` gives each listed variable
    its listed value.  When every conjunct is a pin and no variable is pinned
    twice, the assignments that satisfy the pins are exactly those that
    satisfy ``condition``.  (Two different pins of one variable: the condition
    never holds, and the later pin is listed.)
    """
    found = (conjunct_pins(c, domain) for c in conjuncts(condition))
    return dict(p for ps in found if ps is not None for p in ps)


def exact_pins(condition: Expr, domain: Domain) -> dict[str, int] | None:
    """The pins of ``condition`` when they say all it says: it holds exactly where each
    listed variable has its listed value.  That is, every conjunct pins
    (:func:`conjunct_pins`) and no variable is pinned to two values; ``None`` otherwise
    (a conjunct that pins nothing, pins that disagree, no conjunct at all).  Thousands of
    forbidden states written ``x == 4 and y == 0`` become rows of a table this way."""
    found: dict[str, int] = {}
    parts = conjuncts(condition)
    for part in parts:
        some = conjunct_pins(part, domain)
        if some is None:
            return None
        for name, value in some:
            if found.setdefault(name, value) != value:
                return None
    return found or None


def goal_pins(model: Planning) -> dict[str, int]:
    """The variables the goal pins, with their values (:func:`pins` of the goal)."""
    return pins(model.goal, model.domain)


def goal_state(model: Planning) -> tuple[int, ...] | None:
    """The values the goal requires, when its form says it holds at one assignment only.

    That is: every conjunct of the goal is a pin (:func:`pin`) or pins several
    variables at once (:func:`extreme`: ``sum(x) == 0`` over 0/1 variables), the pins
    agree, and every variable is pinned.  The goal then holds in the returned
    state and in no other; when a pinned value lies outside its domain, the
    tuple is no state and the goal holds nowhere (callers check the domains).
    ``None`` otherwise (the goal may still hold in one state only).
    """
    found: list[tuple[str, int]] = []
    for c in conjuncts(model.goal):  # in any order, however each is written
        ps = conjunct_pins(c, model.domain)
        if ps is None:
            return None
        found.extend(ps)
    pinned = dict(found)
    if len(pinned) != len(set(found)) or pinned.keys() != model.domains.keys():
        return None
    return model.state(pinned)


# ---------------------------------------------------------------- lengths


def _increment(name: str, value: Expr) -> int | None:
    """``c`` when ``value`` is ``name`` (0), ``name + c``, ``c + name`` or ``name - c``."""
    if isinstance(value, Var) and value.name == name:
        return 0
    if isinstance(value, Binary) and value.op in ("+", "-"):
        left, right = value.left, value.right
        if isinstance(left, Var) and left.name == name and isinstance(right, Const):
            return right.value if value.op == "+" else -right.value
        if value.op == "+" and isinstance(right, Var) and right.name == name \
                and isinstance(left, Const):
            return left.value
    return None


def changes(action: Action, model: Planning) -> dict[str, int]:
    """The constant change of each variable ``action`` writes, where its text fixes one.

    ``v := c`` with a guard pinning ``v`` to ``c0`` changes ``v`` by ``c - c0``;
    ``v := v + c`` (or ``c + v``, ``v - c``) by ``±c``.  A listed variable
    changes by exactly its listed amount whenever the action applies; the
    written variables not listed change by amounts the text does not fix.
    """
    guard = pins(action.guard, model.domain)
    out: dict[str, int] = {}
    for name, value in action.effects:
        if isinstance(value, Const) and name in guard:
            out[name] = value.value - guard[name]
        elif (step := _increment(name, value)) is not None:
            out[name] = step
    return out


def tracked(model: Planning) -> list[str]:
    """The variables every writer changes by a constant (:func:`changes`), in model order.

    So every step changes the sum of the tracked variables by a constant of
    its action (pegs: the holes, not a "last hole landed in" marker).
    """
    known = [changes(a, model) for a in model.actions]
    return [n for n in model.domains
            if all(n in c for a, c in zip(model.actions, known) if n in a.writes())]


def potential_bounds(model: Planning) -> tuple[int, int] | None:
    """``(fewest, most)``: every plan has at least ``fewest`` and at most ``most`` steps.

    Proven when every action changes the sum of the :func:`tracked`
    variables by a non-zero amount, all of one sign: the sum moves from its
    initial value towards what the goal's pins (and the domains) allow at the
    end.  ``most`` is -1 when no plan can exist; ``fewest > most`` also means
    none can.  ``None`` when the argument does not apply.
    """
    if not model.actions or not model.initial:
        return None
    names = tracked(model)
    deltas = [sum(changes(a, model).get(n, 0) for n in names) for a in model.actions]
    if not (all(d < 0 for d in deltas) or all(d > 0 for d in deltas)):
        return None
    start = sum(model.initial[n] for n in names)
    end_lo, end_hi = _end_range(model, names)
    if deltas[0] < 0:  # the sum falls from ``start`` to at most end_hi, at least end_lo
        most, fall = start - end_lo, start - end_hi
        slow, fast = min(-d for d in deltas), max(-d for d in deltas)
    else:
        most, fall = end_hi - start, end_lo - start
        slow, fast = min(deltas), max(deltas)
    return max(0, -(-fall // fast)), max(-1, most // slow)


def _end_range(model: Planning, names: list[str]) -> tuple[int, int]:
    """The least and greatest sum of ``names`` in a state where the goal holds, read off
    the goal's form: pinned variables (:func:`goal_pins`), sums of variables fixed to a
    total (``sum(hole) == 1``: a count of pegs), the domains for the rest."""
    pinned = goal_pins(model)
    tracked_names, grouped = set(names), set()
    lo = hi = 0
    for c in conjuncts(model.goal):
        if not (isinstance(c, Binary) and c.op == "==" and isinstance(c.right, Const)):
            continue
        group = _summands(c.left)
        if group is None or len(set(group)) != len(group) or not set(group) <= tracked_names \
                or set(group) & (grouped | set(pinned)):
            continue
        grouped |= set(group)
        lo, hi = lo + c.right.value, hi + c.right.value
    rest = [n for n in names if n not in grouped]
    return (lo + sum(pinned.get(n, model.domain(n)[0]) for n in rest),
            hi + sum(pinned.get(n, model.domain(n)[1]) for n in rest))


def fixed_length(model: Planning) -> int | None:
    """``L`` when every plan has exactly ``L`` steps by :func:`potential_bounds`; else None."""
    found = potential_bounds(model)
    if found is None or found[0] != found[1]:
        return None
    return found[0]


def any_plan_is_optimal(model: Planning) -> bool:
    """True when every plan has the same length and every action the same constant cost.

    Then every plan costs the same: the first plan found is an optimal one.
    """
    costs = {a.cost.value if isinstance(a.cost, Const) else None for a in model.actions}
    return len(costs) == 1 and None not in costs and fixed_length(model) is not None


def state_count(model: Planning) -> int:
    """The number of states (the product of the domain sizes); no needed plan has more
    than ``state_count - 1`` steps, since with costs >= 0 cutting out a cycle costs nothing."""
    return math.prod(d.size for d in model.domains.values())


# ---------------------------------------------------------------- parity


def plan_parity(model: Planning) -> int | None:
    """The parity (0 or 1) of every plan's number of steps, or ``None`` when not known.

    Known when the model declares a parity (an expression every action
    changes by an odd amount: the model's promise, not checked here) and the
    goal pins every variable it mentions: then a plan of ``n`` steps has
    ``n = parity(goal) - parity(start)`` modulo 2.
    """
    if model.parity is None or not model.initial:
        return None
    pinned = goal_pins(model)
    if not variables(model.parity) <= pinned.keys():
        return None
    return (_value(model.parity, pinned) - _value(model.parity, model.initial)) % 2


# ---------------------------------------------------------------- costs


def _narrowed(action: Action, model: Planning) -> Domain | None:
    """Domains narrowed by the guard's conjuncts ``v op c`` (None: the guard never holds)."""
    narrow = {n: list(model.domain(n)) for n in model.domains}
    for c in conjuncts(action.guard):
        if (p := pin(c, model.domain)) is not None:
            c = Binary("==", Var(p[0]), Const(p[1]))
        if not (isinstance(c, Binary) and c.op in BOUNDING):
            continue
        op, left, right = c.op, c.left, c.right
        if isinstance(right, Var) and isinstance(left, Const):
            op, left, right = MIRRORED[op], right, left
        if not (isinstance(left, Var) and isinstance(right, Const)):
            continue
        lo_hi, k = narrow[left.name], right.value
        if op in ("==", ">=", ">"):
            lo_hi[0] = max(lo_hi[0], k + (op == ">"))
        if op in ("==", "<=", "<"):
            lo_hi[1] = min(lo_hi[1], k - (op == "<"))
    if any(lo > hi for lo, hi in narrow.values()):
        return None
    return lambda name: (narrow[name][0], narrow[name][1])


def cost_floor(model: Planning) -> int:
    """A number no action's cost is below, in any state where its guard holds (0: no actions).

    Interval arithmetic over the domains, narrowed by what each guard says
    about single variables (``x >= 1`` makes ``x - 1`` at least 0).  With a
    floor ``f >= 1``, a plan of cost ``C`` has at most ``C // f`` steps.
    """
    floors = [bounds(a.cost, domain)[0] for a in model.actions
              if (domain := _narrowed(a, model)) is not None]
    return min(floors, default=0)


def steps_for_cost(model: Planning, cost: int) -> int:
    """A number of steps ``L``: when some plan costs at most ``cost``, one of at most ``L``
    steps does too.  For models whose costs are never below 0 (:func:`cost_floor`).

    Cutting a cycle out of a plan never raises its cost, so some such plan visits no
    state twice (:func:`state_count`).  Costs are integers: at most ``cost`` of its steps
    cost anything.  A run of steps that cost 0 uses actions whose cost can be 0, which
    change only the variables they write: its states differ only there, so the run has
    fewer steps than those variables have combinations (``R``).  Hence at most
    ``cost + (cost + 1) * R`` steps: with 0-cost walks between pushes, a few pushes
    bound the plan well below the number of states.
    """
    free = [a for a in model.actions if (domain := _narrowed(a, model)) is not None
            and bounds(a.cost, domain)[0] <= 0]
    written = set().union(*(a.writes() for a in free))
    run = math.prod(model.domains[n].size for n in written) - 1
    return min(state_count(model) - 1, max(cost, 0) + (max(cost, 0) + 1) * run)


def goal_at_start(model: Planning) -> bool:
    """True when the goal holds in the initial state (the empty plan is a plan)."""
    return bool(_value(model.goal, model.initial))


def estimate_bound(model: Planning) -> tuple[int, int]:
    """``(cost, steps)``: every plan costs at least ``cost`` and has at least ``steps`` steps.

    ``cost`` is the declared (admissible: the model's promise) estimate of the
    initial state, 0 when there is none; a plan of cost ``c`` has at least
    ``c / m`` steps when no action costs more than ``m``.
    """
    if model.estimate is None:
        return 0, 0
    cost = max(0, _value(model.estimate, model.initial))
    most = max((bounds(a.cost, model.domain)[1] for a in model.actions), default=0)
    return cost, (-(-cost // most) if most > 0 else 0)


def least_plan_cost(model: Planning) -> int:
    """A number no plan's cost is below: 0 when the goal holds at the start, else the
    larger of :func:`estimate_bound`'s cost and the :func:`cost_floor` times the fewest
    steps a plan can have (1, or more by :func:`potential_bounds`)."""
    if goal_at_start(model):
        return 0
    fewest = max(1, (potential_bounds(model) or (1, 0))[0])
    return max(0, estimate_bound(model)[0], cost_floor(model) * fewest)


# ---------------------------------------------------------------- moves


def _used(action: Action, model: Planning) -> tuple[str, ...]:
    """The variables an action reads or writes, in model order."""
    used = action.reads() | action.writes()
    return tuple(n for n in model.domains if n in used)


def _moves(action: Action, model: Planning, used: tuple[str, ...]) -> Iterator[tuple]:
    """``(before, after)`` values of ``used`` for every state where ``action`` applies."""
    fixed = pins(action.guard, model.domain)
    axes = []
    for n in used:
        lo, hi = model.domain(n)
        axes.append([fixed[n]] if n in fixed and lo <= fixed[n] <= hi
                    else [] if n in fixed else range(lo, hi + 1))
    for before in product(*axes):
        env = dict(zip(used, before))
        if not _value(action.guard, env):
            continue
        after = dict(env)
        for n, e in action.effects:
            after[n] = _value(e, env)
        if all(v in model.domains[n] for n, v in after.items()):
            yield before, tuple(after[n] for n in used)


def reversible(model: Planning) -> bool:
    """True when every move can be undone by a move: whenever an action leads from state
    ``s`` to ``t``, some action leads from ``t`` back to ``s``.

    Decided exactly on the following sufficient condition: for each set of
    used variables (read or written), the moves of the actions using exactly
    that set, on those variables, form a symmetric relation.  An action only
    looks at its used variables and leaves the others alone, so each move is
    then undone by an action of its own set (a slide by the opposite slide).
    False when the condition fails, and when the actions have more than
    :data:`MAX_COMBINATIONS` value combinations of their used variables in all.
    """
    groups: dict[tuple[str, ...], set[tuple]] = {}
    budget = MAX_COMBINATIONS
    for action in model.actions:
        used = _used(action, model)
        fixed = pins(action.guard, model.domain)
        budget -= math.prod(1 if n in fixed else model.domains[n].size for n in used)
        if budget < 0:
            return False
        groups.setdefault(used, set()).update(_moves(action, model, used))
    return all((t, s) in moves for moves in groups.values() for s, t in moves)


def _renamed(expr: Expr, mapping: Mapping[str, str]) -> str:
    return normal_text(substitute(expr, lambda v: Var(mapping[v.name])))


def _signature(action: Action, mapping: Mapping[str, str]) -> tuple:
    """What identifies an action up to the order of guard conjuncts and effects."""
    guard = tuple(sorted(_renamed(c, mapping) for c in conjuncts(action.guard)))
    effects = tuple(sorted((mapping[v], _renamed(e, mapping)) for v, e in action.effects))
    return guard, effects, _renamed(action.cost, mapping)


def goal_symmetries(model: Planning) -> list[dict[str, str]]:
    """The declared symmetries (``model.symmetries``, the identity left out) that keep the goal.

    A permutation is kept when, after renaming, the actions are the same
    multiset (same guard conjuncts, effects and cost, up to order), the
    forbidden conditions the same set, and the goal has the same set of
    conjuncts.  Then a state and its image have the same future up to the
    permutation, and one is a goal exactly when the other is: a search may
    merge them.
    """
    if not model.symmetries:
        return []
    goal = frozenset(_renamed(c, {n: n for n in model.domains}) for c in conjuncts(model.goal))
    return _keeping(model, lambda m: frozenset(_renamed(c, m)
                                               for c in conjuncts(model.goal)) == goal)


def start_symmetries(model: Planning) -> list[dict[str, str]]:
    """The declared symmetries (the identity left out) that keep the actions and the start.

    As :func:`goal_symmetries`, with the initial state in place of the goal: a
    permutation is kept when the actions (and forbidden conditions) are the
    same after renaming, every variable goes to one with the same domain, and
    the initial state is its own image.  The states reachable from the start
    are then closed under it, at the same distances: a forward analysis may
    count one state per orbit.
    """
    if not model.symmetries or not model.initial:
        return []
    start = model.initial
    return _keeping(model, lambda m: all(
        model.domains[n] == model.domains[m[n]] and start[n] == start[m[n]]
        for n in model.domains))


def _keeping(model: Planning, keeps: Callable[[Mapping[str, str]], bool]
             ) -> list[dict[str, str]]:
    """The declared symmetries, the identity left out, for which ``keeps`` holds and that
    map the forbidden conditions and the actions onto themselves (tested in that order,
    the actions last: the costliest)."""
    if not model.symmetries:
        return []
    identity = {n: n for n in model.domains}
    forbidden = frozenset(_renamed(f.expr, identity) for f in model.forbidden)
    actions = Counter(_signature(a, identity) for a in model.actions)
    return [dict(m) for m in model.symmetries
            if m != identity and keeps(m)
            and frozenset(_renamed(f.expr, m) for f in model.forbidden) == forbidden
            and Counter(_signature(a, m) for a in model.actions) == actions]


def disjoint_layers(model: Planning) -> bool:
    """True when no state is at two different distances from any state it comes from.

    Holds when every action changes the sum of the :func:`tracked` variables by
    the same non-zero constant: after ``d`` steps the sum is ``start + d * c``,
    so breadth-first layers never meet (peg solitaire: one peg fewer per jump).
    """
    if not model.actions:
        return False
    names = tracked(model)
    deltas = {sum(changes(a, model).get(n, 0) for n in names) for a in model.actions}
    return len(deltas) == 1 and 0 not in deltas


# ---------------------------------------------------------------- values
# The facts' own evaluator, on purpose: cpsolve.language.expr.evaluate is the checker's reference
# interpreter, and the checker shares no code with the facts (tests/test_layering.py).

_UNARY = {"-": operator.neg, "abs": abs, "not": operator.not_}
_BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul,
           "//": operator.floordiv, "%": operator.mod, "==": operator.eq,
           "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}
_NARY = {"and": all, "or": any, "min": min, "max": max}


def _value(expr: Expr, env: Mapping[str, int]) -> int:
    """The value of ``expr`` when its variables take the values in ``env``."""
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Var):
        return env[expr.name]
    if isinstance(expr, IfThenElse):
        chosen = expr.then if _value(expr.cond, env) else expr.otherwise
        return _value(chosen, env)
    args = [_value(c, env) for c in children(expr)]
    if isinstance(expr, Unary):
        return int(_UNARY[expr.op](args[0]))
    if isinstance(expr, Binary):
        return int(_BINARY[expr.op](*args))
    if isinstance(expr, Nary):
        return int(_NARY[expr.op](args))
    raise TypeError(f"unknown expression node {expr!r}")
