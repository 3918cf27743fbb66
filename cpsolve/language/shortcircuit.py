"""Short circuit while parsing: an ``and``/``or`` operand without variables that decides
the whole, as Python reads it (false for ``and``, true for ``or``)."""

from __future__ import annotations

from .expr import Const, Expr
from .interpret import evaluate
from .walk import variables


class Decided(Exception):
    """An element of ``all``/``any`` decided the whole
    (:meth:`cpsolve.language.unroll.Unrolling.deciding`)."""

    def __init__(self, value: Const):
        super().__init__()
        self.value = value


def decided(op: str, operand: Expr) -> Const | None:
    """The value, 0 or 1 as every ``and``/``or`` has, of an ``op`` that ``operand`` decides
    by itself, being without variables and false (``and``) or true (``or``); else None."""
    if variables(operand):
        return None
    decides = bool(evaluate(operand, {})) == (op == "or")
    return Const(int(op == "or")) if decides else None
