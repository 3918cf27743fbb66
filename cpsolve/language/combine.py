"""The functions of the Python API that combine expressions: ``And``, ``Or``, ``Not``,
``Min``, ``Max``, ``If``, ``Sum`` and ``Product`` (operators build the rest, :mod:`.expr`)."""

from __future__ import annotations

from collections.abc import Iterable

from .expr import Binary, Const, Expr, ExprLike, IfThenElse, Nary, Unary, wrap


def And(*args: ExprLike) -> Expr:
    """Conjunction; ``And()`` is true."""
    items = [wrap(a) for a in _flatten(args)]
    if not items:
        return Const(1)
    return items[0] if len(items) == 1 else Nary("and", tuple(items))


def Or(*args: ExprLike) -> Expr:
    """Disjunction; ``Or()`` is false."""
    items = [wrap(a) for a in _flatten(args)]
    if not items:
        return Const(0)
    return items[0] if len(items) == 1 else Nary("or", tuple(items))


def Not(arg: ExprLike) -> Expr:
    """Negation of a condition."""
    return Unary("not", wrap(arg))


def Min(*args: ExprLike) -> Expr:
    """The least of the operands."""
    items = tuple(wrap(a) for a in _flatten(args))
    return items[0] if len(items) == 1 else Nary("min", items)


def Max(*args: ExprLike) -> Expr:
    """The greatest of the operands."""
    items = tuple(wrap(a) for a in _flatten(args))
    return items[0] if len(items) == 1 else Nary("max", items)


def If(cond: ExprLike, then: ExprLike, otherwise: ExprLike) -> Expr:
    """``then`` when ``cond`` holds, else ``otherwise``."""
    return IfThenElse(wrap(cond), wrap(then), wrap(otherwise))


def Sum(args: Iterable[ExprLike]) -> Expr:
    """The sum of the operands (0 when there are none), as a balanced tree.

    Balanced, so that long sums (a Manhattan estimate has hundreds of terms)
    stay shallow for every recursive walker.
    """
    return _balanced("+", args, 0)


def Product(args: Iterable[ExprLike]) -> Expr:
    """The product of the operands (1 when there are none), as a balanced tree."""
    return _balanced("*", args, 1)


def _balanced(op: str, args: Iterable[ExprLike], empty: int) -> Expr:
    """``a op b op ...`` as a balanced tree of :class:`Binary` (``empty`` for none)."""
    items = [wrap(a) for a in args]
    if not items:
        return Const(empty)
    while len(items) > 1:
        paired = [Binary(op, items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            paired.append(items[-1])
        items = paired
    return items[0]


def _flatten(args: Iterable) -> list:
    out: list = []
    for a in args:
        if isinstance(a, (list, tuple)):
            out.extend(_flatten(a))
        else:
            out.append(a)
    return out
