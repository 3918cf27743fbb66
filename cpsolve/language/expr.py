"""The expression language shared by model files, the Python API and every engine.

An expression is an immutable tree of :class:`Expr` nodes over integer state or
decision variables.  Booleans are integers 0/1, so ``(a == 4) + (b == 4)`` is
fine.  Trees are built with Python operators (``a + 1``, ``a == b``, ``a & b``,
``~a``) or parsed from text by :mod:`cpsolve.language.parse`; each engine compiles the
same tree its own way.

:func:`evaluate` is the reference interpreter.  It is used by the checker
(:mod:`cpsolve.answers.check`) and by nothing an engine solves with, so a bug in an
engine's compiler cannot hide behind the checker.

Note: ``==`` on expressions builds a comparison, so expressions hash by
identity and must not be used in ``x in list`` tests.  Use :func:`same` for
structural equality.
"""

from __future__ import annotations

import dis
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Union

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
        if is_boolean(self) and _in_chain(sys._getframe(1), self):
            return True  # the next comparison of the chain takes this one in (see _chained)
        raise TypeError(
            "an expression has no truth value; use & | ~ instead of and/or/not, "
            "and cpsolve.language.expr.same() to compare trees"
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


# -- chained comparisons in Python code (``1 < a < 4``)
#
# Python evaluates ``x < a < y`` as ``(x < a) and (a < y)``: it asks the truth
# of the first comparison, and the value of the whole chain is the last one.
# An expression has no truth value, so ``__bool__`` answers True only when the
# byte code calling it is a comparison chain (``SWAP, COPY, COMPARE_OP`` just
# before), and remembers the comparison with the frame; the next comparison
# built in that frame joins it with ``and``.  Anywhere else ``bool()`` raises.

_PENDING = threading.local()
_CHAIN_FILLER = {"CACHE", "COPY", "TO_BOOL", "EXTENDED_ARG", "NOP"}


def _in_chain(frame, expr: Expr) -> bool:
    """Is ``frame`` asking the truth of ``expr`` inside a comparison chain? Then remember it."""
    code, at = frame.f_code, frame.f_lasti
    instructions = [i for i in dis.get_instructions(code) if i.offset <= at]
    k = len(instructions) - 2  # instructions[-1] is the jump asking for the truth
    while k >= 0 and instructions[k].opname in _CHAIN_FILLER:
        k -= 1
    if k < 2 or [i.opname for i in instructions[k - 2:k + 1]] != ["SWAP", "COPY", "COMPARE_OP"]:
        return False
    later = [i.offset for i in dis.get_instructions(code)
             if i.offset > at and i.opname == "COMPARE_OP"]
    _PENDING.item = (frame, later[0] if later else -1, expr)
    return True


def _chained(comparison: Expr) -> Expr:
    """``comparison``, joined by ``and`` to the pending first part of its chain if any."""
    pending = getattr(_PENDING, "item", None)
    if pending is None:
        return comparison
    _PENDING.item = None
    frame = sys._getframe(2)
    if pending[0] is not frame or pending[1] != frame.f_lasti:
        return comparison  # not the comparison that continues the chain
    return Nary("and", (*conjuncts(pending[2]), comparison))


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


def _compare(op: str, a: int, b: int) -> bool:
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def evaluate(expr: Expr, env: Mapping[str, int]) -> int:
    """The value of ``expr`` under the assignment ``env`` (reference interpreter)."""
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Var):
        return env[expr.name]
    if isinstance(expr, Unary):
        v = evaluate(expr.arg, env)
        if expr.op == "-":
            return -v
        if expr.op == "abs":
            return abs(v)
        return int(not v)
    if isinstance(expr, Binary):
        a = evaluate(expr.left, env)
        b = evaluate(expr.right, env)
        if expr.op == "+":
            return a + b
        if expr.op == "-":
            return a - b
        if expr.op == "*":
            return a * b
        if expr.op == "//":
            return a // b
        if expr.op == "%":
            return a % b
        return int(_compare(expr.op, a, b))
    if isinstance(expr, Nary):
        if expr.op == "and":
            return int(all(evaluate(a, env) for a in expr.args))
        if expr.op == "or":
            return int(any(evaluate(a, env) for a in expr.args))
        values = [evaluate(a, env) for a in expr.args]
        return min(values) if expr.op == "min" else max(values)
    if isinstance(expr, IfThenElse):
        if evaluate(expr.cond, env):
            return evaluate(expr.then, env)
        return evaluate(expr.otherwise, env)
    raise TypeError(f"unknown expression node {expr!r}")


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
    if said is not None:
        return said
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


def _chained_with(expr: Expr, op: str) -> bool:
    """Is ``expr`` an ``op`` whose operands may join an enclosing ``op``'s without brackets
    (``+``, ``*``, ``and``, ``or``: associative, so the value does not change)?"""
    return op in ("+", "*", "and", "or") and getattr(expr, "op", None) == op
