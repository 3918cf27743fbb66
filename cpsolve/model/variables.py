"""Named variables with finite integer domains, shared by both kinds of model, and the
limits every model keeps (:class:`ModelError` when one is passed)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..language.expr import Expr, ExprLike, Nary, Unary, Var, is_boolean, readable, wrap
from ..language.intervals import bounds, bounds_bottom_up
from ..language.quoting import figure, short_number, shown
from ..language.slips import not_a_condition
from ..language.walk import bad_divisors, if_conditions, variables


class ModelError(ValueError):
    """A model that is not well formed (unknown variable, empty domain, ...); ``part``:
    which argument of the call that refused it is wrong (``"guard"``, ``"effects"``,
    ``"cost"`` of an action), where the call tells, so that a model file's error can name
    the key that holds it."""

    def __init__(self, message: str, part: str | None = None) -> None:
        super().__init__(message)
        self.part = part


MAX_DOMAIN = 1_000_000
"""Most values one variable may take (engines enumerate domains value by value)."""

MAX_VARIABLES = 100_000
"""Most variables one model may declare."""

MAX_ACTIONS = 200_000
"""Most ground actions one planning model may hold."""


MAX_PATTERN_ENTRIES = 1 << 30
"""Largest pattern database (entries: variables ** pattern values) a model may declare."""


MAX_MAGNITUDE = 2 ** 62
"""Largest absolute value any (sub)expression may reach: engines use 64-bit integers."""


def _check_magnitude(expr: Expr, domain: Callable[[str], tuple[int, int]], what: str) -> None:
    """Raise :class:`ModelError` when some subexpression can leave ±:data:`MAX_MAGNITUDE`."""
    for _, (lo, hi) in bounds_bottom_up(expr, domain):  # children first: one pass
        if max(-lo, hi) > MAX_MAGNITUDE:
            raise ModelError(f"{what}: values up to {short_number(max(-lo, hi))} do not fit "
                             "in 64-bit integers (at most 2**62 in absolute value)")


def check_size(what: str, size: int, limit: int) -> None:
    """Raise :class:`ModelError` when ``size`` exceeds ``limit`` (checked before building)."""
    if size > limit:
        raise ModelError(f"{what}: {figure(size)} is more than the {limit:,} a model may have")


@dataclass(frozen=True)
class Domain:
    """The integer interval ``lo..hi`` (both included)."""

    lo: int
    hi: int

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            raise ModelError(f"empty domain {self}")
        if self.hi - self.lo >= MAX_DOMAIN:  # its words only when refused: a collection
            # of a million grids makes 16 to 81 domains each
            check_size(f"domain {self}: values", self.hi - self.lo + 1, MAX_DOMAIN)

    def __str__(self) -> str:
        return f"{figure(self.lo, False)}..{figure(self.hi, False)}"

    def __contains__(self, value: int) -> bool:
        return self.lo <= value <= self.hi

    @property
    def size(self) -> int:
        """Number of values in the domain."""
        return self.hi - self.lo + 1


class Variables:
    """Ordered named variables with domains, shared by both model kinds."""

    def __init__(self) -> None:
        self.domains: dict[str, Domain] = {}

    def add_variable(self, name: str, lo: int, hi: int) -> Var:
        """Declare a variable with domain ``lo..hi`` and return a reference to it."""
        if name in self.domains:
            raise ModelError(f"variable {name!r} is declared twice")
        check_size("variables", len(self.domains) + 1, MAX_VARIABLES)
        self.domains[name] = Domain(int(lo), int(hi))
        return Var(name)

    def add_array(self, name: str, size: int | Sequence[int], lo: int, hi: int) -> list:
        """Declare ``name[0] .. name[size-1]`` with one domain; with a shape
        (``(rows, cols)``, any number of sizes) ``name[r][c]``, row by row, returned
        as nested lists (``x[r][c]``)."""
        shape = (size,) if isinstance(size, int) else tuple(int(n) for n in size)
        if not shape or min(shape) < 1:
            raise ModelError(f"array {name}: sizes must be at least 1, not {size!r}")
        check_size(f"array {name}: variables", len(self.domains) + math.prod(shape),
                   MAX_VARIABLES)

        def level(prefix: str, rest: tuple[int, ...]) -> list:
            if len(rest) == 1:
                return [self.add_variable(f"{prefix}[{i}]", lo, hi) for i in range(rest[0])]
            return [level(f"{prefix}[{i}]", rest[1:]) for i in range(rest[0])]

        return level(name, shape)

    @property
    def names(self) -> list[str]:
        """Variable names in declaration order."""
        return list(self.domains)

    def domain(self, name: str) -> tuple[int, int]:
        """``(lo, hi)`` of a variable."""
        d = self.domains[name]
        return d.lo, d.hi

    def _check_expr(self, expr: Expr, what: str) -> Expr:
        unknown = [v for v in variables(expr) if v not in self.domains]  # O(expr), not O(model)
        if unknown:
            raise ModelError(f"{what}: unknown variable(s) {', '.join(sorted(unknown))}")
        wrong = bad_divisors(expr)
        if wrong:
            raise ModelError(f"{what}: {readable(wrong[0])}: // and % divide by a positive "
                             "constant only")
        _check_magnitude(expr, self.domain, what)
        self._no_number(expr, what, whole=False)
        return expr

    def _condition(self, value: ExprLike, what: str) -> Expr:
        """``value`` as a checked condition (:meth:`_check_expr`): a number where a
        condition must stand (the whole, or an operand of ``And``/``Or``/``Not``: ``5``,
        ``x + 1``) is refused, as in a model file, not read as true when non-zero;
        ``True``, ``False``, 0, 1 and 0/1 variables are conditions."""
        if not isinstance(value, (Expr, bool)) and hasattr(value, "__index__"):
            value = int(value)  # 0 and 1 are false and true, as a file's "0" and "1"
        expr = self._check_expr(wrap(value), what)
        self._no_number(expr, what)
        return expr

    def _no_number(self, expr: Expr, what: str, whole: bool = True) -> None:
        """Refuse a number standing where a condition must in ``expr`` (:meth:`number_in`)."""
        number = self.number_in(expr, whole)
        if number is not None:
            raise ModelError(f"{what}: {not_a_condition(shown(readable(number)), '&, |, ~')}")

    def number_in(self, expr: Expr, whole: bool = True) -> Expr | None:
        """The first part of ``expr`` that stands where a condition must — ``expr`` itself
        (``whole``: a goal, a guard, a constraint...) and the condition of each ``if`` in
        it (:func:`~cpsolve.language.walk.if_conditions`), in any expression — but can be a
        number other than 0 or 1 (None: every such part is a condition)."""
        parts = ([expr] if whole else []) + if_conditions(expr)
        return next((n for part in parts if (n := self._number(part)) is not None), None)

    def _number(self, expr: Expr) -> Expr | None:
        """The first part of the condition ``expr`` (itself, or an operand of its
        ``and``/``or``/``not``) that can be a number other than 0 or 1."""
        if isinstance(expr, Nary) and expr.op in ("and", "or"):
            return next((n for a in expr.args if (n := self._number(a)) is not None), None)
        if isinstance(expr, Unary) and expr.op == "not":
            return self._number(expr.arg)
        if is_boolean(expr):
            return None
        try:
            lo, hi = bounds(expr, self.domain)
        except (KeyError, TypeError, ValueError):
            return expr
        return None if 0 <= lo and hi <= 1 else expr
