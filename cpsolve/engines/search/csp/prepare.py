"""What :mod:`.backtrack` derives from a model once: domains' bit masks, compiled conditions,
tight groups."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ....model import AllDifferent, Circuit, Csp
from ..emit import build

_COMPILED: dict[str, Callable[[list], object]] = {}
"""Condition functions by their emitted text: models of one family share most of them."""


def compiled(text: str) -> Callable[[list], object]:
    """``def holds(a): return <text>``, compiled once per text (a batch re-emits the same)."""
    fn = _COMPILED.get(text)
    if fn is None:
        if len(_COMPILED) >= 4096:
            _COMPILED.clear()
        fn = _COMPILED[text] = build(f"def holds(a):\n    return {text}\n", {}, "holds")
    return fn


def tight_groups(model: Csp, index: dict[str, int],
                 doms: list[int]) -> list[tuple[tuple[int, ...], int, Callable]]:
    """(variables, union of their domains, their getter) per tight all-different group.

    A group is tight when its variables' domains (bit masks) hold, together,
    exactly as many values as it has variables: each value must then go to
    one of them.  Circuits count: their successors are all different.
    """
    out = []
    for c in model.constraints:
        if isinstance(c, (AllDifferent, Circuit)):
            xs = tuple(index[x] for x in c.names)
            full = 0
            for x in xs:
                full |= doms[x]
            if len(xs) > 1 and full.bit_count() == len(xs):
                out.append((xs, full, itemgetter(*xs)))
    return out


def mask(values: Sequence[int], base: int) -> int:
    """The bit mask of ``values`` (bit ``v - base`` for value ``v``); a range's in one step,
    not a million additions of ever larger numbers."""
    if isinstance(values, range) and values.step == 1:
        return ((1 << len(values)) - 1) << (values.start - base) if values else 0
    return sum(1 << (v - base) for v in values)


def satisfying(fn: Callable[[list], object], vals: list, y: int, d: int, base: int) -> int:
    """The values of ``y``'s domain ``d`` (a bit mask over ``base``) for which the
    condition ``fn`` holds, the other variables as in ``vals``."""
    keep, rest = 0, d
    while rest:
        low = rest & -rest
        rest ^= low
        vals[y] = low.bit_length() - 1 + base
        if fn(vals):
            keep |= low
    vals[y] = None
    return keep


def each(xs: list[int]) -> Callable[[list], tuple]:
    """``itemgetter(*xs)`` that returns a tuple for fewer than two indices too."""
    return lambda a: tuple(a[x] for x in xs)
