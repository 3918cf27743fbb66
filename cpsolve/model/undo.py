"""Whether every move can be undone, decided by parts (used by :func:`.moves.reversible`).

An action's *core* is what its effects write and read; a guard conjunct that reads one
variable outside the core (besides core variables) is a *side* condition on that variable,
which the move leaves as it was.  Tower of Hanoi's "disc 13 to C" reads the pegs of the 13
smaller discs, each in conjuncts of its own (``peg[e] != peg[13] and peg[e] != 2``): its
moves are 3 values of ``peg[13]`` times, for each smaller disc on its own, the values its
side conditions allow — not the 3^14 value combinations that enumerating every variable
it reads would take.

A move of action ``a`` from core values ``x`` is undone when one action ``b`` with the same
core leads from ``a``'s result back to ``x`` and allows, for each of its side variables,
every value ``a`` allowed there (those variables are the same before and after).  One
``b`` for all of a core move's side values is a sufficient condition, not a necessary one:
``False`` means "not proven".  A guard with a conjunct reading two variables outside the
core does not split (:func:`split` returns None).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import product

from ..language.expr import Expr, children, conjuncts
from ..language.walk import variables
from .pins import pins
from .planning import Action, Planning
from .values import value_at


@dataclass(frozen=True)
class Parts:
    """An action split into its core variables (model order), the guard's conjuncts over
    them alone, and its side conditions by side variable."""

    action: Action
    core: tuple[str, ...]
    within: tuple[Expr, ...]
    side: Mapping[str, tuple[Expr, ...]]


def split(action: Action, model: Planning) -> Parts | None:
    """``action``'s parts, or None when a guard conjunct reads two variables outside its core."""
    core = set(action.writes())
    for _, effect in action.effects:
        core |= variables(effect)
    within: list[Expr] = []
    side: dict[str, list[Expr]] = {}
    for conjunct in conjuncts(action.guard):
        outside = variables(conjunct) - core
        if len(outside) > 1:
            return None
        if outside:
            side.setdefault(outside.pop(), []).append(conjunct)
        else:
            within.append(conjunct)
    ordered = tuple(n for n in model.domains if n in core)
    return Parts(action, ordered, tuple(within), {n: tuple(c) for n, c in side.items()})


def combinations(action: Action, model: Planning, names: tuple[str, ...]) -> int:
    """The value combinations of ``names`` that :func:`moves` tries for ``action`` (a
    variable its guard pins counts once)."""
    fixed = pins(action.guard, model.domain)
    return math.prod(1 if n in fixed else model.domains[n].size for n in names)


def work(parts: Parts, model: Planning, candidates: int) -> int:
    """About the expression nodes :func:`undone` evaluates for ``parts`` with ``candidates``
    actions of the same core: its core's value combinations, times the nodes of the guard
    and effects, the largest side domain and the candidates."""
    widest = max((model.domains[n].size for n in parts.side), default=1)
    exprs = (parts.action.guard, *(e for _, e in parts.action.effects))
    return combinations(parts.action, model, parts.core) * sum(map(nodes, exprs)) * widest \
        * (1 + candidates)


def moves(action: Action, model: Planning, names: tuple[str, ...],
          conditions: tuple[Expr, ...]) -> Iterator[tuple[dict, dict]]:
    """``(before, after)`` values of ``names`` (every variable ``action``'s effects read or
    write among them) for each combination within the domains that meets ``conditions``
    and that ``action`` leaves within the domains."""
    fixed = pins(action.guard, model.domain)
    axes = []
    for n in names:
        low, high = model.domain(n)
        axes.append([fixed[n]] if n in fixed and low <= fixed[n] <= high
                    else [] if n in fixed else range(low, high + 1))
    for values in product(*axes):
        before = dict(zip(names, values))
        if not all(value_at(c, before) for c in conditions):
            continue
        after = _applied(action, before)
        if all(v in model.domains[n] for n, v in after.items()):
            yield before, after


def undone(parts: Parts, candidates: list[Parts], model: Planning) -> bool:
    """Whether every move of ``parts.action`` is undone by one of ``candidates`` (actions with
    the same core), as the module says."""
    for before, after in moves(parts.action, model, parts.core, parts.within):
        allowed = {n: _allowed(c, before, n, model) for n, c in parts.side.items()}
        if not all(allowed.values()):
            continue  # a side condition no value meets: no move from here
        if not any(_undoes(b, after, before, allowed, model) for b in candidates):
            return False
    return True


def _applied(action: Action, env: dict) -> dict:
    """The core values after ``action``'s effects at ``env`` (every effect reads ``env``)."""
    after = dict(env)
    for name, effect in action.effects:
        after[name] = value_at(effect, env)
    return after


def _allowed(conditions: tuple[Expr, ...], core: dict, name: str, model: Planning
             ) -> frozenset[int]:
    """The values of side variable ``name`` that meet ``conditions`` at ``core``."""
    low, high = model.domain(name)
    return frozenset(v for v in range(low, high + 1)
                     if all(value_at(c, {**core, name: v}) for c in conditions))


def _undoes(b: Parts, after: dict, before: dict, allowed: Mapping[str, frozenset[int]],
            model: Planning) -> bool:
    """Whether ``b`` leads from core values ``after`` back to ``before`` for every side value
    ``allowed`` (a side variable of ``b`` alone: all its values)."""
    if not all(value_at(c, after) for c in b.within) or _applied(b.action, after) != before:
        return False
    for name, conditions in b.side.items():
        low, high = model.domain(name)
        given = allowed.get(name, frozenset(range(low, high + 1)))
        if not given <= _allowed(conditions, after, name, model):
            return False
    return True


def nodes(expr: Expr) -> int:
    """The nodes of ``expr``'s tree."""
    return 1 + sum(map(nodes, children(expr)))
