"""Facts about a planning model's moves: whether every move can be undone
(:func:`reversible`), which declared symmetries keep the goal or the start
(:func:`goal_symmetries`, :func:`start_symmetries`), and whether breadth-first
layers can meet (:func:`disjoint_layers`).  As in :mod:`.facts`, ``False`` or an
empty list means "not proven".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping

from ..language.expr import Expr, Var, conjuncts
from ..language.walk import normal_text, substitute
from . import undo
from .facts import changes, tracked
from .planning import Action, Planning

MAX_WORK = 1 << 20
"""Most expression nodes :func:`reversible` may evaluate over all actions together (a value
combination of an action's used variables costs the nodes of its guard and effects): about
half a second of this module's interpreter."""


def _used(action: Action, model: Planning) -> tuple[str, ...]:
    """The variables an action reads or writes, in model order."""
    used = action.reads() | action.writes()
    return tuple(n for n in model.domains if n in used)


def _moves(action: Action, model: Planning, used: tuple[str, ...]) -> Iterator[tuple]:
    """``(before, after)`` values of ``used`` for every state where ``action`` applies."""
    for before, after in undo.moves(action, model, used, (action.guard,)):
        yield tuple(before[n] for n in used), tuple(after[n] for n in used)


def reversible(model: Planning) -> bool:
    """True when every move can be undone by a move: whenever an action leads from state
    ``s`` to ``t``, some action leads from ``t`` back to ``s``.

    Proven by parts (:mod:`.undo`: the side conditions of a guard one variable at a time,
    Tower of Hanoi's smaller discs) or, failing that, on the following sufficient
    condition: for each set of
    used variables (read or written), the moves of the actions using exactly
    that set, on those variables, form a symmetric relation.  An action only
    looks at its used variables and leaves the others alone, so each move is
    then undone by an action of its own set (a slide by the opposite slide).
    False when neither holds, and when deciding either would evaluate more than
    :data:`MAX_WORK` expression nodes (summed over the actions).
    """
    return _by_parts(model) or _by_groups(model)


def _by_parts(model: Planning) -> bool:
    """Every action's moves undone by an action of the same core (:mod:`.undo`)."""
    split = [undo.split(action, model) for action in model.actions]
    if not split or any(parts is None for parts in split):
        return False
    same: dict[tuple[str, ...], list[undo.Parts]] = {}
    for parts in split:
        same.setdefault(parts.core, []).append(parts)  # type: ignore[union-attr]
    if sum(undo.work(p, model, len(same[p.core])) for p in split) > MAX_WORK:  # type: ignore
        return False
    return all(undo.undone(p, same[p.core], model) for p in split)  # type: ignore[union-attr]


def _by_groups(model: Planning) -> bool:
    """The used-variable groups' moves form symmetric relations (:func:`reversible`)."""
    used = [_used(action, model) for action in model.actions]
    if sum(_work(action, model, names) for action, names in zip(model.actions, used)) > MAX_WORK:
        return False  # known before any is evaluated: a model past it costs nothing here
    groups: dict[tuple[str, ...], set[tuple]] = {}
    for action, names in zip(model.actions, used):
        groups.setdefault(names, set()).update(_moves(action, model, names))
    return all((t, s) in moves for moves in groups.values() for s, t in moves)


def _work(action: Action, model: Planning, used: tuple[str, ...]) -> int:
    """The nodes :func:`_moves` may evaluate for ``action``: its value combinations times
    the nodes of its guard and effects."""
    exprs = (action.guard, *(e for _, e in action.effects))
    return undo.combinations(action, model, used) * sum(map(undo.nodes, exprs))


def _renamed(expr: Expr, mapping: Mapping[str, str]) -> str:
    return normal_text(substitute(expr, lambda v: Var(mapping[v.name])))


def _signature(action: Action, mapping: Mapping[str, str]) -> tuple:
    """What identifies an action up to the order of guard conjuncts and effects."""
    guard = tuple(sorted(_renamed(c, mapping) for c in conjuncts(action.guard)))
    effects = tuple(sorted((mapping[v], _renamed(e, mapping)) for v, e in action.effects))
    return guard, effects, _renamed(action.cost, mapping)


def goal_symmetries(model: Planning) -> list[dict[str, str]]:
    """The declared symmetries (``model.symmetries``, the identity left out) that keep the goal.

    A permutation is kept when, after renaming, the actions are the same
    multiset (same guard conjuncts, effects and cost, up to order), the
    forbidden conditions the same set, and the goal has the same set of
    conjuncts.  Then a state and its image have the same future up to the
    permutation, and one is a goal exactly when the other is: a search may
    merge them.
    """
    if not model.symmetries:
        return []
    goal = frozenset(_renamed(c, {n: n for n in model.domains}) for c in conjuncts(model.goal))
    return _keeping(model, lambda m: frozenset(_renamed(c, m)
                                               for c in conjuncts(model.goal)) == goal)


def start_symmetries(model: Planning) -> list[dict[str, str]]:
    """The declared symmetries (the identity left out) that keep the actions and the start.

    As :func:`goal_symmetries`, with the initial state in place of the goal: a
    permutation is kept when the actions (and forbidden conditions) are the
    same after renaming, every variable goes to one with the same domain, and
    the initial state is its own image.  The states reachable from the start
    are then closed under it, at the same distances: a forward analysis may
    count one state per orbit.
    """
    if not model.symmetries or not model.initial:
        return []
    start = model.initial
    return _keeping(model, lambda m: all(
        model.domains[n] == model.domains[m[n]] and start[n] == start[m[n]]
        for n in model.domains))


def _keeping(model: Planning, keeps: Callable[[Mapping[str, str]], bool]
             ) -> list[dict[str, str]]:
    """The declared symmetries, the identity left out, for which ``keeps`` holds and that
    map the forbidden conditions and the actions onto themselves (tested in that order,
    the actions last: the costliest)."""
    if not model.symmetries:
        return []
    identity = {n: n for n in model.domains}
    forbidden = frozenset(_renamed(f.expr, identity) for f in model.forbidden)
    actions = Counter(_signature(a, identity) for a in model.actions)
    return [dict(m) for m in model.symmetries
            if m != identity and keeps(m)
            and frozenset(_renamed(f.expr, m) for f in model.forbidden) == forbidden
            and Counter(_signature(a, m) for a in model.actions) == actions]


def disjoint_layers(model: Planning) -> bool:
    """True when no state is at two different distances from any state it comes from.

    Holds when every action changes the sum of the :func:`tracked` variables by
    the same non-zero constant: after ``d`` steps the sum is ``start + d * c``,
    so breadth-first layers never meet (peg solitaire: one peg fewer per jump).
    """
    if not model.actions:
        return False
    names = tracked(model)
    deltas = {sum(changes(a, model).get(n, 0) for n in names) for a in model.actions}
    return len(deltas) == 1 and 0 not in deltas
