"""Comparison operators: how to apply and negate them, and when bounds decide them (how
to mirror them: :data:`cpsolve.language.expr.MIRRORED`)."""

from __future__ import annotations

import operator

from ...language.expr import MIRRORED

COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}
"""Each comparison as a function: on ints a bool, on CP-SAT expressions a constraint."""
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
"""``not (a op b)`` is ``a NEGATED[op] b``."""
def relation(left, op: str, right):
    """``left op right``: a bool for two ints, a CP-SAT bounded expression otherwise."""
    return COMPARE[op](left, right)


def decided(op: str, left: tuple[int, int], right: tuple[int, int]) -> bool | None:
    """The truth of ``a op b`` when it is the same for every ``a`` in ``left`` and
    ``b`` in ``right`` (two intervals); ``None`` when it depends on the values."""
    (a_lo, a_hi), (b_lo, b_hi) = left, right
    if op in ("==", "!="):
        if a_lo == a_hi == b_lo == b_hi:
            return op == "=="
        if a_hi < b_lo or b_hi < a_lo:
            return op == "!="
        return None
    if op in (">", ">="):
        op, (a_lo, a_hi), (b_lo, b_hi) = MIRRORED[op], right, left
    strict = op == "<"
    if a_hi < b_lo or (not strict and a_hi == b_lo):
        return True
    if a_lo > b_hi or (strict and a_lo == b_hi):
        return False
    return None
