"""The direct encoding: small-domain variables as one literal per value, small
conditions and assignments as clauses.

A condition over a few such variables propagates far better as clauses
forbidding each bad combination of values (``not (x == a and y == b)``) than
as arithmetic over auxiliary variables: ``abs(x[i] - x[j]) != j - i``
enumerates 40 times faster this way.

After :func:`post_condition` returns True the condition holds whenever every
``only_if`` literal holds; when it returns False nothing was posted and the
caller compiles the expression the arithmetic way (:class:`.compile.Compiler`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from ...language.expr import Binary, Const, Expr, Var
from ...language.walk import variables
from .compile import Compiler, Lit, Term, negate
from .library import cp_model, new_bools
from .table import value_table

ONE_HOT_MAX = 64
"""Largest domain that gets one literal per value."""
ARITY = 3
"""Expressions over at most this many unknown variables are encoded directly ..."""
ROWS = 4096
"""... when their variables have at most this many combinations of values."""


def one_hot(model: cp_model.CpModel, values: Sequence[int]) -> tuple[Term, dict[int, Lit]]:
    """A variable as one literal per value (exactly one holds) and its value as a sum."""
    lits = dict(zip(values, new_bools(model, len(values))))
    model.add_exactly_one(lits.values())
    return cp_model.LinearExpr.weighted_sum(list(lits.values()), list(values)), lits


def layout(comp: Compiler, expr: Expr) -> tuple[list[str], dict[str, list[int]]] | None:
    """Names in ``expr`` and the values each may take, if it is small enough for a table."""
    names = sorted(variables(expr))
    free = [n for n in names if not isinstance(comp.env[n], int)]
    if not free or len(free) > ARITY or any(n not in comp.one_hot for n in free):
        return None
    values = {n: list(comp.one_hot[n]) if n in free else [comp.env[n]] for n in names}
    if math.prod(len(values[n]) for n in free) > ROWS:
        return None
    return names, values


def row(comp: Compiler, names: list[str], values: dict[str, list[int]],
        index: Iterable[int]) -> list[Lit]:
    """Literals saying "the variables do not take the values of this row"."""
    return [negate(comp.one_hot[n][values[n][i]])
            for n, i in zip(names, index) if not isinstance(comp.env[n], int)]


def post_condition(comp: Compiler, expr: Expr, only_if: Sequence[Lit] = ()) -> bool:
    """Forbid every combination of values under which ``expr`` is false."""
    if isinstance(expr, Binary) and isinstance(expr.left, Var | Const) and isinstance(
            expr.right, Var | Const) and expr.op in ("==", "!="):
        if len(variables(expr)) == 1:
            return False  # x == c is a single literal already
    table = layout(comp, expr)
    if table is None:
        return False
    names, values = table
    held = value_table(expr, names, values) != 0
    for bad in np.argwhere(~held):
        comp.clause(row(comp, names, values, bad.tolist()), only_if)
    return True
