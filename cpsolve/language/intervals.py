"""Interval arithmetic: bounds on every value an expression can take."""

from __future__ import annotations

from collections.abc import Callable

from .expr import DIVIDE, Binary, Const, Expr, IfThenElse, Nary, Unary, Var, is_boolean


def bounds(expr: Expr, domain: Callable[[str], tuple[int, int]]) -> tuple[int, int]:
    """An interval that contains every value ``expr`` can take (interval arithmetic)."""
    if isinstance(expr, Const):
        return expr.value, expr.value
    if isinstance(expr, Var):
        return domain(expr.name)
    if is_boolean(expr):
        return 0, 1
    if isinstance(expr, Unary):
        lo, hi = bounds(expr.arg, domain)
        if expr.op == "-":
            return -hi, -lo
        if lo >= 0:
            return lo, hi
        if hi <= 0:
            return -hi, -lo
        return 0, max(-lo, hi)
    if isinstance(expr, Binary):
        a_lo, a_hi = bounds(expr.left, domain)
        b_lo, b_hi = bounds(expr.right, domain)
        if expr.op == "+":
            return a_lo + b_lo, a_hi + b_hi
        if expr.op == "-":
            return a_lo - b_hi, a_hi - b_lo
        if expr.op in DIVIDE:
            return _divide_bounds(expr.op, (a_lo, a_hi), (b_lo, b_hi))
        products = [a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi]
        return min(products), max(products)
    if isinstance(expr, Nary):
        ranges = [bounds(a, domain) for a in expr.args]
        if expr.op == "min":
            return min(r[0] for r in ranges), min(r[1] for r in ranges)
        return max(r[0] for r in ranges), max(r[1] for r in ranges)
    if isinstance(expr, IfThenElse):
        t_lo, t_hi = bounds(expr.then, domain)
        o_lo, o_hi = bounds(expr.otherwise, domain)
        return min(t_lo, o_lo), max(t_hi, o_hi)
    raise TypeError(f"unknown expression node {expr!r}")


def _divide_bounds(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Bounds of ``a // b`` or ``a % b`` for a positive divisor range ``b``."""
    (a_lo, a_hi), (b_lo, b_hi) = a, b
    if b_lo <= 0:  # not a valid divisor: bounds only need to be safe
        m = max(abs(a_lo), abs(a_hi), abs(b_lo), abs(b_hi))
        return -m, m
    if op == "%":
        if b_lo == b_hi and a_hi - a_lo < b_lo and a_lo % b_lo <= a_hi % b_lo:
            return a_lo % b_lo, a_hi % b_lo
        return 0, b_hi - 1
    quotients = [a_lo // b_lo, a_lo // b_hi, a_hi // b_lo, a_hi // b_hi]
    return min(quotients), max(quotients)
