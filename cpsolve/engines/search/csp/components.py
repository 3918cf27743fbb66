"""Counting a csp by independent parts: the variables no constraint links are counted apart,
and the counts multiplied (three unconstrained digits of 0..999: 1,000^3 solutions from
3,000 values tried, not 10^9 solutions enumerated one by one).

The parts are the connected components of the graph whose nodes are the variables and
whose edges join the variables of each constraint.  Only a plain count splits (no listing,
no limit, no stream, no declared symmetries, no objective): a listing needs every
combination, one by one.
"""

from __future__ import annotations

from ....language.walk import variables
from ....model import Csp
from ....model.csp import Condition, Constraint


def parts(model: Csp) -> list[Csp] | None:
    """The independent parts of ``model`` (None when it is one part)."""
    owner = {name: name for name in model.domains}

    def root(name: str) -> str:
        while owner[name] != name:
            owner[name] = owner[owner[name]]
            name = owner[name]
        return name

    for constraint in model.constraints:
        scope = _scope(constraint)
        if not scope:  # a constant condition belongs to no part: it holds for all or none
            return None
        for name in scope[1:]:
            owner[root(name)] = root(scope[0])
    groups: dict[str, list[str]] = {}
    for name in model.domains:
        groups.setdefault(root(name), []).append(name)
    if len(groups) < 2:
        return None
    return [_part(model, names) for names in groups.values()]


def _scope(constraint: Constraint) -> list[str]:
    """The variables ``constraint`` reads."""
    if isinstance(constraint, Condition):
        return sorted(variables(constraint.expr))
    return list(constraint.names)


def _part(model: Csp, names: list[str]) -> Csp:
    """``model`` restricted to the variables ``names`` and the constraints that read them."""
    part = Csp(model.name)
    chosen = set(names)
    part.domains = {n: model.domains[n] for n in names}
    part.allowed = {n: v for n, v in model.allowed.items() if n in chosen}
    part.constraints = [c for c in model.constraints if set(_scope(c)) & chosen]
    return part
