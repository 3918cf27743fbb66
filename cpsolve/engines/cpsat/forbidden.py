"""A planning model's forbidden states in the time-indexed CP-SAT model (:mod:`.timeline`).

Each state after a step must satisfy none of the forbidden conditions.  A model may
forbid thousands of states (a hostile file forbade 20,000, ``"x[0] == 4 and x[1] == 0"``,
...): compiled one by one they took seconds per step, which no clock could stop.  So:

* conditions that hold exactly where some variables have some values
  (:func:`~cpsolve.model.pins.exact_pins`), over variables whose integer view is one
  CP-SAT variable (:func:`single`), become one forbidden-assignments table per tuple of
  variables and step — one call, however many rows;
* the rest are compiled :data:`CHUNK` at a time by :class:`Posting`, which asks the
  clock between chunks and resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...language.combine import Not
from ...language.expr import Expr
from ...model import Planning
from ...model.pins import exact_pins
from ..runtime.clock import Clock
from .compile import Compiler, Term
from .direct import ONE_HOT_MAX
from .library import cp_model

CHUNK = 256
"""Conditions compiled between two looks at the clock."""

Rows = list[tuple[tuple[str, ...], list[tuple[int, ...]]]]
"""Forbidden value tuples, by tuple of variables."""


def single(lo: int, hi: int) -> bool:
    """True when a state variable of domain ``lo..hi`` is one CP-SAT variable (or that
    plus a constant), as :func:`.steps.state_variable` makes it: a table may constrain it.
    (Small domains are one literal per value and their integer view a weighted sum.)"""
    return hi - lo == 1 or hi - lo >= ONE_HOT_MAX


def split(planning: Planning) -> tuple[Rows, list[Expr]]:
    """The forbidden conditions as table rows (where :func:`single` allows) and the rest."""
    tables: dict[tuple[str, ...], list[tuple[int, ...]]] = {}
    rest: list[Expr] = []
    for item in planning.forbidden:
        found = exact_pins(item.expr, planning.domain)
        if found is None or not all(single(*planning.domain(n)) for n in found):
            rest.append(item.expr)
            continue
        names = tuple(sorted(found))
        tables.setdefault(names, []).append(tuple(found[n] for n in names))
    return list(tables.items()), rest


class Posting:
    """The forbidden conditions of one model, posted state after state."""

    def __init__(self, planning: Planning) -> None:
        self.tables, self.rest = split(planning)
        self.next: int | None = None
        """The first condition of :attr:`rest` not yet posted on the last state (``None``:
        all are)."""

    def start(self, model: cp_model.CpModel, state: Mapping[str, Term]) -> None:
        """A new state (``state``: its variables): post the tables now, the rest by
        :meth:`resume`."""
        for names, rows in self.tables:
            model.add_forbidden_assignments([state[n] for n in names], rows)
        self.next = 0 if self.rest else None

    def resume(self, comp: Compiler, budget: Clock | None = None) -> bool:
        """Post the rest on the last state (``comp`` compiles over it), :data:`CHUNK` at a
        time; True once all are posted, False when ``budget`` says stop first."""
        while self.next is not None:
            if budget is not None and budget.expired():
                return False
            chunk: Sequence[Expr] = self.rest[self.next:self.next + CHUNK]
            for expr in chunk:
                comp.post(Not(expr))
            self.next += CHUNK
            if self.next >= len(self.rest):
                self.next = None
        return True
