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
  sequence of action indices is smallest is already in that order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from ...expr import And, Const, Expr, Var, substitute
from ...model import Action, Planning
from .table import value_table

ROWS = 1 << 16
"""Largest number of value combinations evaluated for one action or pair."""


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
    for k, first in enumerate(actions):
        for j, second in enumerate(actions):
            if changed[k] is not None and not changed[k] <= writes[j]:
                continue
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
