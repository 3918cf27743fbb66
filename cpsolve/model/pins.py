"""Pins: the variables a condition fixes to one value, read off its form.

A pin is a conjunct that holds at exactly one value of one variable (``x == 3``,
a 0/1 variable alone or negated) or at one value of several (``sum(x) == 0`` over
0/1 variables: :func:`extreme`).  The goal's pins give the goal state when they fix
every variable (:func:`goal_state`); an action's guard's pins narrow the states it
applies in.  Read from the expression's form only, never by solving: ``None`` (or
an empty dict) means "no pin proven".
"""

from __future__ import annotations

from collections.abc import Callable

from ..language.expr import BOUNDING, MIRRORED, Binary, Const, Expr, Unary, Var, conjuncts, readable
from ..language.walk import variables
from .never import never
from .planning import Planning

Domain = Callable[[str], tuple[int, int]]
"""A variable's bounds by name (:meth:`Planning.domain`)."""


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


def summands(expr: Expr) -> list[str] | None:
    """The variables of a sum of variables (``a + b + ...``, repeats allowed), else None."""
    if isinstance(expr, Var):
        return [expr.name]
    if isinstance(expr, Binary) and expr.op == "+":
        left, right = summands(expr.left), summands(expr.right)
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
    names = summands(left)
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


def goal_beyond_domains(model: Planning) -> str | None:
    """Why the goal holds in no state: a conjunct that no values within the domains meet
    (:func:`~cpsolve.model.never.never`: ``x == 9`` or ``x >= 7`` where ``x`` takes
    ``0..6``, ``v[0] == 50 + 51 or v[1] == 101`` where both take ``0..100``), or two
    conjuncts that pin one variable to two values (``x == 3 and x == 4``, :func:`pins`).
    Every state keeps each variable in its domain (an action that would leave it does not
    apply), so no plan exists, and no state needs to be explored to know it.  The reason
    in the model's words (the conjunct as written, and the domains of its variables), or
    None when neither shows (the goal may still hold nowhere)."""
    first: dict[str, tuple[Expr, int]] = {}  # each pinned variable's first pin
    for part in conjuncts(model.goal):
        if never(part, model.domain):
            return f"no plan: the goal asks {readable(part)}, but {_domains(part, model)}"
        for name, value in conjunct_pins(part, model.domain) or ():
            earlier, pinned = first.setdefault(name, (part, value))
            if pinned != value:
                return (f"no plan: the goal asks both {readable(earlier)} and "
                        f"{readable(part)}, which no value of {name} satisfies")
    return None


def _domains(part: Expr, model: Planning) -> str:
    """Why ``part`` fails, in words: the domains of its variables."""
    names = sorted(variables(part), key=list(model.domains).index)
    spans = [(n, *model.domain(n)) for n in names]
    if len(spans) == 1:
        name, lo, hi = spans[0]
        return f"{name} takes only the values {lo}..{hi} (its domain)"
    if not spans:
        return "it holds for no values"
    listed = ", ".join(f"{n} {lo}..{hi}" for n, lo, hi in spans)
    return f"it holds for no values within the domains ({listed})"
