"""The reference interpreter: the value of an expression under an assignment.

It is used by the checker (:mod:`cpsolve.answers.check`) and by nothing an engine solves
with, so a bug in an engine's compiler cannot hide behind the checker.
"""

from __future__ import annotations

from collections.abc import Mapping

from .expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var


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
