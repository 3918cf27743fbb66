"""Value tables of small expressions, for the direct (clause) encoding of :mod:`.direct`.

:func:`value_table` evaluates a tree on every combination of its variables'
values at once with NumPy broadcasting.  It is the engine's own arithmetic,
separate from the checker's interpreter.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from ...language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var
from .relations import COMPARE


def value_table(expr: Expr, names: Sequence[str],
                values: Mapping[str, Sequence[int]]) -> np.ndarray:
    """The value of ``expr`` at every combination: an int array, one axis per name."""
    axes: dict[str, np.ndarray] = {}
    for axis, name in enumerate(names):
        shape = [1] * len(names)
        shape[axis] = len(values[name])
        axes[name] = np.asarray(values[name], dtype=np.int64).reshape(shape)
    full = tuple(len(values[n]) for n in names)
    return np.broadcast_to(_value(expr, axes), full)


def _value(expr: Expr, axes: Mapping[str, np.ndarray]) -> np.ndarray:
    if isinstance(expr, Const):
        return np.asarray(expr.value, dtype=np.int64)
    if isinstance(expr, Var):
        return axes[expr.name]
    if isinstance(expr, Unary):
        arg = _value(expr.arg, axes)
        if expr.op == "-":
            return -arg
        if expr.op == "abs":
            return np.abs(arg)
        return (arg == 0).astype(np.int64)
    if isinstance(expr, Binary):
        a, b = _value(expr.left, axes), _value(expr.right, axes)
        op = expr.op
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "//":
            return a // b
        if op == "%":
            return a % b
        return np.asarray(COMPARE[op](a, b)).astype(np.int64)
    if isinstance(expr, Nary):
        args = [_value(a, axes) for a in expr.args]
        combine = {"and": np.logical_and, "or": np.logical_or, "min": np.minimum,
                   "max": np.maximum}[expr.op]
        if expr.op in ("and", "or"):
            args = [a != 0 for a in args]
        return np.asarray(functools.reduce(combine, args)).astype(np.int64)
    if isinstance(expr, IfThenElse):
        cond = _value(expr.cond, axes)
        return np.where(cond != 0, _value(expr.then, axes), _value(expr.otherwise, axes))
    raise TypeError(f"unknown expression node {expr!r}")
