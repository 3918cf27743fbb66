"""Walks over an expression tree: the variables it holds, a copy with them replaced, its
bad divisors, and structural comparison (:func:`same`, :func:`normal_text`)."""

from __future__ import annotations

from collections.abc import Callable

from .expr import DIVIDE, Binary, Const, Expr, IfThenElse, Nary, Unary, Var, children, to_text


def bad_divisors(expr: Expr) -> list[Expr]:
    """The ``//`` and ``%`` nodes of ``expr`` whose divisor is not a positive constant."""
    out: list[Expr] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, Binary) and node.op in DIVIDE and not (
                isinstance(node.right, Const) and node.right.value > 0):
            out.append(node)
        stack.extend(children(node))
    return out


def if_conditions(expr: Expr) -> list[Expr]:
    """The condition of every ``if`` in ``expr`` (``If(c, a, b)``, a file's ``a if c else b``
    and ``ite(c, a, b)``: ``c``), outer ones first."""
    out: list[Expr] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, IfThenElse):
            out.append(node.cond)
        stack.extend(reversed(children(node)))
    return out


def variables(expr: Expr) -> set[str]:
    """Names of the variables that occur in ``expr``."""
    out: set[str] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, Var):
            out.add(node.name)
        stack.extend(children(node))
    return out


def substitute(expr: Expr, fn: Callable[[Var], Expr]) -> Expr:
    """A copy of ``expr`` with every variable ``v`` replaced by ``fn(v)``."""
    if isinstance(expr, Var):
        return fn(expr)
    if isinstance(expr, Const):
        return expr
    if isinstance(expr, Unary):
        return Unary(expr.op, substitute(expr.arg, fn))
    if isinstance(expr, Binary):
        return Binary(expr.op, substitute(expr.left, fn), substitute(expr.right, fn))
    if isinstance(expr, Nary):
        return Nary(expr.op, tuple(substitute(a, fn) for a in expr.args))
    if isinstance(expr, IfThenElse):
        return IfThenElse(*(substitute(c, fn) for c in children(expr)))
    raise TypeError(f"unknown expression node {expr!r}")


def same(a: Expr, b: Expr) -> bool:
    """Structural equality of two trees."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Const):
        return a.value == b.value  # type: ignore[attr-defined]
    if isinstance(a, Var):
        return a.name == b.name  # type: ignore[attr-defined]
    if getattr(a, "op", None) != getattr(b, "op", None):
        return False
    ca, cb = children(a), children(b)
    return len(ca) == len(cb) and all(same(x, y) for x, y in zip(ca, cb))


COMMUTATIVE = ("+", "*", "and", "or", "min", "max")
"""Operators whose operands :func:`normal_text` sorts (after flattening nested ones)."""


def normal_text(expr: Expr) -> str:
    """A text equal for trees that differ only in the order of commutative operands
    (``b + a`` and ``a + b``; ``y == x`` and ``x == y``; the terms of ``and``, ``min``...).

    Equal texts mean equal expressions; the converse need not hold.  Used to
    compare an expression with its image under a renaming of variables.
    """
    if isinstance(expr, (Const, Var)):
        return to_text(expr)
    op = getattr(expr, "op", type(expr).__name__)
    if op in ("==", "!="):
        return f"({op} {' '.join(sorted(normal_text(c) for c in children(expr)))})"
    if op in COMMUTATIVE:
        parts = [p for c in children(expr) for p in _operands(c, op)]
        return f"({op} {' '.join(sorted(normal_text(p) for p in parts))})"
    return f"({op} {' '.join(normal_text(c) for c in children(expr))})"


def _operands(expr: Expr, op: str) -> list[Expr]:
    """``expr`` itself, or the operands of a chain of ``op`` it heads (flattened)."""
    if (isinstance(expr, Binary) and expr.op == op and op in ("+", "*")) or \
            (isinstance(expr, Nary) and expr.op == op):
        return [p for c in children(expr) for p in _operands(c, op)]
    return [expr]
