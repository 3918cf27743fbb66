"""The facts' own small interpreter: the value of an expression at known values.

On purpose apart from :func:`cpsolve.language.interpret.evaluate`: that one is the
independent checker's reference interpreter, and the checker shares no code with
the facts (``tests/test_layering.py``).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping

from ..language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var, children

_UNARY = {"-": operator.neg, "abs": abs, "not": operator.not_}
_BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul,
           "//": operator.floordiv, "%": operator.mod, "==": operator.eq,
           "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}
_NARY = {"and": all, "or": any, "min": min, "max": max}


def value_at(expr: Expr, env: Mapping[str, int]) -> int:
    """The value of ``expr`` when its variables take the values in ``env``."""
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Var):
        return env[expr.name]
    if isinstance(expr, IfThenElse):
        chosen = expr.then if value_at(expr.cond, env) else expr.otherwise
        return value_at(chosen, env)
    args = [value_at(c, env) for c in children(expr)]
    if isinstance(expr, Unary):
        return int(_UNARY[expr.op](args[0]))
    if isinstance(expr, Binary):
        return int(_BINARY[expr.op](*args))
    if isinstance(expr, Nary):
        return int(_NARY[expr.op](args))
    raise TypeError(f"unknown expression node {expr!r}")
