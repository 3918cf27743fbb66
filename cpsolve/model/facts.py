"""Facts about a :class:`~cpsolve.model.planning.Planning` model, derived once, for every engine.

Each fact is a plain function of the model's text (its guards, effects,
costs, goal and declarations), never of a solver.  Its docstring says exactly
what holds when it returns what; ``None`` (or ``False``) means "not proven",
which says nothing either way.  The facts are tested against plain BFS on
random small models (``tests/model/test_facts.py``).

* lengths — :func:`changes`, :func:`tracked`, :func:`potential_bounds`,
  :func:`fixed_length`, :func:`any_plan_is_optimal`, :func:`state_count`;
* parity — :func:`plan_parity` (a declared parity with the goal's value known);
* costs — :func:`cost_floor`, :func:`least_plan_cost`, :func:`estimate_bound`,
  :func:`goal_at_start`, :func:`steps_for_cost`.

The variables a condition fixes are in :mod:`.pins`, the facts about moves
(reversible, symmetries, disjoint layers) in :mod:`.moves`.  Values at known states
(the start, the goal) are computed by the facts' own small interpreter
(:mod:`.values`), not by :func:`cpsolve.language.interpret.evaluate`: the independent
checker uses that one, and nothing an engine relies on goes through it.  Nothing is
cached: models are mutable, and every fact is cheap.
"""

from __future__ import annotations

import math

from ..language.expr import BOUNDING, MIRRORED, Binary, Const, Expr, Var, conjuncts
from ..language.intervals import bounds
from ..language.walk import variables
from .pins import Domain, goal_pins, pin, pins, summands
from .planning import Action, Planning
from .values import value_at

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
        group = summands(c.left)
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
    return (value_at(model.parity, pinned) - value_at(model.parity, model.initial)) % 2


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
    return bool(value_at(model.goal, model.initial))


def estimate_bound(model: Planning) -> tuple[int, int]:
    """``(cost, steps)``: every plan costs at least ``cost`` and has at least ``steps`` steps.

    ``cost`` is the declared (admissible: the model's promise) estimate of the
    initial state, 0 when there is none; a plan of cost ``c`` has at least
    ``c / m`` steps when no action costs more than ``m``.
    """
    if model.estimate is None:
        return 0, 0
    cost = max(0, value_at(model.estimate, model.initial))
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
