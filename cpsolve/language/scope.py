"""Scopes: what the names of an expression stand for.

A scope maps a name to an expression (a variable or a constant) or to a list of them (an
array, indexed by an expression that must be constant once parameters are filled in).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union

from .expr import Const, Expr, Var
from .syntax import ExprError
from .walk import variables

ScopeValue = Union[Expr, Sequence["ScopeValue"]]  # noqa: UP007 - a recursive alias
Scope = Mapping[str, ScopeValue]


def variable_scope(names: Sequence[str]) -> dict[str, ScopeValue]:
    """A scope in which each plain name refers to the variable of that name.

    Names of the form ``base[i]`` (and ``base[i][j]``) are also collected into
    arrays so that ``base[i]`` can be written in expressions.
    """
    scope: dict[str, ScopeValue] = {}
    arrays: dict[str, dict[tuple[int, ...], Var]] = {}
    for name in names:
        if "[" in name:
            base, _, rest = name.partition("[")
            index = tuple(int(p) for p in rest.rstrip("]").split("]["))
            arrays.setdefault(base, {})[index] = Var(name)
        else:
            scope[name] = Var(name)
    for base, cells in arrays.items():
        scope[base] = _nest(cells)
    return scope


def _nest(cells: dict[tuple[int, ...], Var]) -> list:
    """The variables ``cells`` (by index tuple) as nested lists, in one pass over them (a
    pass per first index made a 100,000-variable array take minutes)."""
    rows: dict[int, dict[tuple[int, ...], Var]] = {}
    for index, var in cells.items():
        rows.setdefault(index[0], {})[index[1:]] = var
    out: list = []
    for k in range(max(rows) + 1):
        sub = rows.get(k, {})
        if () in sub:
            out.append(sub[()])
        else:
            out.append(_nest(sub) if sub else [])
    return out


def constant_scope(values: Mapping[str, object]) -> dict[str, ScopeValue]:
    """A scope of named integer constants and (nested) lists of them."""

    def conv(v: object) -> ScopeValue:
        if isinstance(v, bool) or isinstance(v, int):
            return Const(int(v))
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        raise ExprError(f"constant {v!r} is not an integer or a list of integers")

    return {k: conv(v) for k, v in values.items()}


def is_constant(value: ScopeValue) -> bool:
    """Whether a scope entry holds no variable (a constant, a parameter, a constant table)."""
    if isinstance(value, Expr):
        return not variables(value)
    return all(is_constant(v) for v in value)
