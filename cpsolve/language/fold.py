"""Partial evaluation: an expression with some variables known, folded to a value or a rest.

The exporters ground models with this, not with :func:`cpsolve.language.interpret.evaluate`
(the checker's reference interpreter), so a grounding mistake is caught when
the checker replays the answer; the model asks it whether an effect changes anything
(:func:`keeps`).  After :func:`fold`, the result is an ``int`` (every variable it needed
was known) or an expression over unknown variables only in which no subexpression is
constant except leaves, no operation is one with its identity (``x + 0``, ``0 + x``,
``x - 0``, ``x * 1``, ``1 * x``, ``x // 1``: ``x``) and no ``if`` has two equal branches.
"""

from __future__ import annotations

from collections.abc import Mapping

from .expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var
from .walk import same

Folded = int | Expr

_CMP = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "//": lambda a, b: a // b, "%": lambda a, b: a % b}


def _expr(value: Folded) -> Expr:
    return Const(value) if isinstance(value, int) else value


def fold(expr: Expr, known: Mapping[str, int]) -> Folded:
    """``expr`` with the variables of ``known`` replaced and constants computed."""
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Var):
        return known.get(expr.name, expr)  # type: ignore[return-value]
    if isinstance(expr, Unary):
        a = fold(expr.arg, known)
        if not isinstance(a, int):
            return Unary(expr.op, a)
        return -a if expr.op == "-" else abs(a) if expr.op == "abs" else int(not a)
    if isinstance(expr, Binary):
        a, b = fold(expr.left, known), fold(expr.right, known)
        if isinstance(a, int) and isinstance(b, int):
            op = _ARITH.get(expr.op)
            return op(a, b) if op else int(_CMP[expr.op](a, b))
        kept = _identity(expr.op, a, b)
        return kept if kept is not None else Binary(expr.op, _expr(a), _expr(b))
    if isinstance(expr, Nary):
        return _fold_nary(expr, known)
    if isinstance(expr, IfThenElse):
        cond = fold(expr.cond, known)
        if isinstance(cond, int):
            return fold(expr.then if cond else expr.otherwise, known)
        then, otherwise = _expr(fold(expr.then, known)), _expr(fold(expr.otherwise, known))
        return then if same(then, otherwise) else IfThenElse(cond, then, otherwise)
    raise TypeError(f"unknown expression node {expr!r}")


def keeps(expr: Expr, name: str) -> bool:
    """True when ``expr`` folds (:func:`fold`, nothing known) to the variable ``name``
    itself: an effect ``name = expr`` (``x``, ``x + 0``, ``x * 1``, ``x if c else x``)
    changes nothing."""
    folded = fold(expr, {})
    return isinstance(folded, Var) and folded.name == name


_IDENTITY = {"+": (0, 0), "-": (None, 0), "*": (1, 1), "//": (None, 1)}
"""Per operator, the identity on its left and on its right (``None``: none there)."""


def _identity(op: str, a: Folded, b: Folded) -> Expr | None:
    """The other operand of ``a op b`` when one is ``op``'s identity on its side, else None."""
    left, right = _IDENTITY.get(op, (None, None))
    if isinstance(b, int) and b == right and not isinstance(a, int):
        return a
    if isinstance(a, int) and a == left and not isinstance(b, int):
        return b
    return None


def _fold_nary(expr: Nary, known: Mapping[str, int]) -> Folded:
    args = [fold(a, known) for a in expr.args]
    if expr.op in ("and", "or"):
        decisive = 0 if expr.op == "and" else 1
        rest: list[Expr] = []
        for a in args:
            if isinstance(a, int):
                if bool(a) == bool(decisive):
                    return decisive
            else:
                rest.append(a)
        if not rest:
            return 1 - decisive
        return rest[0] if len(rest) == 1 and _is_condition(rest[0]) else Nary(expr.op, tuple(rest))
    if all(isinstance(a, int) for a in args):
        return (min if expr.op == "min" else max)(args)  # type: ignore[type-var]
    return Nary(expr.op, tuple(_expr(a) for a in args))


def _is_condition(expr: Expr) -> bool:
    """True when ``expr`` is 0 or 1 by construction (so ``and(x)`` may become ``x``)."""
    return (isinstance(expr, Binary) and expr.op in _CMP) or \
        (isinstance(expr, Nary) and expr.op in ("and", "or")) or \
        (isinstance(expr, Unary) and expr.op == "not")
