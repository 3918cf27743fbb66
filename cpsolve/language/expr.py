"""The expression tree shared by model files, the Python API and every engine, and its text.

An expression is an immutable tree of :class:`Expr` nodes over integer state or
decision variables.  Booleans are integers 0/1, so ``(a == 4) + (b == 4)`` is
fine.  Trees are built with Python operators (``a + 1``, ``a == b``, ``a & b``,
``~a``) and the functions of :mod:`cpsolve.language.combine` (``And``, ``Sum``...), or
parsed from text by :mod:`cpsolve.language.parse`; each engine compiles the same tree its
own way.  A tree reads as model-file text (:func:`to_text`, its ``repr``) or, for people,
as :func:`readable`: the text lives here because every node's ``repr`` is its text.

:func:`cpsolve.language.interpret.evaluate` is the reference interpreter; walks over a
tree are in :mod:`cpsolve.language.walk`, interval bounds in
:mod:`cpsolve.language.intervals`.

Note: ``==`` on expressions builds a comparison, so expressions hash by
identity and must not be used in ``x in list`` tests.  Use
:func:`cpsolve.language.walk.same` for structural equality.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

from . import chains

ExprLike = Union["Expr", int, bool]

ARITH = ("+", "-", "*", "//", "%")
DIVIDE = ("//", "%")
"""Floor division and remainder (Python's meaning), by a positive constant only."""
COMPARE = ("==", "!=", "<", "<=", ">", ">=")
MIRRORED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
"""``a op b`` is ``b MIRRORED[op] a``."""
BOUNDING = ("==", "<", "<=", ">", ">=")
"""The comparisons that bound one side by the other: all but ``!=``."""
NARY = ("and", "or", "min", "max")


class Expr:
    """Base class of expression nodes: operators build bigger trees."""

    __slots__ = ()

    def __add__(self, other: ExprLike) -> Expr:
        return Binary("+", self, wrap(other))

    def __radd__(self, other: ExprLike) -> Expr:
        return Binary("+", wrap(other), self)

    def __sub__(self, other: ExprLike) -> Expr:
        return Binary("-", self, wrap(other))

    def __rsub__(self, other: ExprLike) -> Expr:
        return Binary("-", wrap(other), self)

    def __mul__(self, other: ExprLike) -> Expr:
        return Binary("*", self, wrap(other))

    def __rmul__(self, other: ExprLike) -> Expr:
        return Binary("*", wrap(other), self)

    def __floordiv__(self, other: ExprLike) -> Expr:
        return Binary("//", self, divisor(other))

    def __mod__(self, other: ExprLike) -> Expr:
        return Binary("%", self, divisor(other))

    def __neg__(self) -> Expr:
        return Unary("-", self)

    def __abs__(self) -> Expr:
        return Unary("abs", self)

    def __eq__(self, other: ExprLike) -> Expr:  # type: ignore[override]
        return _chained(Binary("==", self, wrap(other)))

    def __ne__(self, other: ExprLike) -> Expr:  # type: ignore[override]
        return _chained(Binary("!=", self, wrap(other)))

    def __lt__(self, other: ExprLike) -> Expr:
        return _chained(Binary("<", self, wrap(other)))

    def __le__(self, other: ExprLike) -> Expr:
        return _chained(Binary("<=", self, wrap(other)))

    def __gt__(self, other: ExprLike) -> Expr:
        return _chained(Binary(">", self, wrap(other)))

    def __ge__(self, other: ExprLike) -> Expr:
        return _chained(Binary(">=", self, wrap(other)))

    def __and__(self, other: ExprLike) -> Expr:
        return Nary("and", (self, wrap(other)))

    def __rand__(self, other: ExprLike) -> Expr:
        return Nary("and", (wrap(other), self))

    def __or__(self, other: ExprLike) -> Expr:
        return Nary("or", (self, wrap(other)))

    def __ror__(self, other: ExprLike) -> Expr:
        return Nary("or", (wrap(other), self))

    def __invert__(self) -> Expr:
        return Unary("not", self)

    def __bool__(self) -> bool:
        if is_boolean(self) and chains.in_chain(sys._getframe(1), self):
            return True  # the next comparison of the chain takes this one in (see _chained)
        raise TypeError(
            "an expression has no truth value; use & | ~ instead of and/or/not, "
            "cpsolve.Min/Max/If instead of Python's min/max/if, "
            "and cpsolve.language.walk.same() to compare trees"
        )

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return to_text(self)


@dataclass(frozen=True, eq=False, repr=False)
class Const(Expr):
    """An integer constant (booleans are 0 and 1)."""

    value: int


@dataclass(frozen=True, eq=False, repr=False)
class Var(Expr):
    """A reference to a model variable by name."""

    name: str


@dataclass(frozen=True, eq=False, repr=False)
class Unary(Expr):
    """``-x``, ``abs(x)`` or ``not x``."""

    op: str
    arg: Expr


@dataclass(frozen=True, eq=False, repr=False)
class Binary(Expr):
    """Arithmetic (``+ - * // %``) or a comparison (``== != < <= > >=``).

    ``a // c`` and ``a % c`` have Python's meaning (floor division, a
    remainder in ``0..c-1``) and take a positive constant ``c`` only.
    """

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, eq=False, repr=False)
class Nary(Expr):
    """``and``, ``or``, ``min`` or ``max`` of two or more operands."""

    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, repr=False)
class IfThenElse(Expr):
    """``then if cond else otherwise``."""

    cond: Expr
    then: Expr
    otherwise: Expr


def _chained(comparison: Expr) -> Expr:
    """``comparison``, joined by ``and`` to the pending first part of its chain if any
    (:mod:`.chains`)."""
    first = chains.take(sys._getframe(2))
    if first is None:
        return comparison
    return Nary("and", (*conjuncts(first), comparison))


def wrap(value: ExprLike) -> Expr:
    """Turn an int or bool into a :class:`Const`; pass expressions through."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, (bool, int)):
        return Const(int(value))
    if hasattr(value, "__index__"):  # numpy integers
        return Const(int(value))
    raise TypeError(f"not an expression or integer: {value!r}")


def divisor(value: ExprLike) -> Const:
    """``value`` as the divisor of ``//`` or ``%``: a positive constant, else ValueError."""
    d = wrap(value)
    if not isinstance(d, Const) or d.value <= 0:
        raise ValueError(f"// and % divide by a positive constant, not {to_text(d)}")
    return d


def children(expr: Expr) -> tuple[Expr, ...]:
    """The direct operands of a node."""
    if isinstance(expr, Unary):
        return (expr.arg,)
    if isinstance(expr, Binary):
        return (expr.left, expr.right)
    if isinstance(expr, Nary):
        return expr.args
    if isinstance(expr, IfThenElse):
        return (expr.cond, expr.then, expr.otherwise)
    return ()


def is_boolean(expr: Expr) -> bool:
    """True when ``expr`` is a condition (its value is always 0 or 1)."""
    if isinstance(expr, Binary):
        return expr.op in COMPARE
    if isinstance(expr, Nary):
        return expr.op in ("and", "or")
    if isinstance(expr, Unary):
        return expr.op == "not"
    if isinstance(expr, Const):
        return expr.value in (0, 1)
    return False


def conjuncts(expr: Expr) -> list[Expr]:
    """The top-level operands of a conjunction (``[expr]`` otherwise)."""
    if isinstance(expr, Nary) and expr.op == "and":
        out: list[Expr] = []
        for a in expr.args:
            out.extend(conjuncts(a))
        return out
    if isinstance(expr, Const) and expr.value == 1:
        return []
    return [expr]


_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6,
               "neg": 7}


def to_text(expr: Expr) -> str:
    """Render ``expr`` in the model-file syntax; ``parse(to_text(e))`` rebuilds ``e``, but
    for an ``and``/``or`` that an operand without variables decides: the parser reads it as
    Python does, that operand's value (0 or 1), the operands after it unread."""
    return _text(expr, 0, False)


def readable(expr: Expr, words: Callable[[Expr], str | None] | None = None) -> str:
    """``expr`` for people: :func:`to_text` without the brackets of how a chain of ``+``,
    ``*``, ``and`` or ``or`` was built (``a + (b + c)`` is ``a + b + c``).  The text has
    the same value, but parses to a differently nested tree: messages only.  ``words``:
    a part's own text where it has one (a puzzle's words for ``x == 1``), else None."""
    return _text(expr, 0, True, words)


def _text(expr: Expr, outer: int, flat: bool,
          words: Callable[[Expr], str | None] | None = None) -> str:
    said = words(expr) if words is not None else None
    if said is not None:  # bracketed where the node's own text would be
        return f"({said})" if _node_precedence(expr) < outer else said
    if isinstance(expr, Const):
        text, prec = str(expr.value), 9
        if expr.value < 0:
            prec = _PRECEDENCE["neg"]
    elif isinstance(expr, Var):
        text, prec = expr.name, 9
    elif isinstance(expr, Unary):
        if expr.op == "abs":
            text, prec = f"abs({_text(expr.arg, 0, flat, words)})", 9
        elif expr.op == "-":
            prec = _PRECEDENCE["neg"]
            text = "-" + _text(expr.arg, prec + 1, flat, words)
        else:
            prec = _PRECEDENCE["not"]
            text = "not " + _text(expr.arg, prec + 1, flat, words)
    elif isinstance(expr, Binary):
        if expr.op in COMPARE:
            prec = _PRECEDENCE["cmp"]
            left, right = (_text(e, prec + 1, flat, words) for e in (expr.left, expr.right))
            text = f"{left} {expr.op} {right}"
        else:
            prec = _PRECEDENCE[expr.op]
            right = prec if flat and _chained_with(expr.right, expr.op) else prec + 1
            text = (f"{_text(expr.left, prec, flat, words)} {expr.op} "
                    f"{_text(expr.right, right, flat, words)}")
    elif isinstance(expr, Nary):
        kept = _deciding(expr) if flat else expr.args
        if len(kept) == 1:  # the rest were constants that decide nothing
            return _text(kept[0], outer, flat, words)
        expr = Nary(expr.op, kept)
        if expr.op in ("min", "max"):
            inside = ", ".join(_text(a, 0, flat, words) for a in expr.args)
            text, prec = f"{expr.op}({inside})", 9
        else:
            prec = _PRECEDENCE[expr.op]
            text = f" {expr.op} ".join(
                _text(a, prec if flat and _chained_with(a, expr.op) else prec + 1, flat, words)
                for a in expr.args)
    elif isinstance(expr, IfThenElse):
        args = ", ".join(_text(c, 0, flat, words) for c in children(expr))
        text, prec = f"ite({args})", 9
    else:
        raise TypeError(f"unknown expression node {expr!r}")
    return f"({text})" if prec < outer else text


def _deciding(expr: Nary) -> tuple[Expr, ...]:
    """The operands of an ``and``/``or`` without its constants that decide nothing (true
    in an ``and``, false in an ``or``: ``s[3] != 3 or 0 or 0`` is ``s[3] != 3``), where
    that keeps its value: two operands or more, or one condition (any other ``Nary``, and
    an ``or`` of a number, as they are)."""
    if expr.op not in ("and", "or"):
        return expr.args
    kept = tuple(a for a in expr.args
                 if not (isinstance(a, Const) and bool(a.value) == (expr.op == "and")))
    return kept if len(kept) > 1 or (kept and is_boolean(kept[0])) else expr.args


def _node_precedence(expr: Expr) -> int:
    """How tightly ``expr``'s text binds (9: an atom, a call): its operator's precedence."""
    op = getattr(expr, "op", None)
    if isinstance(expr, Binary):
        return _PRECEDENCE["cmp"] if op in COMPARE else _PRECEDENCE[op]
    if isinstance(expr, Nary) and op in ("and", "or"):
        return _PRECEDENCE[op]
    if isinstance(expr, Unary) and op != "abs":
        return _PRECEDENCE["neg" if op == "-" else "not"]
    return 9


def _chained_with(expr: Expr, op: str) -> bool:
    """Is ``expr`` an ``op`` whose operands may join an enclosing ``op``'s without brackets
    (``+``, ``*``, ``and``, ``or``: associative, so the value does not change)?"""
    return op in ("+", "*", "and", "or") and getattr(expr, "op", None) == op
