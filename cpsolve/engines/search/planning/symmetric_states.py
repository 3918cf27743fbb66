"""State symmetries a search may merge states under: declared by the model, checked here.

A model declares permutations of its state variables (``Planning.symmetries``:
the value of ``v`` moves to ``mapping[v]``).  A search may treat a state and
its image as one state only when the permutation maps

* every action onto an action (same guard conjuncts, effects and cost after
  renaming), so symmetric states have symmetric futures, and
* the goal onto itself (the same set of conjuncts after renaming), so one is
  a goal exactly when the other is.

:func:`usable` checks both and keeps the permutations that pass; a declared
permutation that fails is simply not used (the search stays correct, only
slower).  :func:`canonical_form` returns ``canon(s)``, the least of ``s`` and
its images: two states are merged exactly when their canonical forms agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from operator import itemgetter

from ....expr import Expr, Var, conjuncts, substitute, to_text
from ....model import Action, Planning
from ..compile import State

Canon = Callable[[State], State]


def _renamed(expr: Expr, mapping: Mapping[str, str]) -> str:
    return to_text(substitute(expr, lambda v: Var(mapping[v.name])))


def _signature(action: Action, mapping: Mapping[str, str]) -> tuple:
    """What identifies an action up to the order of guard conjuncts and effects."""
    guard = tuple(sorted(_renamed(c, mapping) for c in conjuncts(action.guard)))
    effects = tuple(sorted((mapping[v], _renamed(e, mapping)) for v, e in action.effects))
    return guard, effects, _renamed(action.cost, mapping)


def _goal(model: Planning, mapping: Mapping[str, str]) -> frozenset[str]:
    return frozenset(_renamed(c, mapping) for c in conjuncts(model.goal))


def usable(model: Planning) -> list[dict[str, str]]:
    """The declared symmetries that map the actions and the goal onto themselves."""
    if not model.symmetries:
        return []
    identity = {n: n for n in model.domains}
    actions = Counter(_signature(a, identity) for a in model.actions)
    goal = _goal(model, identity)
    out = []
    for mapping in model.symmetries:
        if mapping == identity:
            continue
        if _goal(model, mapping) != goal:
            continue
        if Counter(_signature(a, mapping) for a in model.actions) == actions:
            out.append(dict(mapping))
    return out


def canonical_form(model: Planning, mappings: list[dict[str, str]] | None = None) -> Canon:
    """``canon(s)``: the least of ``s`` and its images under the usable symmetries.

    Without usable symmetries it is the identity.
    """
    mappings = usable(model) if mappings is None else mappings
    names = list(model.domains)
    if not mappings or len(names) < 2:
        return lambda s: s
    index = {n: i for i, n in enumerate(names)}
    images = []
    for mapping in mappings:
        source = [0] * len(names)  # image[index[mapping[v]]] = s[index[v]]
        for v, w in mapping.items():
            source[index[w]] = index[v]
        images.append(itemgetter(*source))

    def canon(s: State) -> State:
        return min(s, *(image(s) for image in images))

    return canon
