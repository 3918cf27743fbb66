"""Interval arithmetic: bounds on every value an expression can take."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .expr import (
    DIVIDE,
    MIRRORED,
    Binary,
    Const,
    Expr,
    IfThenElse,
    Nary,
    Unary,
    Var,
    children,
    is_boolean,
)


def bounds(expr: Expr, domain: Callable[[str], tuple[int, int]],
           memo: dict[int, tuple[int, int]] | None = None) -> tuple[int, int]:
    """An interval that contains every value ``expr`` can take (interval arithmetic).

    ``memo`` (a dict the caller keeps while ``expr`` lives): each node's bounds by its
    ``id``, filled and read, so that the bounds of every node of a tree cost one pass
    (:func:`cpsolve.model.variables._check_magnitude`)."""
    if memo is None:
        return _bounds(expr, domain, None)
    known = memo.get(id(expr))
    if known is None:
        known = memo[id(expr)] = _bounds(expr, domain, memo)
    return known


def _bounds(expr: Expr, domain: Callable[[str], tuple[int, int]],
            memo: dict[int, tuple[int, int]] | None) -> tuple[int, int]:
    if isinstance(expr, Const):
        return expr.value, expr.value
    if isinstance(expr, Var):
        return domain(expr.name)
    if is_boolean(expr):
        return 0, 1
    if isinstance(expr, Unary):
        lo, hi = bounds(expr.arg, domain, memo)
        if expr.op == "-":
            return -hi, -lo
        if lo >= 0:
            return lo, hi
        if hi <= 0:
            return -hi, -lo
        return 0, max(-lo, hi)
    if isinstance(expr, Binary):
        a_lo, a_hi = bounds(expr.left, domain, memo)
        b_lo, b_hi = bounds(expr.right, domain, memo)
        if expr.op == "+":
            return a_lo + b_lo, a_hi + b_hi
        if expr.op == "-":
            return a_lo - b_hi, a_hi - b_lo
        if expr.op in DIVIDE:
            return _divide_bounds(expr.op, (a_lo, a_hi), (b_lo, b_hi))
        products = [a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi]
        return min(products), max(products)
    if isinstance(expr, Nary):
        ranges = [bounds(a, domain, memo) for a in expr.args]
        if expr.op == "min":
            return min(r[0] for r in ranges), min(r[1] for r in ranges)
        return max(r[0] for r in ranges), max(r[1] for r in ranges)
    if isinstance(expr, IfThenElse):
        ranges = [bounds(branch, within, memo if within is domain else None)  # the memo is
                  for branch, holds in ((expr.then, True), (expr.otherwise, False))  # domain's
                  for within in narrowed(expr.cond, holds, domain)]
        if not ranges:  # no value of the variables reaches either branch
            ranges = [bounds(expr.then, domain, memo), bounds(expr.otherwise, domain, memo)]
        return min(r[0] for r in ranges), max(r[1] for r in ranges)
    raise TypeError(f"unknown expression node {expr!r}")


Domain = Callable[[str], tuple[int, int]]

NEGATION = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def narrowed(cond: Expr, holds: bool, domain: Domain) -> list[Domain]:
    """``domain`` where ``cond`` is ``holds`` (true or false), as alternatives whose union
    holds every such value: a comparison of a variable with a constant narrows that
    variable (``y > 0``: ``y`` from 1); ``not`` flips; parts that must all hold narrow one
    after the other, parts of which one must hold are each an alternative; anything else
    leaves ``domain`` as it is.  ``[]`` when no value is left (the branch is never taken).
    So ``y if y > 0 or y == -5 else -y`` is bounded below by 0."""
    if isinstance(cond, Unary) and cond.op == "not":
        return narrowed(cond.arg, not holds, domain)
    if isinstance(cond, Nary) and cond.op in ("and", "or"):
        if (cond.op == "and") == holds:  # every part (an "and" true, an "or" false)
            ways = [domain]
            for part in cond.args:
                ways = [d for way in ways for d in narrowed(part, holds, way)]
        else:  # one part at least
            ways = [d for part in cond.args for d in narrowed(part, holds, domain)]
        return ways if len(ways) <= WAYS else [domain]
    return _compared(cond, holds, domain)


WAYS = 16
"""Most alternatives :func:`narrowed` keeps (more: no narrowing, which is still sound)."""


def _compared(cond: Expr, holds: bool, domain: Domain) -> list[Domain]:
    """:func:`narrowed` for one comparison of a variable with a constant (or anything
    else: ``[domain]``)."""
    if not (isinstance(cond, Binary) and cond.op in NEGATION):
        return [domain]
    op = cond.op if holds else NEGATION[cond.op]
    if isinstance(cond.right, Var) and isinstance(cond.left, Const):
        op, var, value = MIRRORED[op], cond.right.name, cond.left.value
    elif isinstance(cond.left, Var) and isinstance(cond.right, Const):
        var, value = cond.left.name, cond.right.value
    else:
        return [domain]
    lo, hi = _within(domain(var), op, value)
    if lo > hi:
        return []
    return [lambda name: (lo, hi) if name == var else domain(name)]


def _within(span: tuple[int, int], op: str, value: int) -> tuple[int, int]:
    """The values of ``span`` that are ``op value``, as an interval (``!=`` cuts an end)."""
    lo, hi = span
    if op == "==":
        return max(lo, value), min(hi, value)
    if op == "!=":
        return (lo + (lo == value), hi - (hi == value)) if lo != hi or lo != value else (1, 0)
    if op in ("<", "<="):
        return lo, min(hi, value - (op == "<"))
    return max(lo, value + (op == ">")), hi


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


def bounds_bottom_up(expr: Expr, domain: Callable[[str], tuple[int, int]]
                     ) -> Iterator[tuple[Expr, tuple[int, int]]]:
    """Every node of ``expr`` with its :func:`bounds`, each after its children (``expr``
    itself last): one pass, never a deep recursion (a sum of 600 variables)."""
    order, stack = [], [expr]
    while stack:  # every node, each before its children
        node = stack.pop()
        order.append(node)
        stack.extend(children(node))
    memo: dict[int, tuple[int, int]] = {}
    for node in reversed(order):
        yield node, bounds(node, domain, memo)
