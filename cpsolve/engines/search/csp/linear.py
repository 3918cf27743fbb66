"""Linear conditions for :mod:`.backtrack`: ``sum(a_i * x_i) + c  op  sum(b_j * y_j) + d``.

A condition that is linear in its variables (integer coefficients; ``op`` one of ``==``,
``<=``, ``<``, ``>=``, ``>``) is read as ``lo <= sum(a_i * x_i) <= hi`` and propagated
on bounds: each term ``a_i * x_i`` lies between the least and the greatest value its
domain allows, so the sum of the others leaves it a window, and the values of ``x_i``
outside the window leave its domain.  Repeated until nothing changes; a sum that cannot
reach ``lo`` or must pass ``hi`` fails at once.  A cryptarithm (SEND + MORE = MONEY, one
equation over eight letters) is then decided after a few dozen nodes instead of a
sweep over every assignment of its letters.

Propagation only removes values that no solution can take; the condition is still
checked as written once its variables are assigned (:mod:`.backtrack`).
"""

from __future__ import annotations

from ....language.expr import BOUNDING, Binary, Const, Expr, Unary, Var

Linear = tuple[tuple[int, ...], tuple[int, ...], int, int]
"""The variables (indices) and coefficients of a linear sum, and its bounds ``lo``, ``hi``."""

NONE = 1 << 80
"""A bound that no sum of this module's reaches: ``lo`` of ``<=``, ``hi`` of ``>=``."""

def linear_of(expr: Expr, index: dict[str, int]) -> Linear | None:
    """``expr`` as a :data:`Linear` (a comparison of two linear sides, at least two
    variables with a coefficient left), or None when it is not one."""
    if not isinstance(expr, Binary) or expr.op not in BOUNDING:
        return None
    coefs: dict[int, int] = {}
    left = _terms(expr.left, index, 1, coefs)
    right = _terms(expr.right, index, -1, coefs)
    if left is None or right is None:
        return None
    coefs = {x: a for x, a in coefs.items() if a}
    if len(coefs) < 2:
        return None
    k = -(left + right)  # sum(coefs) op k
    lo, hi = {"==": (k, k), "<=": (-NONE, k), "<": (-NONE, k - 1),
              ">=": (k, NONE), ">": (k + 1, NONE)}[expr.op]
    xs = tuple(sorted(coefs))
    return xs, tuple(coefs[x] for x in xs), lo, hi


def _terms(expr: Expr, index: dict[str, int], coef: int, out: dict[int, int]) -> int | None:
    """Add ``coef * expr``'s variable terms to ``out``; its constant part, or None when
    ``expr`` is not linear."""
    if isinstance(expr, Const):
        return coef * expr.value
    if isinstance(expr, Var):
        x = index[expr.name]
        out[x] = out.get(x, 0) + coef
        return 0
    if isinstance(expr, Unary) and expr.op == "-":
        return _terms(expr.arg, index, -coef, out)
    if not isinstance(expr, Binary):
        return None
    if expr.op in ("+", "-"):
        left = _terms(expr.left, index, coef, out)
        right = _terms(expr.right, index, coef if expr.op == "+" else -coef, out)
        return None if left is None or right is None else left + right
    if expr.op == "*":
        if isinstance(expr.left, Const):
            return _terms(expr.right, index, coef * expr.left.value, out)
        if isinstance(expr.right, Const):
            return _terms(expr.left, index, coef * expr.right.value, out)
    return None


def narrow(lin: Linear, doms: list[int], vals: list, queue: list, base: int) -> bool:
    """Narrow the domains of ``lin``'s variables to what its bounds allow, until nothing
    changes; a domain left with one value is queued (``(x, v)``) to be assigned.  False
    when the bounds cannot hold."""
    xs, coefs, lo, hi = lin
    while True:
        low, high = _term_bounds(xs, coefs, doms, base)
        least, most = sum(low), sum(high)
        if least > hi or most < lo:
            return False
        changed = False
        for i, x in enumerate(xs):
            if vals[x] is not None:
                continue
            top, bottom = hi - (least - low[i]), lo - (most - high[i])  # a*x in [bottom, top]
            if bottom <= low[i] and top >= high[i]:
                continue
            a = coefs[i]
            first, last = (-(-bottom // a), top // a) if a > 0 else (-(-top // a), bottom // a)
            d = doms[x]
            kept = d & _window(first - base, last - base, d.bit_length())
            if kept == d:
                continue
            if not kept:
                return False
            doms[x] = kept
            changed = True
            if not kept & (kept - 1):
                queue.append((x, kept.bit_length() - 1 + base))
        if not changed:
            return True


def _term_bounds(xs: tuple[int, ...], coefs: tuple[int, ...], doms: list[int],
                 base: int) -> tuple[list[int], list[int]]:
    """The least and greatest value of each term ``a * x`` over ``x``'s domain."""
    low, high = [], []
    for x, a in zip(xs, coefs):
        d = doms[x]
        first = (d & -d).bit_length() - 1 + base
        last = d.bit_length() - 1 + base
        low.append(a * first if a > 0 else a * last)
        high.append(a * last if a > 0 else a * first)
    return low, high


def _window(first: int, last: int, width: int) -> int:
    """The bit mask of positions ``first`` to ``last`` (clipped to ``0 .. width - 1``)."""
    first, last = max(first, 0), min(last, width - 1)
    if first > last:
        return 0
    return ((1 << (last + 1)) - 1) ^ ((1 << first) - 1)


def settle_linear(linears: list[Linear], doms: list[int], vals: list, assign, base: int) -> bool:
    """Propagate every linear condition once at the root, assigning the domains left with
    one value (``assign(doms, vals, x, v)``); False on a contradiction."""
    for lin in linears:
        queue: list[tuple[int, int]] = []
        if not narrow(lin, doms, vals, queue, base):
            return False
        for x, v in queue:
            if vals[x] is None and not assign(doms, vals, x, v):
                return False
    return True
