"""Conditions decided by the domains alone: false (:func:`never`) or true (:func:`always`)
for every value of their variables within the domains, read off the expression by interval
bounds (:func:`cpsolve.language.intervals.bounds`), never by enumerating values.

Sound, not complete: ``True`` is a proof, ``False`` means "not proven" (``x != x`` holds
nowhere, but the bounds of each side do not show it).  Constant parts (``50 + 51``) are
bounded to their one value, so they count as folded.
"""

from __future__ import annotations

from ..language.expr import COMPARE, Binary, Expr, Nary, Unary
from ..language.intervals import Domain, bounds_bottom_up


def never(cond: Expr, domain: Domain) -> bool:
    """True when ``cond`` is false (0) for every value of its variables within ``domain``:
    an ``and`` with a part that never holds, an ``or`` whose parts all never hold, ``not``
    of a condition that always holds, a comparison whose sides' bounds cannot meet it
    (``v >= 101`` where ``v`` takes ``0..100``), or a number bounded to 0."""
    if isinstance(cond, Nary) and cond.op == "and":
        return any(never(a, domain) for a in cond.args)
    if isinstance(cond, Nary) and cond.op == "or":
        return all(never(a, domain) for a in cond.args)
    if isinstance(cond, Unary) and cond.op == "not":
        return always(cond.arg, domain)
    if isinstance(cond, Binary) and cond.op in COMPARE:
        return _compared(cond, domain) is False
    return _bounds(cond, domain) == (0, 0)


def always(cond: Expr, domain: Domain) -> bool:
    """True when ``cond`` is true (not 0) for every value of its variables within
    ``domain``: the dual of :func:`never`."""
    if isinstance(cond, Nary) and cond.op == "and":
        return all(always(a, domain) for a in cond.args)
    if isinstance(cond, Nary) and cond.op == "or":
        return any(always(a, domain) for a in cond.args)
    if isinstance(cond, Unary) and cond.op == "not":
        return never(cond.arg, domain)
    if isinstance(cond, Binary) and cond.op in COMPARE:
        return _compared(cond, domain) is True
    lo, hi = _bounds(cond, domain)
    return lo > 0 or hi < 0


def _compared(cond: Binary, domain: Domain) -> bool | None:
    """The value of the comparison ``cond`` when the bounds of its two sides decide it
    (the same for every value within ``domain``), else None."""
    a_lo, a_hi = _bounds(cond.left, domain)
    b_lo, b_hi = _bounds(cond.right, domain)
    below, above = a_hi < b_lo, a_lo > b_hi  # every left value below / above every right one
    one = a_lo == a_hi == b_lo == b_hi  # both sides one and the same value
    decided = {
        "==": True if one else False if below or above else None,
        "!=": False if one else True if below or above else None,
        "<": True if below else False if a_lo >= b_hi else None,
        "<=": True if a_hi <= b_lo else False if above else None,
        ">": True if above else False if a_hi <= b_lo else None,
        ">=": True if a_lo >= b_hi else False if below else None,
    }
    return decided[cond.op]



def _bounds(expr: Expr, domain: Domain) -> tuple[int, int]:
    """:func:`bounds` of ``expr``, its nodes bounded children first (:func:`bounds_bottom_up`),
    so that a long chain (a sum of 600 variables) needs no deep recursion."""
    *_, (_, found) = bounds_bottom_up(expr, domain)
    return found
