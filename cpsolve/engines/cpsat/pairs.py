"""Facts about pairs of actions, derived from the model, that prune plans.

* :func:`undoing` — pairs ``(k, j)`` where doing ``j`` right after ``k``
  always restores the state before ``k``, found by evaluating the
  composition on every combination of values of the variables the two touch
  (with the engine's own tables, :mod:`.table`).  A plan without repeated
  states never does ``k`` then ``j``.  It also says whether these are the
  only pairs that ever restore a state: then "states two steps apart differ"
  follows from forbidding them;
* :func:`commuting` — ``(k, j)`` that are independent: neither writes a
  variable the other reads or writes.  Then ``k`` then ``j`` and ``j`` then
  ``k`` lead to the same state at the same cost wherever both orders apply,
  so plans may be required to take such neighbours in a canonical order (the
  smaller index first): among the plans of one length and cost, the one whose
  sequence of action indices is smallest is already in that order;
* :func:`shortcuts` — ``(k, j)`` that no shortest plan takes in a row: wherever
  ``j`` applies right after ``k``, the two lead back to the state before them
  or to where one action applied there leads (a disc of the Tower of Hanoi
  moved twice in a row), found by evaluation as for :func:`undoing`.  With
  unit costs, a plan with such a pair has a shorter one, so *every* shortest
  plan is without them (whatever else is required of it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from ...language.combine import And
from ...language.expr import Const, Expr, Var
from ...language.walk import substitute
from ...model import Action, Planning
from ..runtime import interrupt
from .table import value_table

ROWS = 1 << 16
"""Largest number of value combinations evaluated for one action or pair."""

PAIRS = 20_000
"""Most pairs :func:`undoing` and :func:`shortcuts` each evaluate: they only prune, and a
model of thousands of actions (a large Sokoban room: 14,456) has hundreds of millions of
pairs, which took longer than any solve and could not be stopped.  Past it, and once a
stop is asked for (Ctrl-C, the time limit), the pairs found so far are kept and the rest
are not looked at."""


class _Budget:
    """Pairs left to evaluate: none once :data:`PAIRS` are spent or a stop is asked for."""

    def __init__(self) -> None:
        self.left = PAIRS

    def spend(self) -> bool:
        """Take one pair; False when there is none left to take."""
        self.left -= 1
        return self.left >= 0 and not interrupt.requested()


def commuting(planning: Planning) -> list[tuple[int, int]]:
    """Pairs ``(k, j)``, ``k > j``, of independent actions."""
    actions = planning.actions
    reads = [a.reads() for a in actions]
    writes = [a.writes() for a in actions]
    touched = [r | w for r, w in zip(reads, writes)]
    return [(k, j) for k in range(len(actions)) for j in range(k)
            if not writes[k] & touched[j] and not writes[j] & reads[k]]


def undoing(planning: Planning) -> tuple[list[tuple[int, int]], bool]:
    """Pairs ``(k, j)`` such that ``j`` applied after ``k`` always gives back the state,
    and whether no other pair ever does.

    Only ``j`` writing every variable that ``k`` always changes can undo
    ``k``; each such candidate is evaluated on every state where ``k``
    applies (guard true, new values inside their domains).
    """
    actions = planning.actions
    changed = [_always_changed(planning, a) for a in actions]
    writes = [a.writes() for a in actions]
    always, complete = [], all(c is not None and c for c in changed)
    budget = _Budget()
    for k, first in enumerate(actions):
        for j, second in enumerate(actions):
            if changed[k] is not None and not changed[k] <= writes[j]:
                continue
            if not budget.spend():  # the pairs left unseen may restore a state too
                return always, False
            verdict = _undoes(planning, first, second)
            if verdict is True:
                always.append((k, j))
            elif verdict is not False:
                complete = False
    return always, complete


def _undoes(planning: Planning, first: Action, second: Action) -> bool | None:
    """Does ``second`` restore every state ``first`` changes (True), none (False),
    some (None, also when there are too many states to tell)?"""
    names = sorted(first.reads() | first.writes() | second.reads() | second.writes())
    values = _values(planning, names)
    if values is None or not names:
        return None
    after = dict(first.effects)
    moved = lambda v: after.get(v.name, v)  # noqa: E731 - the state after ``first``
    back = {n: substitute(e, moved) for n, e in second.effects}
    applies = value_table(And(first.guard, *_inside(planning, after)), names, values) != 0
    restores = value_table(And(substitute(second.guard, moved), *_inside(planning, back),
                               *(back.get(n, after.get(n, Var(n))) == Var(n) for n in names)),
                           names, values) != 0
    if np.all(~applies | restores):
        return True
    if not np.any(applies & restores):
        return False
    return None


def shortcuts(planning: Planning) -> list[tuple[int, int]]:
    """Pairs ``(k, j)`` of actions that write one and the same variable, such that ``k``
    then ``j`` always ends where no action, or one action, leads from the state before ``k``.

    (Actions that write several variables are left out: in the bundled models their pairs
    are inverses, :func:`undoing`'s already, and evaluating them took longer than the
    solve of a small model.)"""
    actions = planning.actions
    writes = [a.writes() for a in actions]
    out = []
    budget = _Budget()
    for k, first in enumerate(actions):
        if len(writes[k]) != 1:
            continue
        singles = [c for c, w in zip(actions, writes) if w <= writes[k]]
        for j, second in enumerate(actions):
            if writes[j] != writes[k]:
                continue
            if not budget.spend():
                return out
            if _shortcut(planning, first, second, singles):
                out.append((k, j))
    return out


def _shortcut(planning: Planning, first: Action, second: Action,
              singles: list[Action]) -> bool:
    """Does ``second`` after ``first`` always end where nothing, or one of ``singles``,
    leads from the state before ``first`` (and do they ever apply in a row)?"""
    names = sorted(set().union(*(a.reads() | a.writes() for a in (first, second, *singles))))
    values = _values(planning, names)
    if values is None:
        return False
    after = dict(first.effects)
    moved = lambda v: after.get(v.name, v)  # noqa: E731 - the state after ``first``
    back = {n: substitute(e, moved) for n, e in second.effects}
    end = {n: back.get(n, after.get(n, Var(n))) for n in names}
    applies = value_table(And(first.guard, *_inside(planning, after),
                              substitute(second.guard, moved), *_inside(planning, back)),
                          names, values) != 0
    if not np.any(applies):
        return False
    covered = value_table(And(*(end[n] == Var(n) for n in names)), names, values) != 0
    for single in singles:
        effects = dict(single.effects)
        covered |= value_table(And(single.guard, *_inside(planning, effects),
                                   *(effects.get(n, Var(n)) == end[n] for n in names)),
                               names, values) != 0
    return bool(np.all(~applies | covered))


def _always_changed(planning: Planning, action: Action) -> set[str] | None:
    """The variables ``action`` changes in every state where it applies (None: too many
    states to tell)."""
    names = sorted(action.reads() | action.writes())
    values = _values(planning, names)
    if values is None:
        return None
    applies = value_table(And(action.guard, *_inside(planning, dict(action.effects))),
                          names, values) != 0
    return {n for n, e in action.effects
            if np.all(~applies | (value_table(e != Var(n), names, values) != 0))}


def _values(planning: Planning, names: list[str]) -> dict[str, list[int]] | None:
    """Every value of each variable, unless there are too many combinations."""
    values = {n: list(range(planning.domain(n)[0], planning.domain(n)[1] + 1)) for n in names}
    return values if math.prod(len(v) for v in values.values()) <= ROWS else None


def _inside(planning: Planning, effects: Mapping[str, Expr]) -> list[Expr]:
    """Conditions that every new value lies inside its variable's domain."""
    out: list[Expr] = []
    for n, e in effects.items():
        lo, hi = planning.domain(n)
        out += [e >= Const(lo), e <= Const(hi)]
    return out
