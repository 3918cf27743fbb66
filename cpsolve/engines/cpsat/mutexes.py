"""Derived mutexes: values that stay on as many variables of a group as at the start.

In a sliding puzzle every action swaps two cells' contents, so each tile
stays on exactly one cell (and two identical pieces on exactly two): "cell i
holds tile v" and "cell j holds tile v" are mutually exclusive in every
reachable state.  The time-indexed model does not know it — each cell is
its own variable — and a state with a tile on two cells looks fine to CP-SAT
until the estimate or the goal rules it out much later.

:func:`conserved` derives such groups from the actions, with no knowledge
of puzzles: a group is a set of state variables sharing one small domain, and
it qualifies when no action, in any state where it applies, changes how many
of the variables it writes in the group hold each value (evaluated on every
combination of the values the action reads, by :func:`.table.value_table`).
Then the count of every value over the group is the initial count forever,
and the timeline posts it at every step as a sum of value literals
(:meth:`.timeline.Timeline.grow`).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from ...expr import And, Const, Sum, Var
from ...model import Action, Planning
from .direct import ONE_HOT_MAX
from .table import value_table

ROWS = 1 << 16
"""Largest number of value combinations evaluated for one action."""


def conserved(planning: Planning) -> list[tuple[tuple[str, ...], dict[int, int]]]:
    """Groups of variables (one small domain, at least two variables) whose count of
    every value never changes, each with those counts (``value -> variables holding it``)."""
    groups: dict[tuple[int, int], list[str]] = {}
    for name in planning.domains:
        lo, hi = planning.domain(name)
        if 1 <= hi - lo < ONE_HOT_MAX:
            groups.setdefault((lo, hi), []).append(name)
    out = []
    for (lo, hi), names in groups.items():
        if len(names) < 2:
            continue
        members = set(names)
        if all(_keeps_counts(planning, a, members, range(lo, hi + 1))
               for a in planning.actions):
            counts = Counter(planning.initial[n] for n in names)
            out.append((tuple(names), {v: counts.get(v, 0) for v in range(lo, hi + 1)}))
    return out


def _keeps_counts(planning: Planning, action: Action, members: set[str],
                  values: range) -> bool:
    """Does ``action`` keep the count of each value over the ``members`` it writes?"""
    written = [(n, e) for n, e in action.effects if n in members]
    if not written:
        return True
    names = sorted(action.reads() | action.writes())
    domains = {n: list(range(planning.domain(n)[0], planning.domain(n)[1] + 1)) for n in names}
    if math.prod(len(v) for v in domains.values()) > ROWS:
        return False
    inside = []
    for n, e in action.effects:
        lo, hi = planning.domain(n)
        inside += [e >= Const(lo), e <= Const(hi)]
    applies = value_table(And(action.guard, *inside), names, domains) != 0
    for v in values:
        before = Sum([Var(n) == Const(v) for n, _ in written])
        after = Sum([e == Const(v) for _, e in written])
        change = value_table(before - after, names, domains)
        if np.any(applies & (change != 0)):
            return False
    return True

