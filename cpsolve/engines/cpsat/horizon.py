"""Facts about a planning model that bound the horizon a proof has to look at.

* :func:`state_count` — a plan never needs to visit a state twice (with costs
  that are never negative, cutting out a cycle costs nothing), so no needed
  plan has more than ``state_count - 1`` steps;
* :func:`potential_bounds` — when every action changes a sum of state
  variables by a known amount of one sign (pegs: each jump removes one peg),
  *every* plan is short, and none is shorter than the goal's sum allows;
* :func:`cost_floor` — the least cost any action can have; with a floor of at
  least 1, a plan of cost ``C`` has at most ``C`` steps;
* :func:`goal_at_start` — whether the empty plan already works;
* :func:`estimate_bound` — the declared estimate of the initial state bounds
  the cost of every plan from below, and so its number of steps when no step
  costs more than a known amount;
* :func:`plan_parity` — with a declared parity invariant whose value at the
  goal is known, every plan's length has one parity.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ortools.sat.python import cp_model

from ...expr import Binary, Const, Expr, Unary, Var, bounds, conjuncts, variables
from ...model import Action, Planning
from .compile import Compiler
from .relations import FLIPPED


def state_count(planning: Planning) -> int:
    """The number of states: the product of the domain sizes."""
    return math.prod(d.size for d in planning.domains.values())


def cost_floor(planning: Planning) -> int:
    """A lower bound on the cost of any step.

    Interval arithmetic over the domains, narrowed by what each guard says
    about single variables (``x >= 1`` makes ``x - 1`` at least 0).
    """
    floors = [bounds(a.cost, domain)[0] for a in planning.actions
              if (domain := _narrowed(a, planning)) is not None]
    return min(floors, default=0)


def _narrowed(action: Action, planning: Planning) -> Callable[[str], tuple[int, int]] | None:
    """Domains narrowed by the guard's conjuncts ``v op c`` (None: the guard is never true)."""
    narrow = {n: list(planning.domain(n)) for n in planning.domains}
    for c in conjuncts(action.guard):
        if not (isinstance(c, Binary) and c.op in ("==", "<", "<=", ">", ">=")):
            continue
        op = c.op
        if isinstance(c.right, Var) and isinstance(c.left, Const):
            c, op = Binary(FLIPPED[op], c.right, c.left), FLIPPED[op]
        if not (isinstance(c.left, Var) and isinstance(c.right, Const)):
            continue
        lo_hi, k = narrow[c.left.name], c.right.value
        if op in ("==", ">=", ">"):
            lo_hi[0] = max(lo_hi[0], k + (op == ">"))
        if op in ("==", "<=", "<"):
            lo_hi[1] = min(lo_hi[1], k - (op == "<"))
    if any(lo > hi for lo, hi in narrow.values()):
        return None
    return lambda name: (narrow[name][0], narrow[name][1])


def goal_at_start(planning: Planning) -> bool:
    """True when the goal holds in the initial state."""
    comp = Compiler(cp_model.CpModel(), planning.initial, planning.domain)
    held = comp.literal(planning.goal)
    if not isinstance(held, bool):  # pragma: no cover - every operand is a known int
        raise AssertionError("the goal did not fold to a constant on the initial state")
    return held


def estimate_bound(planning: Planning) -> tuple[int, int]:
    """``(cost, steps)``: every plan costs at least ``cost`` and has at least ``steps`` steps.

    ``cost`` is the declared (admissible) estimate of the initial state, 0 when
    there is none; a plan of cost ``c`` has at least ``c / m`` steps when no
    action costs more than ``m``.
    """
    if planning.estimate is None:
        return 0, 0
    cost = max(0, _known(planning.estimate, planning.initial, planning))
    most = max((bounds(a.cost, planning.domain)[1] for a in planning.actions), default=0)
    return cost, (-(-cost // most) if most > 0 else 0)


def plan_parity(planning: Planning) -> int | None:
    """The parity (0 or 1) of every plan's length, or ``None`` when it is not known.

    Known when the model declares an expression every action changes by an odd
    amount and the goal pins every variable it mentions.
    """
    if planning.parity is None:
        return None
    pinned = planning.goal_assignment()
    if not variables(planning.parity) <= pinned.keys():
        return None
    start = _known(planning.parity, planning.initial, planning)
    return (_known(planning.parity, pinned, planning) - start) % 2


def _known(expr: Expr, values: dict[str, int], planning: Planning) -> int:
    """The value of ``expr`` when its variables take ``values`` (engine arithmetic)."""
    value = Compiler(cp_model.CpModel(), values, planning.domain).integer(expr)
    if not isinstance(value, int):  # pragma: no cover - every operand is a known int
        raise AssertionError("an expression over known values did not fold")
    return value


def potential_bounds(planning: Planning) -> tuple[int, int] | None:
    """``(fewest, most)`` steps any plan can have, when a sum of variables moves one way.

    The sum is over the variables whose change every action writing them
    makes known: ``v := c`` when the guard pins ``v == c``, or ``v := v + c``
    (pegs: the holes, not a "last peg moved" marker).  Every action must
    change that sum by a non-zero amount, all of one sign; the goal's pinned
    values (and the domains) bound the sum at the end.  ``None`` otherwise.
    """
    changes = [_changes(a, planning) for a in planning.actions]
    tracked = [n for n in planning.domains
               if all(n in c for a, c in zip(planning.actions, changes) if n in a.writes())]
    deltas = [sum(c[n] for n in tracked if n in c) for c in changes]
    if not deltas or not (all(d < 0 for d in deltas) or all(d > 0 for d in deltas)):
        return None
    pinned = planning.goal_assignment()
    start = sum(planning.initial[n] for n in tracked)
    end_lo = sum(pinned.get(n, planning.domain(n)[0]) for n in tracked)
    end_hi = sum(pinned.get(n, planning.domain(n)[1]) for n in tracked)
    if deltas[0] < 0:  # the sum falls from ``start`` to at most end_hi, at least end_lo
        most, fall = start - end_lo, start - end_hi
        slow, fast = min(-d for d in deltas), max(-d for d in deltas)
    else:
        most, fall = end_hi - start, end_lo - start
        slow, fast = min(deltas), max(deltas)
    return max(0, -(-fall // fast)), max(-1, most // slow)


def _changes(action: Action, planning: Planning) -> dict[str, int]:
    """The known change of each variable ``action`` writes (unknown ones are left out)."""
    pinned: dict[str, int] = {}
    for c in conjuncts(action.guard):
        var, value = _var_const(c, "==")
        if var is None:  # a 0/1 variable used as a condition: ``v`` or ``not v``
            negated = isinstance(c, Unary) and c.op == "not"
            base = c.arg if negated else c  # type: ignore[attr-defined]
            if isinstance(base, Var) and planning.domain(base.name) == (0, 1):
                var, value = base.name, 0 if negated else 1
        if var is not None:
            pinned[var] = value
    out: dict[str, int] = {}
    for name, value in action.effects:
        if isinstance(value, Const) and name in pinned:
            out[name] = value.value - pinned[name]
        elif (step := _increment(name, value)) is not None:
            out[name] = step
    return out


def _var_const(expr: Expr, op: str) -> tuple[str | None, int]:
    """``(name, c)`` when ``expr`` is ``name op c`` or ``c op name``."""
    if isinstance(expr, Binary) and expr.op == op:
        if isinstance(expr.left, Var) and isinstance(expr.right, Const):
            return expr.left.name, expr.right.value
        if isinstance(expr.right, Var) and isinstance(expr.left, Const) and op in ("==", "+"):
            return expr.right.name, expr.left.value
    return None, 0


def _increment(name: str, value: Expr) -> int | None:
    """``c`` when ``value`` is ``name + c``, ``c + name`` or ``name - c``."""
    if isinstance(value, Var) and value.name == name:
        return 0
    for op, sign in (("+", 1), ("-", -1)):
        var, c = _var_const(value, op)
        if var == name:
            return sign * c
    return None
