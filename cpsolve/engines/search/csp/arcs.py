"""Conditions over successor variables, enforced on arcs (for :mod:`.hamilton`).

Each conjunct of each condition is compiled to Python by :mod:`..emit`
(variables read as ``a[node]``).  A conjunct over one variable removes that
node's failing arcs once, before the search; the others are checked as soon
as all their variables are assigned, and with one variable left they remove
that variable's failing values — arcs — on a trail that backtracking undoes.
"""

from __future__ import annotations

from collections.abc import Callable

from ....answers.result import Unsupported
from ....language.expr import conjuncts
from ....language.walk import variables
from ....model import Condition, Csp
from ..emit import TooDeep, build, source

Trail = list[tuple[list[int], int, int]]
"""Undo records: (array, index, old value)."""


class ArcConditions:
    """The model's conditions over the successor variables ``names`` (node ``i`` = ``names[i]``).

    ``out[i]`` / ``inn[j]`` are the arc masks (bit ``j`` of ``out[i]``: node
    ``i`` may go to ``j``); one-variable conjuncts narrow them at once.
    ``false`` is True when a conjunct without variables is false.
    """

    def __init__(self, model: Csp, names: tuple[str, ...], out: list[int],
                 inn: list[int]) -> None:
        index = {name: i for i, name in enumerate(names)}
        self.conds: list[tuple[Callable[[list], object], tuple[int, ...]]] = []
        self.of: list[list[int]] = [[] for _ in names]  # conjuncts reading each node
        self.masks: list[int] = []  # the nodes each conjunct reads, as bits
        self.false = False
        for c in model.constraints:
            if isinstance(c, Condition):
                for part in conjuncts(c.expr):
                    self._add(part, index, out, inn)

    def _add(self, expr, index: dict[str, int], out: list[int], inn: list[int]) -> None:
        try:
            text = source(expr, lambda name: f"a[{index[name]}]", "c")
            fn = build(f"def holds(a):\n    return {text}\n", {}, "holds")
        except TooDeep as exc:
            raise Unsupported(f"search: {exc}") from exc
        xs = tuple(sorted(index[v] for v in variables(expr)))
        if not xs:
            self.false |= not fn([])
        elif len(xs) == 1:
            narrow(fn, [None] * len(out), xs[0], out, inn, None)
        else:
            for x in xs:
                self.of[x].append(len(self.conds))
            self.conds.append((fn, xs))
            self.masks.append(sum(1 << x for x in xs))

    def assigned(self, x: int, vals: list, out: list[int], inn: list[int],
                 trail: Trail) -> bool:
        """After ``vals[x]`` was set: check, or narrow the one free variable; False: fails."""
        conds = self.conds
        for k in self.of[x]:
            fn, xs = conds[k]
            free = [y for y in xs if vals[y] is None]
            if not free:
                if not fn(vals):
                    return False
            elif len(free) == 1 and not narrow(fn, vals, free[0], out, inn, trail):
                return False
        return True

    def pending(self, assigned: int) -> int:
        """The assigned nodes (a mask) whose values conjuncts not yet decided still read."""
        out = 0
        for mask in self.masks:
            done = mask & assigned
            if done and done != mask:
                out |= done
        return out


def narrow(fn: Callable[[list], object], vals: list, y: int, out: list[int], inn: list[int],
           trail: Trail | None) -> bool:
    """Remove the arcs ``y -> v`` for which ``fn`` fails; False if none is left."""
    rest = out[y]
    while rest:
        low = rest & -rest
        rest ^= low
        v = low.bit_length() - 1
        vals[y] = v
        if not fn(vals):
            if trail is not None:
                trail.append((out, y, out[y]))
                trail.append((inn, v, inn[v]))
            out[y] &= ~low
            inn[v] &= ~(1 << y)
    vals[y] = None
    return out[y] != 0
