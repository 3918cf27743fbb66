"""State symmetries a search may merge states under.

A model declares permutations of its state variables (``Planning.symmetries``:
the value of ``v`` moves to ``mapping[v]``); :func:`cpsolve.model.moves.goal_symmetries`
keeps those that map the actions and the goal onto themselves (a declared
permutation that fails is simply not used: the search stays correct, only
slower).  :func:`canonical_form` returns ``canon(s)``, the least of ``s`` and
its images: two states are merged exactly when their canonical forms agree.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from ....model import Planning
from ....model.moves import goal_symmetries
from ..compile import State

Canon = Callable[[State], State]


def canonical_form(model: Planning, mappings: list[dict[str, str]] | None = None) -> Canon:
    """``canon(s)``: the least of ``s`` and its images under the symmetries that keep the goal.

    Without usable symmetries it is the identity.
    """
    mappings = goal_symmetries(model) if mappings is None else mappings
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
